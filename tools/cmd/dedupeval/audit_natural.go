package main

import (
	"slices"

	"github.com/newsdedup/newsdedup/service"
)

// The natural pairs of the feeds — the same article under two headlines,
// the same story republished with small changes, one holding most of the
// other — and whether the service linked them.

// The classes of natural pairs the figures are given for.
const (
	classIdenticalOtherTitle = "identical body, other headline"
	classIdenticalSameTitle  = "identical body and headline (exact copy)"
	classNearIdentical       = "near-identical (Jaccard ≥ 0.8, bodies differ)"
	classPartial             = "partial copy (containment ≥ 0.8, Jaccard < 0.8)"
	classRelated             = "related (containment 0.3–0.8)"
)

var naturalClasses = []string{classIdenticalOtherTitle, classIdenticalSameTitle, classNearIdentical, classPartial, classRelated}

// classOf names the class of a labelled pair.
func classOf(p labelledPair) string {
	switch p.kind() {
	case kindIdentical:
		if p.SameTitle {
			return classIdenticalSameTitle
		}
		return classIdenticalOtherTitle
	case kindNearIdentical:
		return classNearIdentical
	case kindPartial:
		return classPartial
	}
	return classRelated
}

// window is the service's default publication window of near duplicates.
var window = service.DefaultOptions.Window

// inWindow tells whether two articles were published within the window.
func inWindow(a, b *newsArticle) bool {
	d := a.Published.Sub(b.Published)
	return window == 0 || max(d, -d) <= window
}

// naturalKey groups natural pairs.
type naturalKey struct {
	Corpus string // both articles' corpus; "both" across corpora
	Class  string
	Band   int
}

// naturalCount is how many pairs of a group were linked, within the
// window and outside it (where only exact copies can be).
type naturalCount struct {
	InWindow  rate `json:"in_window"`
	OutWindow rate `json:"out_of_window"`
}

// naturalResult is the natural pairs, and a few the service missed.
type naturalResult struct {
	Counts map[naturalKey]*naturalCount
	Misses []pairExample // near-identical and identical-body pairs not linked
}

// linker tells whether the articles of a labelled pair are linked.
type linker func(p labelledPair) bool

// auditNatural counts, per corpus, class and band, the natural pairs
// linked. Pairs whose shorter body is under 80 characters are left out.
func auditNatural(s *newsSet, linked linker) naturalResult {
	res := naturalResult{Counts: make(map[naturalKey]*naturalCount)}
	var misses []labelledPair
	for _, p := range s.Labels.Pairs {
		band := s.pairBand(p.A, p.B)
		if band < 0 {
			continue
		}
		a, b := &s.Articles[p.A], &s.Articles[p.B]
		corpus := a.Corpus
		if b.Corpus != corpus {
			corpus = "both"
		}
		k := naturalKey{Corpus: corpus, Class: classOf(p), Band: band}
		c := res.Counts[k]
		if c == nil {
			c = &naturalCount{}
			res.Counts[k] = c
		}
		hit := linked(p)
		if inWindow(a, b) {
			c.InWindow.add(hit)
			if !hit && (k.Class == classNearIdentical || k.Class == classIdenticalOtherTitle) {
				misses = append(misses, p)
			}
		} else {
			c.OutWindow.add(hit)
		}
	}
	// The closest misses first: the ones a reader would most expect.
	slices.SortStableFunc(misses, func(x, y labelledPair) int {
		switch {
		case x.Jaccard > y.Jaccard:
			return -1
		case x.Jaccard < y.Jaccard:
			return 1
		}
		return 0
	})
	for _, p := range misses[:min(len(misses), maxExamples)] {
		res.Misses = append(res.Misses, exampleOf(s, p.A, p.B, p.likeness))
	}
	return res
}

// total sums the in-window counts of the groups keep accepts.
func (r naturalResult) total(keep func(naturalKey) bool) rate {
	var t rate
	for k, c := range r.Counts {
		if keep(k) {
			t = t.plus(c.InWindow)
		}
	}
	return t
}

// naturalFigures fills in the natural-pair figures of f.
func (r naturalResult) naturalFigures(f *figures) {
	class := func(classes ...string) func(naturalKey) bool {
		return func(k naturalKey) bool { return slices.Contains(classes, k.Class) }
	}
	f.IdenticalOtherTitle = r.total(class(classIdenticalOtherTitle))
	f.NearIdentical = r.total(class(classIdenticalOtherTitle, classIdenticalSameTitle, classNearIdentical))
	f.Partial = r.total(class(classPartial))
}

// pairExample names two articles by their headlines (never their text).
type pairExample struct {
	Corpus      string  `json:"corpus"`
	Title       string  `json:"title"`
	OtherTitle  string  `json:"other_title"`
	Date        string  `json:"date,omitempty"`
	OtherDate   string  `json:"other_date,omitempty"`
	Chars       int     `json:"chars"`
	OtherChars  int     `json:"other_chars"`
	Jaccard     float64 `json:"jaccard"`
	Containment float64 `json:"containment"`
	// CoreContainment is the containment without boilerplate 5-grams
	// (commonGrams), where it was measured.
	CoreContainment *float64 `json:"containment_without_boilerplate,omitempty"`
	// What the service said of the pair, where it linked it.
	Status   string  `json:"status,omitempty"`
	Distance int     `json:"distance,omitempty"`
	Overlap  float64 `json:"overlap,omitempty"`
}

// maxExamples is how many examples a list of the report shows.
const maxExamples = 5

// maxTitleRunes is the longest headline an example quotes: the corpora are
// third parties' text, and the docs quote no more of it than a short title,
// cut well before a run of 20 characters.
const maxTitleRunes = 16

func exampleOf(s *newsSet, i, j int, lk likeness) pairExample {
	a, b := &s.Articles[i], &s.Articles[j]
	return pairExample{
		Corpus: a.Corpus, Title: shortTitle(a.Title), OtherTitle: shortTitle(b.Title),
		Date: a.Date, OtherDate: b.Date, Chars: a.Chars, OtherChars: b.Chars,
		Jaccard: lk.Jaccard, Containment: lk.Containment,
	}
}

// shortTitle is a headline cut to maxTitleRunes, white space collapsed.
func shortTitle(t string) string {
	r := []rune(collapseSpace(t))
	if len(r) > maxTitleRunes {
		return string(r[:maxTitleRunes]) + "…"
	}
	return string(r)
}

// collapseSpace trims s and turns every run of white space into one space.
func collapseSpace(s string) string {
	var out []rune
	space := false
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\u3000' {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
	}
	return string(out)
}
