package main

import (
	"cmp"
	"slices"
)

// The precision audit reads every link the service made while the corpora
// were ingested — an article and its duplicate_of — and measures the two
// bodies: a link between bodies that share less than 30 % of the shorter
// one's 5-grams is one no reader wants.

// flagCount tallies links by what their bodies share.
type flagCount struct {
	Flags     int `json:"flags"`
	Unrelated int `json:"unrelated"` // containment < 0.3
	Related   int `json:"related"`   // 0.3 ≤ containment < 0.8
	Copies    int `json:"copies"`    // containment ≥ 0.8
	// UnrelatedCore counts the links whose bodies share less than 0.3 once
	// the boilerplate 5-grams are left out (commonGrams).
	UnrelatedCore int `json:"unrelated_without_boilerplate"`
	// SameTitle counts the links between articles with the same headline.
	SameTitle int `json:"same_headline"`
	// Stub counts the links with a body under 80 characters (a scraper that
	// kept only a slogan or a link line); StubCore those of them among
	// UnrelatedCore.
	Stub     int `json:"with_a_body_under_80"`
	StubCore int `json:"unrelated_without_boilerplate_with_a_body_under_80"`
}

func (c *flagCount) add(lk, core likeness, sameTitle, stub bool) {
	c.Flags++
	if stub {
		c.Stub++
	}
	if core.Containment < unrelatedBelow {
		c.UnrelatedCore++
		if stub {
			c.StubCore++
		}
	}
	if sameTitle {
		c.SameTitle++
	}
	switch {
	case lk.Containment < unrelatedBelow:
		c.Unrelated++
	case lk.Containment < partialFrom:
		c.Related++
	default:
		c.Copies++
	}
}

func (c flagCount) falseRate() rate { return rate{Hit: c.Unrelated, Of: c.Flags} }

// precisionResult is the audit of the links.
type precisionResult struct {
	// ByStatus and ByCorpus tally the links by the linking article's status
	// and corpus.
	ByStatus map[string]*flagCount `json:"by_status"`
	ByCorpus map[string]*flagCount `json:"by_corpus"`
	All      flagCount             `json:"all"`
	// Banded counts the links whose two bodies have 80 characters or more:
	// the precision goal's flags (a body under 80 characters belongs to no
	// band, and the slogans the scraper kept as bodies would only swell
	// the count).
	Banded flagCount `json:"banded"`
	// Unrelated are examples of links between unrelated bodies; Chrome of
	// links between bodies related by their boilerplate alone.
	Unrelated []pairExample `json:"unrelated_examples"`
	Chrome    []pairExample `json:"boilerplate_only_examples"`
	// OtherDay counts the links between CCTV stories broadcast on
	// different days: a recurring topic (the same meeting, campaign or
	// statistic) is where a fingerprint of key words goes wrong.
	OtherDay         flagCount     `json:"cctv_other_day"`
	OtherDayExamples []pairExample `json:"cctv_other_day_examples"`
}

// auditPrecision measures every link of the stored articles.
func auditPrecision(s *newsSet, st *stored) precisionResult {
	res := precisionResult{ByStatus: make(map[string]*flagCount), ByCorpus: make(map[string]*flagCount)}
	type link struct {
		i, j     int
		lk, core likeness
	}
	var links []link
	var linked []int
	for i, sa := range st.Articles {
		if sa.DuplicateOf == 0 {
			continue
		}
		if j, ok := st.indexOf(sa.DuplicateOf); ok {
			links = append(links, link{i: i, j: j, lk: s.likeness(i, j)})
			linked = append(linked, i, j)
		}
	}
	common := s.commonGrams(linked)
	var unrelated, chrome, otherDay []link
	for k := range links {
		l := &links[k]
		l.core = s.coreLikeness(l.i, l.j, common)
		sa, a, b := st.Articles[l.i], &s.Articles[l.i], &s.Articles[l.j]
		sameTitle := s.Titles[l.i] == s.Titles[l.j]
		stub := bandOf(min(a.Chars, b.Chars)) < 0
		for _, c := range []*flagCount{counter(res.ByStatus, sa.Status), counter(res.ByCorpus, a.Corpus), &res.All} {
			c.add(l.lk, l.core, sameTitle, stub)
		}
		if !stub {
			res.Banded.add(l.lk, l.core, sameTitle, stub)
		}
		switch {
		case l.lk.Containment < unrelatedBelow:
			unrelated = append(unrelated, *l)
		case l.core.Containment < unrelatedBelow:
			chrome = append(chrome, *l)
		}
		if a.Corpus == corpusCCTV && b.Corpus == corpusCCTV && a.Date != b.Date {
			res.OtherDay.add(l.lk, l.core, sameTitle, stub)
			otherDay = append(otherDay, *l)
		}
	}
	// The least alike first.
	byCore := func(x, y link) int {
		return cmp.Or(cmp.Compare(x.core.Containment, y.core.Containment), cmp.Compare(x.lk.Containment, y.lk.Containment))
	}
	example := func(l link) pairExample {
		e := exampleOf(s, l.i, l.j, l.lk)
		sa := st.Articles[l.i]
		core := l.core.Containment
		e.Status, e.Distance, e.Overlap, e.CoreContainment = sa.Status, sa.Distance, sa.Overlap, &core
		return e
	}
	for _, list := range []struct {
		links []link
		out   *[]pairExample
	}{{unrelated, &res.Unrelated}, {chrome, &res.Chrome}, {otherDay, &res.OtherDayExamples}} {
		slices.SortStableFunc(list.links, byCore)
		for _, l := range list.links[:min(len(list.links), maxExamples)] {
			*list.out = append(*list.out, example(l))
		}
	}
	return res
}

func counter(m map[string]*flagCount, key string) *flagCount {
	c := m[key]
	if c == nil {
		c = &flagCount{}
		m[key] = c
	}
	return c
}
