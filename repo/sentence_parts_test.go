package repo_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestSentenceSearchParts checks how many statements a search is split
// into: the cores the busy connections leave, at least 32 sentences each.
func TestSentenceSearchParts(t *testing.T) {
	for _, c := range []struct{ sentences, cores, busy, want int }{
		{200, 2, 0, 2},
		{200, 2, 1, 1},   // one core left: one statement
		{200, 2, 5, 1},   // more connections in use than cores
		{63, 2, 0, 1},    // too short for two parts of 32
		{64, 2, 0, 2},    // two parts of 32
		{100, 8, 0, 3},   // at least 32 sentences a part
		{100, 8, 6, 2},   // the cores left
		{500, 1, 0, 1},   // SearchParts 1: never split
		{0, 2, 0, 1},     // nothing to search
		{400, 16, 0, 12}, // 400/32
	} {
		if got := repo.SentenceSearchParts(c.sentences, c.cores, c.busy); got != c.want {
			t.Errorf("sentenceSearchParts(%d sentences, %d cores, %d busy) = %d, want %d", c.sentences, c.cores, c.busy, got, c.want)
		}
	}
}

// TestSentenceSearchInParts looks up a long article's sentences through an
// idle store, which sends the search as three statements at once, and
// through a transaction, which sends it as one: the same matches, each with
// its query sentence and its text; and through the store again while two
// of its connections are in use, which leaves it one core and so one
// statement.
func TestSentenceSearchInParts(t *testing.T) {
	ctx := context.Background()
	st, searches, q := longArticleStore(t, repo.SentenceMatchesSQL)

	var inOne []service.SentenceMatch
	before := searches.n.Load()
	if err := st.InTx(ctx, func(tx service.Tx) (err error) {
		inOne, err = tx.SentenceMatches(ctx, q)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n := searches.n.Load() - before; n != 1 {
		t.Fatalf("a transaction's search ran %d statements, want 1", n)
	}
	near := 0
	for _, m := range inOne {
		if m.Text != "" {
			near++
		}
	}
	if len(inOne) < len(q.Sentences) || near == 0 {
		t.Fatalf("the search found %d matches, %d of them by simhash alone, for %d sentences: the fixture does not test the parts", len(inOne), near, len(q.Sentences))
	}

	search := func(wantStatements int64) {
		t.Helper()
		before := searches.n.Load()
		inParts, err := st.SentenceMatches(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if n := searches.n.Load() - before; n != wantStatements {
			t.Errorf("the store's search ran %d statements, want %d", n, wantStatements)
		}
		byKey := func(a, b service.SentenceMatch) int {
			return cmp.Or(cmp.Compare(a.Query, b.Query), cmp.Compare(a.ArticleID, b.ArticleID), cmp.Compare(a.Position, b.Position))
		}
		want := slices.SortedFunc(slices.Values(inOne), byKey)
		got := slices.SortedFunc(slices.Values(inParts), byKey)
		if len(got) != len(want) {
			t.Fatalf("%d matches in %d statements, want one statement's %d", len(got), wantStatements, len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("match %d in %d statements:\n%+v\nwant one statement's\n%+v", i, wantStatements, got[i], want[i])
			}
		}
	}
	search(3)

	var held []func()
	for range 2 {
		conn, err := st.Pool().Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, conn.Release)
	}
	search(1)
	for _, release := range held {
		release()
	}
}

// longArticleStore opens a store that splits a long search into three
// parts, counting the statements sent as sql, and stores the long article
// fixture in it (storeLongArticleFixture).
func longArticleStore(t *testing.T, sql string) (*repo.Store, *statementCounter, service.SentenceQuery) {
	t.Helper()
	counter := &statementCounter{match: func(s string) bool { return s == sql }}
	st, err := repo.Open(context.Background(), dbtest.URL(t), repo.Options{MaxConns: 6, SearchParts: 3, Tracer: counter})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st, counter, storeLongArticleFixture(t, st)
}

// storeLongArticleFixture stores 80 overlapping cuts of the novel with
// their sentences, unjudged, and returns the query of a long article made
// of several of them: each of its sentences is found in several stored
// articles (the first excluded), every third with another text hash and a
// few bits flipped, found by its simhash and given the stored text.
func storeLongArticleFixture(tb testing.TB, st *repo.Store) service.SentenceQuery {
	tb.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(20261126, 1))
	articles := novel(tb).Overlapping(rng, 80, 600, 3000)
	fps := fingerprintAll(tb, algorithm(tb), articles)
	ids := copyArticles(tb, st, fixtureRows("p-", articles, fps))
	bySentence := make(map[int64][]fingerprint.Sentence)
	for i, fp := range fps {
		bySentence[ids[i]] = fp.Sentences
	}
	if err := st.CopySentences(ctx, bySentence); err != nil {
		tb.Fatal(err)
	}

	// A long article: the sentences of several stored ones (overlapping
	// cuts of the novel, so each is found in several), every third with
	// another text hash and a few bits flipped, found by its simhash and
	// given the stored text.
	var long []fingerprint.Sentence
	for i := 0; len(long) < 150; i++ {
		long = append(long, fps[i].Sentences...)
	}
	for i := range long {
		if i%3 == 0 && long[i].HasSimhash {
			long[i].TextHash = rng.Uint64()
			long[i].Simhash = flipBits(rng, long[i].Simhash, 1+rng.IntN(3))
		}
	}
	return service.SentenceQuery{Sentences: long, MaxDistance: 3, ExcludeID: ids[0], PerSentence: 20}

}

// BenchmarkSentenceSearch looks up a long article's sentences (150 or
// more) through an idle store in one statement and in the parts of two
// cores:
//
//	DATABASE_URL=… go test ./repo -run '^$' -bench SentenceSearch -count 6
func BenchmarkSentenceSearch(b *testing.B) {
	ctx := context.Background()
	for _, parts := range []int{1, 2} {
		b.Run(fmt.Sprintf("parts=%d", parts), func(b *testing.B) {
			st, err := repo.Open(ctx, dbtest.URL(b), repo.Options{MaxConns: 4, SearchParts: parts})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(st.Close)
			q := storeLongArticleFixture(b, st)
			if _, err := st.Pool().Exec(ctx, "VACUUM ANALYZE sentences"); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := st.SentenceMatches(ctx, q); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(q.Sentences)), "sentences")
		})
	}
}
