package main

import (
	"math"
	"slices"
)

// confusion counts the outcomes of a set of pairs at one operating point.
type confusion struct {
	TP, FP, FN, TN int
}

// Precision is TP / (TP + FP), or NaN when nothing was predicted duplicate.
func (c confusion) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Recall is TP / (TP + FN), or NaN when the set holds no duplicate.
func (c confusion) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

// F1 is the harmonic mean of precision and recall: NaN when either is, 0
// when both are 0.
func (c confusion) F1() float64 {
	p, r := c.Precision(), c.Recall()
	switch {
	case math.IsNaN(p) || math.IsNaN(r):
		return math.NaN()
	case p+r == 0:
		return 0
	}
	return 2 * p * r / (p + r)
}

// Negatives is how many pairs of the set are not duplicates.
func (c confusion) Negatives() int { return c.FP + c.TN }

// FalsePositiveRate is FP / negatives, or NaN without negatives.
func (c confusion) FalsePositiveRate() float64 { return ratio(c.FP, c.FP+c.TN) }

func (c confusion) plus(o confusion) confusion {
	return confusion{TP: c.TP + o.TP, FP: c.FP + o.FP, FN: c.FN + o.FN, TN: c.TN + o.TN}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// groupKey names a group of queries: their band and the edit that made them
// (editNone for the originals).
type groupKey struct {
	Band int
	Edit string
}

// tally counts one group's pairs: how many there are, how many are
// duplicates, and at every operating point how many of the pairs predicted
// duplicate are duplicates (TP) and how many are not (FP).
type tally struct {
	Pairs, Positives int
	TP, FP           []int
}

// at returns the group's confusion at operating point i.
func (t *tally) at(i int) confusion {
	return confusion{TP: t.TP[i], FP: t.FP[i], FN: t.Positives - t.TP[i], TN: t.Pairs - t.Positives - t.FP[i]}
}

// tallies are the counts of every group of one method.
type tallies map[groupKey]*tally

// countPairs runs predict on every pair forEachPair yields and tallies the
// outcomes at points operating points. predict fills hits, one per point,
// and returns whether any is set; when it returns false, hits is not read
// (the pair is predicted a non-duplicate everywhere, as most pairs are).
func countPairs(qs []query, stored, points int, predict func(q, s int, hits []bool) bool) tallies {
	ts := make(tallies)
	hits := make([]bool, points)
	forEachPair(qs, stored, func(q, s int, dup bool) {
		key := groupKey{Band: qs[q].Band, Edit: qs[q].Edit}
		t := ts[key]
		if t == nil {
			t = &tally{TP: make([]int, points), FP: make([]int, points)}
			ts[key] = t
		}
		t.Pairs++
		if dup {
			t.Positives++
		}
		if !predict(q, s, hits) {
			return
		}
		for i, h := range hits {
			switch {
			case h && dup:
				t.TP[i]++
			case h:
				t.FP[i]++
			}
		}
	})
	return ts
}

// at returns the confusion, at operating point i, of the groups keep
// accepts, summed.
func (ts tallies) at(keep func(groupKey) bool, i int) confusion {
	var c confusion
	for _, k := range ts.keys() {
		if keep(k) {
			c = c.plus(ts[k].at(i))
		}
	}
	return c
}

// keys returns the groups in a fixed order: by band, then edit.
func (ts tallies) keys() []groupKey {
	keys := make([]groupKey, 0, len(ts))
	for k := range ts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareGroups)
	return keys
}

// compareGroups orders groups by band, then edit.
func compareGroups(a, b groupKey) int {
	if a.Band != b.Band {
		return a.Band - b.Band
	}
	return editOrder(a.Edit) - editOrder(b.Edit)
}

// editOrder places editNone first, then the copies in copyEdits order.
func editOrder(e string) int {
	if e == editNone {
		return -1
	}
	return slices.Index(copyEdits(), e)
}

// Group filters for tallies.at.
func anyGroup(groupKey) bool { return true }

func longEdit(edit string) func(groupKey) bool {
	return func(k groupKey) bool { return novelBands[k.Band].Long && k.Edit == edit }
}

func shortEdit(edit string) func(groupKey) bool {
	return func(k groupKey) bool { return !novelBands[k.Band].Long && k.Edit == edit }
}
