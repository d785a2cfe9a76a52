package repo_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service"
)

// TestSentencePartitionsRolledBackCorrection corrects a stored article in
// a transaction that rolls back after its new sentences reached its
// partition: lookups then find the new text under the article, which never
// had it; the repair writes the primary's rows back, after which the
// partitions answer as the primary's table does, and a second repair finds
// nothing.
func TestSentencePartitionsRolledBackCorrection(t *testing.T) {
	ctx := context.Background()
	st, _ := partitionedStore(t, 2)
	svc := newService(t, st)
	arts := novel(t).Overlapping(rand.New(rand.NewPCG(49, 10)), 2, 400, 800)
	v, err := svc.Ingest(ctx, input("corrected", arts[0]), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	old, fresh := mustFingerprint(t, arts[0]), mustFingerprint(t, arts[1])
	rollBack := errors.New("roll back")
	err = st.InTx(ctx, func(tx service.Tx) error {
		a := service.Article{ID: v.ID, ExternalID: "corrected", Source: "test", Title: arts[1].Title, Status: service.StatusUnique,
			Simhash: fresh.Simhash, FingerprintVersion: fresh.Version, Words: fresh.Words, ContentHash: fresh.ContentHash,
			Shingles: fresh.Shingles, Sentences: fresh.Sentences, PlainBody: arts[1].Body}
		if err := tx.Correct(ctx, &a, arts[1].Body); err != nil {
			return err
		}
		return rollBack
	})
	if !errors.Is(err, rollBack) {
		t.Fatalf("InTx: %v", err)
	}
	newText := service.SentenceQuery{Sentences: fresh.Sentences, MaxDistance: 0}
	ms, err := st.SentenceMatches(ctx, newText)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 {
		t.Fatal("the rolled-back correction's sentences are not on the partition: the test tests nothing")
	}
	if n, err := st.RepairPartitionSentences(ctx, time.Hour, time.Hour); err != nil || n != 0 {
		t.Errorf("repair of unsettled rows: %d, %v; want 0, nil", n, err)
	}
	n, err := st.RepairPartitionSentences(ctx, time.Hour, 0)
	if err != nil || n != 1 {
		t.Fatalf("repair: %d, %v; want 1 article, nil", n, err)
	}
	if ms, err := st.SentenceMatches(ctx, newText); err != nil || len(ms) != 0 {
		t.Errorf("after the repair the rolled-back text still matches: %d, %v", len(ms), err)
	}
	oldText := service.SentenceQuery{Sentences: old.Sentences, MaxDistance: 3}
	got, err := st.SentenceMatches(ctx, oldText)
	if err != nil {
		t.Fatal(err)
	}
	want, err := st.SentenceMatchesTableAlone(ctx, oldText)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < len(old.Sentences) || !slices.Equal(matchKeys(got), matchKeys(want)) {
		t.Errorf("after the repair: %d matches of the article's own text, the table %d", len(got), len(want))
	}
	if n, err := st.RepairPartitionSentences(ctx, time.Hour, 0); err != nil || n != 0 {
		t.Errorf("second repair: %d, %v; want 0, nil", n, err)
	}

	// A correction to a text with no sentence, rolled back: the article's
	// rows leave its partition; the repair puts them back.
	err = st.InTx(ctx, func(tx service.Tx) error {
		a := service.Article{ID: v.ID, ExternalID: "corrected", Source: "test", Title: "x", Status: service.StatusUnique,
			Simhash: fresh.Simhash, FingerprintVersion: fresh.Version, Words: fresh.Words, ContentHash: fresh.ContentHash,
			Shingles: fresh.Shingles, PlainBody: "x"}
		if err := tx.Correct(ctx, &a, "x"); err != nil {
			return err
		}
		return rollBack
	})
	if !errors.Is(err, rollBack) {
		t.Fatalf("InTx: %v", err)
	}
	if got, err := st.SentenceMatches(ctx, oldText); err != nil || len(got) >= len(want) {
		t.Fatalf("after the rolled-back correction to no sentence: %d matches (the table %d), %v: the test tests nothing", len(got), len(want), err)
	}
	if n, err := st.RepairPartitionSentences(ctx, time.Hour, 0); err != nil || n != 1 {
		t.Fatalf("repair of the correction to no sentence: %d, %v; want 1 article, nil", n, err)
	}
	got, err = st.SentenceMatches(ctx, oldText)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(matchKeys(got), matchKeys(want)) {
		t.Errorf("after the repair: %d matches of the article's own text, the table %d", len(got), len(want))
	}
	if n, err := st.RepairPartitionSentences(ctx, time.Hour, 0); err != nil || n != 0 {
		t.Errorf("third repair: %d, %v; want 0, nil", n, err)
	}
}
