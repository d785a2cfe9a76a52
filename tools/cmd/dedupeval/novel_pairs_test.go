package main

import "testing"

// Every copy meets its own original as the one duplicate among its pairs,
// an original never meets itself, and no pair comes twice.
func TestForEachPair(t *testing.T) {
	t.Parallel()
	c := labelledCorpus{Originals: make([]original, 4)}
	for i := range c.Originals {
		c.Originals[i].Band = i % len(novelBands)
	}
	for i := range c.Originals {
		for _, e := range copyEdits() {
			c.Copies = append(c.Copies, labelledCopy{Of: i, Edit: e})
		}
	}
	qs := queries(c)
	if want := len(c.Originals) * (1 + len(copyEdits())); len(qs) != want {
		t.Fatalf("%d queries, want %d", len(qs), want)
	}
	type pair struct{ q, s int }
	seen := make(map[pair]bool)
	dups := make(map[int]int) // query → its duplicate pairs
	forEachPair(qs, len(c.Originals), func(q, s int, dup bool) {
		p := pair{q, s}
		if seen[p] {
			t.Errorf("pair %v counted twice", p)
		}
		seen[p] = true
		if qs[q].Edit == editNone && s == qs[q].Of {
			t.Errorf("original %d paired with itself", s)
		}
		if want := qs[q].Edit != editNone && s == qs[q].Of; dup != want {
			t.Errorf("pair %v: dup = %v, want %v", p, dup, want)
		}
		if dup {
			dups[q]++
		}
	})
	if want := len(qs)*len(c.Originals) - len(c.Originals); len(seen) != want {
		t.Errorf("%d pairs, want %d", len(seen), want)
	}
	for q, query := range qs {
		want := 1
		if query.Edit == editNone {
			want = 0
		}
		if dups[q] != want {
			t.Errorf("query %d (%s of %d): %d duplicate pairs, want %d", q, query.Edit, query.Of, dups[q], want)
		}
		if query.Band != c.Originals[query.Of].Band {
			t.Errorf("query %d in band %d, its original in %d", q, query.Band, c.Originals[query.Of].Band)
		}
	}
}
