package repo_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// storedSentence is a row of the sentence table, as the brute force reads it.
type storedSentence struct {
	article  int64
	position int
	textHash uint64
	simhash  uint64
	has      bool
	text     string // cut from its article by PostgreSQL's substring()
}

// TestSentenceIndex checks the sentence query on more than 200,000 stored
// sentences of real text (articles cut from 围城 and edited copies of them):
// that it returns exactly what a scan of every stored sentence returns, at
// every distance 0–3, each stored sentence whose text is not the query's
// with its text, and that PostgreSQL answers it through the block keys'
// GIN index.
func TestSentenceIndex(t *testing.T) {
	ctx := context.Background()
	st := newStore(t, 4)
	nv := novel(t)
	alg := algorithm(t)
	rng := rand.New(rand.NewPCG(20261124, 2))

	var articles []corpus.Article
	for _, a := range nv.Overlapping(rng, 1700, 600, 3000) {
		articles = append(articles, a)
		for range 2 {
			articles = append(articles, nv.Apply(rng, a, corpus.AllEdits[rng.IntN(len(corpus.AllEdits))]))
		}
	}
	fps := fingerprintAll(t, alg, articles)
	if _, err := st.CopyArticles(ctx, fixtureRows("s-", articles, fps)); err != nil {
		t.Fatal(err)
	}
	ids := make(map[string]int64)
	if err := forEachRow(ctx, st, `SELECT external_id, id FROM articles`, func(values []any) {
		ids[values[0].(string)] = values[1].(int64)
	}); err != nil {
		t.Fatal(err)
	}
	bySentence := make(map[int64][]fingerprint.Sentence)
	total := 0
	for i, fp := range fps {
		bySentence[ids["s-"+itoa(i)]] = fp.Sentences
		total += len(fp.Sentences)
	}
	if err := st.CopySentences(ctx, bySentence); err != nil {
		t.Fatal(err)
	}
	if total < 200_000 {
		t.Fatalf("the fixture holds %d sentences, want at least 200,000", total)
	}
	if _, err := st.Pool().Exec(ctx, "ANALYZE sentences"); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d articles, %d stored sentences", len(fps), total)

	var table []storedSentence
	texts := make(map[string]string) // by key(0, article, position)
	if err := forEachRow(ctx, st, `
		SELECT s.article_id, s.position, s.text_hash, coalesce(s.simhash, 0), s.simhash IS NOT NULL,
		       substring(coalesce(a.plain_body, a.body) FROM s.start_char + 1 FOR s.end_char - s.start_char)
		FROM sentences s JOIN articles a ON a.id = s.article_id`, func(v []any) {
		r := storedSentence{v[0].(int64), int(v[1].(int32)), uint64(v[2].(int64)), uint64(v[3].(int64)), v[4].(bool), v[5].(string)}
		table = append(table, r)
		texts[key(0, r.article, r.position)] = r.text
	}); err != nil {
		t.Fatal(err)
	}

	t.Run("indexed query equals brute force", func(t *testing.T) {
		found := make([]int, 4)
		for qi, q := range sentenceQueries(t, rng, fps, ids) {
			// One scan of every stored sentence per query sentence, with the
			// distance of each match (0 for the same text).
			type hit struct {
				key      string
				distance int
			}
			var scanned []hit
			for i, s := range q.sentences {
				for _, r := range table {
					switch {
					case r.article == q.exclude:
					case r.textHash == s.TextHash:
						scanned = append(scanned, hit{key(i, r.article, r.position), 0})
					case s.HasSimhash && r.has:
						if d := fingerprint.Distance(s.Simhash, r.simhash); d <= fingerprint.MaxIndexedDistance {
							scanned = append(scanned, hit{key(i, r.article, r.position), d})
						}
					}
				}
			}
			for k := 0; k <= fingerprint.MaxIndexedDistance; k++ {
				ms, err := st.SentenceMatches(ctx, service.SentenceQuery{Sentences: q.sentences, MaxDistance: k, ExcludeID: q.exclude})
				if err != nil {
					t.Fatal(err)
				}
				var got, want []string
				for _, m := range ms {
					got = append(got, key(m.Query, m.ArticleID, m.Position))
					wantText := texts[key(0, m.ArticleID, m.Position)]
					if m.TextHash == q.sentences[m.Query].TextHash {
						wantText = "" // the query's own text
					}
					if m.Text != wantText {
						t.Errorf("query %d, k=%d, sentence %d of article %d: text %q, want %q", qi, k, m.Position, m.ArticleID, m.Text, wantText)
					}
				}
				for _, h := range scanned {
					if h.distance <= k {
						want = append(want, h.key)
					}
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("query %d, k=%d: the index returned %d sentences, the scan %d", qi, k, len(got), len(want))
				}
				found[k] += len(want)
			}
		}
		t.Logf("stored sentences matched, summed over the queries: k=0:%d k=1:%d k=2:%d k=3:%d", found[0], found[1], found[2], found[3])
		for k := 1; k < len(found); k++ {
			if found[k] <= found[k-1] {
				t.Errorf("k=%d matches no more than k=%d (%d): the queries do not exercise the distances", k, k-1, found[k])
			}
		}
	})

	t.Run("plan uses the sentence block keys' index", func(t *testing.T) {
		q := service.SentenceQuery{Sentences: fps[0].Sentences, MaxDistance: 3, PerSentence: 20}
		var plan []byte
		if err := st.Pool().QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+repo.SentenceMatchesSQL, repo.SentenceMatchesArgs(q)...).Scan(&plan); err != nil {
			t.Fatal(err)
		}
		checkSentencePlan(t, plan)
	})

	// A prepared statement run often gets a generic plan, made without the
	// parameters' values: it must use the indexes too.
	t.Run("generic plan uses the sentence block keys' index", func(t *testing.T) {
		var sentences []fingerprint.Sentence // with a simhash each: a NULL has no type as a literal
		for _, fp := range fps {
			for _, s := range fp.Sentences {
				if s.HasSimhash && len(sentences) < 30 {
					sentences = append(sentences, s)
				}
			}
		}
		q := service.SentenceQuery{Sentences: sentences, MaxDistance: 3, PerSentence: 20}
		checkSentencePlan(t, genericPlan(t, st, repo.SentenceMatchesSQL, repo.SentenceMatchesArgs(q)))
	})
}

