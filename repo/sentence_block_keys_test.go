package repo_test

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// oldSentenceSearchSQL is the near part of the sentence search before
// migration 00019, through the block columns: what the binary before it
// asks while an installation is taken back down.
const oldSentenceSearchSQL = `
	SELECT q.i, s.article_id, s.position
	FROM unnest($1::int4[], $2::int8[], $3::int2[], $4::int2[], $5::int2[], $6::int2[], $7::int2[], $8::int2[], $9::int2[], $10::int2[])
	     AS q(i, simhash, a0, a1, a2, a3, b0, b1, b2, b3)
	JOIN sentences s
	  ON (s.a0 = q.a0 OR s.a1 = q.a1 OR s.a2 = q.a2 OR s.a3 = q.a3)
	 AND (s.b0 = q.b0 OR s.b1 = q.b1 OR s.b2 = q.b2 OR s.b3 = q.b3)
	 AND bit_count((s.simhash # q.simhash)::bit(64)) <= 3`

// TestSentenceBlockKeysMigration upgrades a database whose sentences the
// binary before migration 00019 wrote (block columns filled, found through
// their B-trees): the new search must find, for every query, exactly what a
// scan finds. Then the new binary writes sentences (no block columns) and
// the schema goes back down: every row must carry the block values of its
// simhash, and the search of the binary before find exactly what a scan
// finds, the new rows among them; and up again. The binary before writes
// while the index is built (CONCURRENTLY): an installation upgrades while
// it serves.
func TestSentenceBlockKeysMigration(t *testing.T) {
	ctx := context.Background()
	m, url := newMigrator(t)
	if _, err := m.DownTo(ctx, 18); err != nil { // the schema before 00019
		t.Fatal(err)
	}
	st := openStore(t, url, 2)
	rng := rand.New(rand.NewPCG(19, 19))
	ids := copyArticles(t, st, randomRows(rng, 40, fingerprint.VersionOneScript))
	oldIDs, newIDs := ids[:30], ids[30:]

	// Queries, and stored sentences 0–4 bits from each, with texts of their
	// own; those 4 bits away must not match. Also a stored sentence with a
	// query's text and a simhash far from it, which only the text finds.
	queries := make([]fingerprint.Sentence, 60)
	for i := range queries {
		queries[i] = fingerprint.Sentence{Start: 0, End: 10, Runes: 10, TextHash: rng.Uint64(), Simhash: rng.Uint64(), HasSimhash: true}
	}
	near := func(q fingerprint.Sentence, flips int) fingerprint.Sentence {
		s := fingerprint.Sentence{Start: 0, End: 10, Runes: 10, TextHash: rng.Uint64(), Simhash: q.Simhash, HasSimhash: true}
		for _, b := range rng.Perm(64)[:flips] {
			s.Simhash ^= 1 << b
		}
		return s
	}
	written := func(owners []int64) map[int64][]fingerprint.Sentence {
		out := make(map[int64][]fingerprint.Sentence)
		for i, q := range queries {
			for flips := range 5 {
				id := owners[rng.IntN(len(owners))]
				out[id] = append(out[id], near(q, flips))
			}
			if i%10 == 0 {
				same := near(q, 20)
				same.TextHash = q.TextHash
				id := owners[rng.IntN(len(owners))]
				out[id] = append(out[id], same)
			}
		}
		return out
	}
	var table []storedSentence
	old := written(oldIDs)
	for id, ss := range old {
		for p, s := range ss {
			if err := insertOldSentence(st, id, p, s); err != nil {
				t.Fatal(err)
			}
			table = append(table, storedSentence{article: id, position: p, textHash: s.TextHash, simhash: s.Simhash, has: true})
		}
	}

	// The binary before keeps writing while the index is built.
	stop, done := make(chan struct{}), make(chan []storedSentence)
	go func() {
		var wrote []storedSentence
		defer func() { done <- wrote }()
		for p := 1000; ; p++ {
			select {
			case <-stop:
				return
			default:
			}
			s, id := near(queries[p%len(queries)], p%5), oldIDs[p%len(oldIDs)]
			if err := insertOldSentence(st, id, p, s); err != nil {
				t.Error(err)
				return
			}
			wrote = append(wrote, storedSentence{article: id, position: p, textHash: s.TextHash, simhash: s.Simhash, has: true})
		}
	}()
	_, err := m.Up(ctx)
	close(stop)
	during := <-done
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d sentences written while the index was built", len(during))
	table = append(table, during...)
	var valid bool
	if err := st.Pool().QueryRow(ctx, `SELECT indisvalid FROM pg_index WHERE indexrelid = 'sentences_block_keys_idx'::regclass`).Scan(&valid); err != nil || !valid {
		t.Fatalf("sentences_block_keys_idx valid = %v, %v", valid, err)
	}
	got, err := st.SentenceMatches(ctx, service.SentenceQuery{Sentences: queries, MaxDistance: 3})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range got {
		keys = append(keys, key(m.Query, m.ArticleID, m.Position))
	}
	if want := scanSentences(queries, table, true); !equalSorted(keys, want) {
		t.Errorf("after the upgrade the search found %d sentences written before it, a scan %d", len(keys), len(want))
	}

	// The new binary writes; the schema goes back down.
	fresh := written(newIDs)
	if err := st.CopySentences(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	var blocksWritten int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM sentences WHERE article_id = ANY($1) AND a0 IS NOT NULL`, newIDs).Scan(&blocksWritten); err != nil || blocksWritten != 0 {
		t.Fatalf("the new binary wrote %d rows with block values (%v), want none", blocksWritten, err)
	}
	for id, ss := range fresh {
		for p, s := range ss {
			table = append(table, storedSentence{article: id, position: p, textHash: s.TextHash, simhash: s.Simhash, has: true})
		}
	}
	if _, err := m.DownTo(ctx, 18); err != nil {
		t.Fatal(err)
	}
	wrong := 0
	if err := forEachRow(ctx, st, `SELECT simhash, a0, a1, a2, a3, b0, b1, b2, b3 FROM sentences`, func(v []any) {
		b := fingerprint.BlocksOf(uint64(v[0].(int64)))
		for j := range 4 {
			if v[1+j] == nil || v[5+j] == nil || v[1+j].(int16) != int16(b.A[j]) || v[5+j].(int16) != int16(b.B[j]) {
				wrong++
				return
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if wrong != 0 {
		t.Errorf("after migrating down, %d of %d rows lack their simhash's block values", wrong, len(table))
	}
	var checks int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM pg_constraint WHERE conname = 'sentences_simhash_check'`).Scan(&checks); err != nil || checks != 1 {
		t.Errorf("after migrating down, %d constraints sentences_simhash_check (%v), want 1", checks, err)
	}
	keys = oldSearch(t, st, queries)
	if want := scanSentences(queries, table, false); !equalSorted(keys, want) {
		t.Errorf("after migrating down the search before 00019 found %d sentences, a scan %d", len(keys), len(want))
	}

	if _, err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SentenceMatches(ctx, service.SentenceQuery{Sentences: queries, MaxDistance: 3}); err != nil {
		t.Errorf("up again: %v", err)
	}
}

