package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

// newsCheckSet is the real news of the check section: what is stored
// through the service, and what is held out, never stored, to check as
// new stories.
type newsCheckSet struct {
	Stored  []newsItem // in the corpora's order: Sina, then CCTV, each in file order
	HeldOut []newsItem
	Blank   int // articles left out for their blank body
	// Unstored counts the articles neither stored nor held out: those
	// -news-check-articles leaves out.
	Unstored int
}

// readNewsCheckSet reads every article of every corpus in dir, leaves out
// those with a blank body (the service refuses them: they would measure
// nothing), gives them their publication times and holds heldOut of them
// out (splitHeldOut). why says which corpus is missing ("" when none is):
// the section is then skipped. The articles are read at run time and
// never written anywhere but to the service under test.
func readNewsCheckSet(ctx context.Context, dir string, heldOut, limit int) (set *newsCheckSet, why string, err error) {
	articles, blank, why, err := newscorpus.ReadAll(ctx, dir)
	if err != nil || why != "" {
		return nil, why, err
	}
	items := make([]newsItem, len(articles))
	for i := range articles {
		a := &articles[i]
		items[i] = newsItem{ExternalID: a.ExternalID(), Title: a.Title, Body: a.Body, Published: a.Published}
	}
	if len(items) <= heldOut {
		return nil, "", fmt.Errorf("the corpora in %s hold %d articles with a body, not more than the %d to hold out", dir, len(items), heldOut)
	}
	stored, held := splitHeldOut(items, heldOut, limit)
	return &newsCheckSet{Stored: stored, HeldOut: held, Blank: blank, Unstored: len(items) - len(stored) - len(held)}, "", nil
}

// splitHeldOut holds heldOut items, drawn at random with a fixed seed, out
// of the stored ones, and keeps at most limit of the others (0: all),
// drawn at random too; the stored items keep their order, which is the
// order a newsroom received them in.
func splitHeldOut(items []newsItem, heldOut, limit int) (stored, held []newsItem) {
	perm := rand.New(rand.NewPCG(20260601, 11)).Perm(len(items))
	heldOut = min(heldOut, len(items))
	for _, i := range perm[:heldOut] {
		held = append(held, items[i])
	}
	keep := perm[heldOut:]
	if limit > 0 && limit < len(keep) {
		keep = keep[:limit]
	}
	keep = slices.Clone(keep)
	slices.Sort(keep)
	stored = make([]newsItem, len(keep))
	for j, i := range keep {
		stored[j] = items[i]
	}
	return stored, held
}

// newsReposts makes an edited copy of n stored articles drawn at random
// with a fixed seed, each with an edit of corpus.AllEdits drawn at random
// as the real set's reposts are (the novel gives the sentences and
// bylines some edits add), published an hour after its original, so that
// the service's window holds the original. An edit that cannot apply (a
// paragraph moved in a one-paragraph story) leaves an exact copy.
func newsReposts(novel *corpus.Novel, stored []newsItem, n int) []newsItem {
	rng := rand.New(rand.NewPCG(20260601, 12))
	n = min(n, len(stored))
	out := make([]newsItem, n)
	for j, i := range rng.Perm(len(stored))[:n] {
		o := &stored[i]
		e := corpus.AllEdits[rng.IntN(len(corpus.AllEdits))]
		a := novel.Apply(rng, corpus.Article{Title: o.Title, Body: o.Body}, e)
		out[j] = newsItem{ExternalID: "repost-" + o.ExternalID, Title: a.Title, Body: a.Body, Published: o.Published.Add(time.Hour)}
	}
	return out
}

// newsCheckBodies encodes items as /v1/check bodies: title, body and
// publication time, no key, as a newsroom checks a story before it stores
// it.
func newsCheckBodies(items []newsItem) ([][]byte, error) {
	out := make([][]byte, len(items))
	for i, it := range items {
		b, err := json.Marshal(map[string]any{
			"title":        it.Title,
			"body":         it.Body,
			"published_at": it.Published.Format(time.RFC3339),
		})
		if err != nil {
			return nil, fmt.Errorf("encode a check: %w", err)
		}
		out[i] = b
	}
	return out, nil
}

// publishedSpan returns the earliest and the latest publication time of
// items.
func publishedSpan(items []newsItem) (first, last time.Time) {
	for i, it := range items {
		if i == 0 || it.Published.Before(first) {
			first = it.Published
		}
		if i == 0 || it.Published.After(last) {
			last = it.Published
		}
	}
	return first, last
}
