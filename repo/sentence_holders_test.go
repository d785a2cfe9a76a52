package repo_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestSentenceHoldersCountTheMatches counts a long article's sentence
// holders through a transaction (one statement) and through an idle store
// (three statements at once): both are what the sentence search finds,
// counted — every match of a sentence, at most the query's 20, and those
// with its exact text.
func TestSentenceHoldersCountTheMatches(t *testing.T) {
	ctx := context.Background()
	st, counts, q := longArticleStore(t, repo.SentenceHoldersSQL)
	q.Sentences = append(q.Sentences, storeHeldSentences(t, st)...)

	var found []service.SentenceMatch
	var inTx []service.Holders
	before := counts.n.Load()
	if err := st.InTx(ctx, func(tx service.Tx) (err error) {
		if found, err = tx.SentenceMatches(ctx, q); err != nil {
			return err
		}
		inTx, err = tx.SentenceHolders(ctx, q)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n := counts.n.Load() - before; n != 1 {
		t.Fatalf("a transaction's count ran %d statements, want 1", n)
	}
	want := make([]service.Holders, len(q.Sentences))
	for _, m := range found {
		want[m.Query].All++
		if m.TextHash == q.Sentences[m.Query].TextHash {
			want[m.Query].SameText++
		}
	}
	var full, spelled, none bool
	for _, h := range want {
		full = full || h.All == q.PerSentence
		spelled = spelled || (h.SameText > 0 && h.SameText < h.All)
		none = none || h.All == 0
	}
	if !full || !spelled || !none {
		t.Fatalf("the fixture: a sentence with %d holders %v, with near spellings among its holders %v, with none %v; want all three",
			q.PerSentence, full, spelled, none)
	}
	if !slices.Equal(inTx, want) {
		t.Errorf("holders in a transaction\n%v\nwant the matches counted\n%v", inTx, want)
	}

	before = counts.n.Load()
	inParts, err := st.SentenceHolders(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if n := counts.n.Load() - before; n != 3 {
		t.Errorf("the store's count ran %d statements, want 3", n)
	}
	if !slices.Equal(inParts, want) {
		t.Errorf("holders through the store in parts\n%v\nwant the matches counted\n%v", inParts, want)
	}
}

// storeHeldSentences stores 40 more articles of one sentence each: 25 hold
// one text (more than a query's 20 holders), 10 another and 5 a near
// spelling of it (another text, a simhash one bit away); it returns those
// two sentences as a query asks for them, and a third that no article
// holds.
func storeHeldSentences(tb testing.TB, st *repo.Store) []fingerprint.Sentence {
	tb.Helper()
	rng := rand.New(rand.NewPCG(20261127, 2))
	sentence := func() fingerprint.Sentence {
		return fingerprint.Sentence{Runes: 30, TextHash: rng.Uint64(), Simhash: rng.Uint64(), HasSimhash: true, End: 30}
	}
	crowded, held, none := sentence(), sentence(), sentence()
	spelled := held
	spelled.TextHash, spelled.Simhash = rng.Uint64(), flipBits(rng, held.Simhash, 1)

	articles := novel(tb).Overlapping(rng, 40, 600, 1000)
	ids := copyArticles(tb, st, fixtureRows("held-", articles, fingerprintAll(tb, algorithm(tb), articles)))
	bySentence := make(map[int64][]fingerprint.Sentence)
	for i, id := range ids {
		switch {
		case i < 25:
			bySentence[id] = []fingerprint.Sentence{crowded}
		case i < 35:
			bySentence[id] = []fingerprint.Sentence{held}
		default:
			bySentence[id] = []fingerprint.Sentence{spelled}
		}
	}
	if err := st.CopySentences(context.Background(), bySentence); err != nil {
		tb.Fatal(err)
	}
	return []fingerprint.Sentence{crowded, held, none}
}
