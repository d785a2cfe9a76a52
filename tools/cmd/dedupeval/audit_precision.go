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
}

func (c *flagCount) add(lk likeness) {
	c.Flags++
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
	// Unrelated are examples of links between unrelated bodies.
	Unrelated []pairExample `json:"unrelated_examples"`
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
		i, j int
		lk   likeness
	}
	var unrelated, otherDay []link
	for i, sa := range st.Articles {
		if sa.DuplicateOf == 0 {
			continue
		}
		j, ok := st.indexOf(sa.DuplicateOf)
		if !ok {
			continue
		}
		lk := s.likeness(i, j)
		for _, c := range []*flagCount{counter(res.ByStatus, sa.Status), counter(res.ByCorpus, s.Articles[i].Corpus), &res.All} {
			c.add(lk)
		}
		if lk.Containment < unrelatedBelow {
			unrelated = append(unrelated, link{i, j, lk})
		}
		a, b := &s.Articles[i], &s.Articles[j]
		if a.Corpus == corpusCCTV && b.Corpus == corpusCCTV && a.Date != b.Date {
			res.OtherDay.add(lk)
			otherDay = append(otherDay, link{i, j, lk})
		}
	}
	// The least alike first.
	byContainment := func(x, y link) int { return cmp.Compare(x.lk.Containment, y.lk.Containment) }
	slices.SortStableFunc(unrelated, byContainment)
	slices.SortStableFunc(otherDay, byContainment)
	example := func(l link) pairExample {
		e := exampleOf(s, l.i, l.j, l.lk)
		sa := st.Articles[l.i]
		e.Status, e.Distance, e.Overlap = sa.Status, sa.Distance, sa.Overlap
		return e
	}
	for _, l := range unrelated[:min(len(unrelated), maxExamples)] {
		res.Unrelated = append(res.Unrelated, example(l))
	}
	for _, l := range otherDay[:min(len(otherDay), maxExamples)] {
		res.OtherDayExamples = append(res.OtherDayExamples, example(l))
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