type sentenceQuery struct {
	sentences []fingerprint.Sentence
	exclude   int64
}

// sentenceQueries are stored articles' sentences (each finds its own
// article's, which the query leaves out, and its copies'); the same with
// 1–3 bits of every simhash flipped, so that the distances 1–3 match; and
// the same texts with simhashes far from theirs, or none: the same text can
// have another simhash (the exact hash leaves out the spaces punctuation
// becomes, the segmenter does not), and is still the same sentence.
func sentenceQueries(t *testing.T, rng *rand.Rand, fps []fingerprint.Fingerprint, ids map[string]int64) []sentenceQuery {
	var qs []sentenceQuery
	for range 40 {
		i := rng.IntN(len(fps))
		qs = append(qs, sentenceQuery{sentences: fps[i].Sentences, exclude: ids["s-"+itoa(i)]})
		flipped := slices.Clone(fps[i].Sentences)
		for j := range flipped {
			flipped[j].TextHash = rng.Uint64() // found by its simhash alone
			flipped[j].Simhash = flipBits(rng, flipped[j].Simhash, 1+rng.IntN(3))
		}
		qs = append(qs, sentenceQuery{sentences: flipped})
		sameText := slices.Clone(fps[i].Sentences)
		for j := range sameText {
			if j%2 == 0 {
				sameText[j].Simhash = flipBits(rng, sameText[j].Simhash, 16) // found by its text alone
			} else {
				sameText[j].Simhash, sameText[j].HasSimhash = 0, false
			}
		}
		qs = append(qs, sentenceQuery{sentences: sameText})
	}
	return qs
}

func key(query int, article int64, position int) string {
	return itoa(query) + "/" + itoa(int(article)) + "/" + itoa(position)
}

func forEachRow(ctx context.Context, st *repo.Store, sql string, fn func([]any)) error {
	rows, err := st.Pool().Query(ctx, sql)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		v, err := rows.Values()
		if err != nil {
			return err
		}
		fn(v)
	}
	return rows.Err()
}

// checkSentencePlan asserts that the plan asks the block keys' GIN index
// for both families in one scan, which intersects them inside the index.
func checkSentencePlan(t *testing.T, raw []byte) {
	t.Helper()
	var doc []struct {
		Plan planNode `json:"Plan"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc) != 1 {
		t.Fatalf("cannot read the plan (%v): %s", err, raw)
	}
	var scans []planNode
	var walk func(n *planNode)
	walk = func(n *planNode) {
		if n.NodeType == "Bitmap Index Scan" && n.IndexName == "sentences_block_keys_idx" {
			scans = append(scans, *n)
		}
		for i := range n.Plans {
			walk(&n.Plans[i])
		}
	}
	walk(&doc[0].Plan)
	if len(scans) != 1 {
		t.Fatalf("the plan has %d bitmap scans of sentences_block_keys_idx, want 1:\n%s", len(scans), raw)
	}
	for _, family := range []string{"[1:4]", "[5:8]"} {
		if !strings.Contains(scans[0].IndexCond, family) {
			t.Errorf("the scan of sentences_block_keys_idx does not ask for the keys %s (%s):\n%s", family, scans[0].IndexCond, raw)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
