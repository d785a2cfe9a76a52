package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"testing"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestYoungTableKeepsUsingTheIndex is a new deployment's first minutes, or
// an archive imported into an empty database: a writer's searches run often
// while the tables are nearly empty, then the tables grow tenfold and more
// before autovacuum analyzes them. PostgreSQL keeps a prepared statement's
// generic plan once it has chosen one (plan_cache_mode auto, after five
// runs), and a generic plan made for an empty table may read the whole
// table; kept as the table grows, each search would read every stored row.
// A writer's candidate search is planned for its values on every run; the
// generic plans of the search for copies and of the sentence search read
// their indexes even when made for an empty table. All must read their
// indexes at any size.
func TestYoungTableKeepsUsingTheIndex(t *testing.T) {
	t.Run("statement descriptions cached", func(t *testing.T) {
		youngTable(t, dbtest.URL(t))
	})
	// A URL may turn pgx's description cache off: the search is then
	// described on every run, and still planned on every run.
	t.Run("description_cache_capacity=0", func(t *testing.T) {
		u, err := url.Parse(dbtest.URL(t))
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("description_cache_capacity", "0")
		u.RawQuery = q.Encode()
		youngTable(t, u.String())
	})
}

func youngTable(t *testing.T, databaseURL string) {
	ctx := context.Background()
	// One connection: the one that caches the statements.
	st := openStore(t, databaseURL, 1)
	// Autovacuum's ANALYZE would replace a kept plan, by chance, mid-test.
	for _, table := range []string{"articles", "sentences"} {
		if _, err := st.Pool().Exec(ctx, "ALTER TABLE "+table+" SET (autovacuum_enabled = false)"); err != nil {
			t.Fatal(err)
		}
	}
	version := algorithm(t).Version()
	rng := rand.New(rand.NewPCG(20261126, 1))
	near := make([]service.NearQuery, 10)
	for i := range near {
		near[i] = service.NearQuery{Simhash: rng.Uint64(), Version: version, MaxDistance: 3, Limit: 10}
	}
	sq := service.SentenceQuery{MaxDistance: 3, PerSentence: 10}
	for range 10 {
		sq.Sentences = append(sq.Sentences, randomSentence(rng))
	}
	// The searches a writer makes: for several articles (a batch's group),
	// and for one (a single ingest, in the statements of scalars).
	searchArticles := func(tx service.Tx) error {
		if _, err := tx.NearCandidates(ctx, near); err != nil {
			return err
		}
		_, err := tx.NearCandidates(ctx, near[:1])
		return err
	}
	var copies []service.ExactQuery
	for range 10 {
		eq := service.ExactQuery{Version: version, Limit: 10}
		for i := range eq.ContentHash {
			eq.ContentHash[i] = byte(rng.Uint32())
		}
		copies = append(copies, eq)
	}
	searchCopies := func(tx service.Tx) error {
		if _, err := tx.ExactMatches(ctx, copies); err != nil {
			return err
		}
		_, err := tx.ExactMatches(ctx, copies[:1])
		return err
	}
	searchSentences := func(tx service.Tx) error {
		_, err := tx.SentenceMatches(ctx, sq)
		return err
	}
	// A writer also reads the articles it finds: those under its articles'
	// keys (a retry), the candidates its sentences lead to, and the
	// articles of the sentences it matches (the sentence search's join).
	keys := make([]service.ArticleKey, 10)
	candidates := make([]int64, 10)
	for i := range keys {
		// randomRows' keys and ids, stored below.
		keys[i] = service.ArticleKey{Source: "fixture", ExternalID: fmt.Sprintf("random-%d", i)}
		candidates[i] = int64(i + 1)
	}
	searchKeys := func(tx service.Tx) error {
		_, err := tx.ArticlesByKeys(ctx, keys)
		return err
	}
	searchIDs := func(tx service.Tx) error {
		_, err := tx.Candidates(ctx, candidates)
		return err
	}
	for range 10 {
		seqScanned(t, st, "articles", searchArticles)
		seqScanned(t, st, "articles", searchCopies)
		seqScanned(t, st, "sentences", searchSentences)
		seqScanned(t, st, "articles", searchKeys)
		seqScanned(t, st, "articles", searchIDs)
	}

	const stored = 20_000
	ids := copyArticles(t, st, randomRows(rng, stored, version))
	sentences := make(map[int64][]fingerprint.Sentence)
	for _, id := range ids[:stored/10] {
		for range 10 {
			sentences[id] = append(sentences[id], randomSentence(rng))
		}
	}
	if err := st.CopySentences(ctx, sentences); err != nil {
		t.Fatal(err)
	}

	if n := seqScanned(t, st, "articles", searchArticles); n >= stored {
		t.Errorf("a candidate search of %d fingerprints read %d stored articles one by one (%d stored): its plan is the one made for an empty table", len(near), n, stored)
	}
	if n := seqScanned(t, st, "articles", searchCopies); n >= stored {
		t.Errorf("a search for the copies of %d texts read %d stored articles one by one (%d stored): its plan is the one made for an empty table", len(copies), n, stored)
	}
	if n := seqScanned(t, st, "sentences", searchSentences); n >= stored {
		t.Errorf("a sentence search of %d sentences read %d stored sentences one by one (%d stored): its plan is the one made for an empty table", len(sq.Sentences), n, stored)
	}
	// Now the keys, the ids and the sentences are stored ones: the
	// sentences match, and their articles are read.
	candidates = ids[:len(candidates)]
	sq.Sentences = nil
	for _, id := range candidates {
		sq.Sentences = append(sq.Sentences, sentences[id]...)
	}
	if n := seqScanned(t, st, "articles", searchSentences); n >= stored {
		t.Errorf("a sentence search of %d stored sentences read %d stored articles one by one (%d stored): its plan is the one made for an empty table", len(sq.Sentences), n, stored)
	}
	if n := seqScanned(t, st, "articles", searchKeys); n >= stored {
		t.Errorf("a search for %d stored articles' keys read %d stored articles one by one (%d stored): its plan is the one made for an empty table", len(keys), n, stored)
	}
	if n := seqScanned(t, st, "articles", searchIDs); n >= stored {
		t.Errorf("a read of %d stored candidates read %d stored articles one by one (%d stored): its plan is the one made for an empty table", len(candidates), n, stored)
	}
}

// randomSentence is a sentence with a random text hash and simhash.
func randomSentence(rng *rand.Rand) fingerprint.Sentence {
	return fingerprint.Sentence{Start: 0, End: 20, Runes: 20, TextHash: rng.Uint64(), Simhash: rng.Uint64(), HasSimhash: true}
}

// seqScanned runs search in a writer's transaction (Store.InTx) and
// returns how many rows of table it read by sequential scan.
func seqScanned(t *testing.T, st *repo.Store, table string, search func(service.Tx) error) int64 {
	t.Helper()
	ctx := context.Background()
	var before, after int64
	err := st.InTx(ctx, func(tx service.Tx) error {
		var err error
		if before, err = repo.SeqScannedInTx(ctx, tx, table); err != nil {
			return err
		}
		if err := search(tx); err != nil {
			return err
		}
		after, err = repo.SeqScannedInTx(ctx, tx, table)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return after - before
}
