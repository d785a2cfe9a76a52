package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
)

// gluedExcerpt copies the first share of a body's sentences as a site that
// edits while it copies: of every three sentences, the first two are glued
// into one (the full stop between them turned into a comma), the third
// kept as it was. Two sentences in three no longer match any of the
// original's; nearly all of the text still does.
func gluedExcerpt(body string, share float64) string {
	s := corpus.SplitSentences(body)
	s = s[:int(float64(len(s))*share)]
	var b strings.Builder
	for i, sentence := range s {
		if i%3 == 0 && i+1 < len(s) {
			b.WriteString(strings.TrimRight(sentence, "。！？…”’\""))
			b.WriteString("，")
			continue
		}
		b.WriteString(sentence)
		b.WriteString("\n")
	}
	return b.String()
}

// TestEditedExcerptsArePartial stores articles and then excerpts of them
// whose sentences were glued together as they were copied: too few whole
// sentences match for the sentence coverage, the text measure finds them,
// one at a time and in a batch. A story that shares one sentence with a
// stored one stays unique.
func TestEditedExcerptsArePartial(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(12, 3))
	os := novel(t).Originals(rng, 4, 1500, 2500)
	stored := make([]service.Verdict, 3)
	for i, a := range os[:3] {
		v, err := svc.Ingest(ctx, input(fmt.Sprintf("original-%d", i), a), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		stored[i] = v
	}
	want := func(name string, v service.Verdict, of service.Verdict) {
		t.Helper()
		switch {
		case v.Status != service.StatusPartialDuplicate || v.DuplicateOf == nil || v.DuplicateOf.ID != of.ID:
			t.Errorf("%s: %s of %+v, want a partial duplicate of %d", name, v.Status, v.DuplicateOf, of.ID)
		case v.DuplicateOf.Coverage.This < 0.8:
			t.Errorf("%s: coverage %+v, want this ≥ 0.8 (nearly all its text is the original's)", name, v.DuplicateOf.Coverage)
		}
	}

	v, err := svc.Ingest(ctx, input("excerpt-0", corpus.Article{Title: "摘编", Body: gluedExcerpt(os[0].Body, 0.6)}), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	want("an edited excerpt", v, stored[0])

	batch := []corpus.Article{
		{Title: "摘编一", Body: gluedExcerpt(os[1].Body, 0.6)},
		{Title: "摘编二", Body: gluedExcerpt(os[2].Body, 0.6)},
		{Title: "引用", Body: os[3].Body + corpus.SplitSentences(os[0].Body)[4]},
	}
	results, err := svc.IngestBatch(ctx, batchOf(svc, []string{"excerpt-1", "excerpt-2", "quote"}, batch))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		if r.Err != nil {
			t.Fatalf("batch item %d: %v", i, r.Err)
		}
	}
	want("an edited excerpt in a batch", results[0].Verdict, stored[1])
	want("another edited excerpt in a batch", results[1].Verdict, stored[2])
	if v := results[2].Verdict; v.Status != service.StatusUnique {
		t.Errorf("a story quoting one sentence: %s of %+v, want unique", v.Status, v.DuplicateOf)
	}
	checkLinks(t, st)
}