// insertOldSentence writes sentence s as the binary before migration 00019
// did, its block values in the block columns.
func insertOldSentence(st *repo.Store, id int64, position int, s fingerprint.Sentence) error {
	b := fingerprint.BlocksOf(s.Simhash)
	_, err := st.Pool().Exec(context.Background(), `
		INSERT INTO sentences (article_id, position, start_char, end_char, runes, text_hash, simhash, a0, a1, a2, a3, b0, b1, b2, b3)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
		id, position, s.Start, s.End, s.Runes, int64(s.TextHash), int64(s.Simhash),
		int16(b.A[0]), int16(b.A[1]), int16(b.A[2]), int16(b.A[3]), int16(b.B[0]), int16(b.B[1]), int16(b.B[2]), int16(b.B[3]))
	return err
}

// scanSentences is what a scan of table finds for each query: within 3
// bits, and with the same text too when withText.
func scanSentences(queries []fingerprint.Sentence, table []storedSentence, withText bool) []string {
	var out []string
	for i, q := range queries {
		for _, r := range table {
			if (withText && r.textHash == q.TextHash) || (r.textHash != q.TextHash && bits.OnesCount64(q.Simhash^r.simhash) <= 3) {
				out = append(out, key(i, r.article, r.position))
			}
		}
	}
	return out
}

// oldSearch runs oldSentenceSearchSQL for queries, leaving out the matches
// of a query's own text as the binary before did in that half of its search.
func oldSearch(t *testing.T, st *repo.Store, queries []fingerprint.Sentence) []string {
	t.Helper()
	args := make([]any, 10)
	idx, hashes := make([]int32, len(queries)), make([]int64, len(queries))
	blocks := make([][]int16, 8)
	for i, q := range queries {
		idx[i], hashes[i] = int32(i), int64(q.Simhash)
		b := fingerprint.BlocksOf(q.Simhash)
		for j := range 4 {
			blocks[j] = append(blocks[j], int16(b.A[j]))
			blocks[4+j] = append(blocks[4+j], int16(b.B[j]))
		}
	}
	args[0], args[1] = idx, hashes
	for j := range blocks {
		args[2+j] = blocks[j]
	}
	rows, err := st.Pool().Query(context.Background(), oldSentenceSearchSQL+` AND s.text_hash <> ($11::int8[])[q.i + 1]`, append(args, textHashes(queries))...)
	if err != nil {
		t.Fatal(err)
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var i int32
		var id int64
		var p int32
		err := r.Scan(&i, &id, &p)
		return key(int(i), id, int(p)), err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func textHashes(queries []fingerprint.Sentence) []int64 {
	out := make([]int64, len(queries))
	for i, q := range queries {
		out[i] = int64(q.TextHash)
	}
	return out
}

// equalSorted reports whether a and b hold the same keys, as many times each.
func equalSorted(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
