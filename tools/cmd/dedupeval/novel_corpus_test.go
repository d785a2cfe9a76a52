package main

import (
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/internal/corpus"
)

var novel = sync.OnceValues(corpus.LoadNovel)

func mustNovel(tb testing.TB) *corpus.Novel {
	tb.Helper()
	n, err := novel()
	if err != nil {
		tb.Fatalf("LoadNovel() = %v", err)
	}
	return n
}

// The originals keep to their bands, come from the part of the novel before
// it repeats itself, and share no sentence; every original has one copy per
// edit.
func TestBuildCorpus(t *testing.T) {
	t.Parallel()
	n := mustNovel(t)
	c, err := buildCorpus(n, 0)
	if err != nil {
		t.Fatalf("buildCorpus() = %v", err)
	}
	if c.UniqueSentences >= c.Sentences || c.UniqueSentences < c.Sentences*3/4 {
		t.Errorf("cut from %d of %d sentences; want the novel's repeat (about the last eighth) left out", c.UniqueSentences, c.Sentences)
	}
	perBand := make([]int, len(novelBands))
	seen := make(map[string]int)
	sentences := n.Sentences()
	for i, o := range c.Originals {
		bd := novelBands[o.Band]
		if r := utf8.RuneCountInString(o.Body); r < bd.MinRunes || r > bd.MaxRunes {
			t.Errorf("original %d in band %s has %d runes", i, bd.Name, r)
		}
		perBand[o.Band]++
		article := corpus.SplitSentences(o.Body)
		if _, end, ok := locate(sentences, article, 0); !ok || end > c.UniqueSentences {
			t.Errorf("original %d: found %v, ends at sentence %d of %d unique", i, ok, end, c.UniqueSentences)
		}
		for _, s := range article {
			if j, dup := seen[s]; dup && j != i && utf8.RuneCountInString(s) > 20 {
				t.Errorf("originals %d and %d share the sentence %q", j, i, s)
			}
			seen[s] = i
		}
	}
	for b, k := range perBand {
		if k < 40 {
			t.Errorf("band %s has %d originals, want at least 40", novelBands[b].Name, k)
		}
	}
	unapplied := 0
	for _, k := range c.Unapplied {
		unapplied += k
	}
	if want := len(c.Originals)*len(copyEdits()) - unapplied; len(c.Copies) != want || unapplied > len(c.Originals)/3 {
		t.Errorf("%d copies (%v could not apply), want %d", len(c.Copies), c.Unapplied, want)
	}
	for _, cp := range c.Copies {
		if same := cp.Article == c.Originals[cp.Of].Article; same != (cp.Edit == editExact) {
			t.Errorf("copy of %d by %s: identical to its original: %v", cp.Of, cp.Edit, same)
		}
	}
}
