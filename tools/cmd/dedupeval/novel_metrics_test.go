package main

import (
	"math"
	"testing"
)

func TestConfusion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                  string
		c                     confusion
		precision, recall, f1 float64
	}{
		// 8 duplicates, 6 found; 10 predicted: P 0.6, R 0.75, F1 2·0.45/1.35.
		{"mixed", confusion{TP: 6, FP: 4, FN: 2, TN: 88}, 0.6, 0.75, 2 * 0.6 * 0.75 / 1.35},
		{"perfect", confusion{TP: 5, TN: 95}, 1, 1, 1},
		{"nothing found", confusion{FN: 3, FP: 2, TN: 10}, 0, 0, 0},
		{"nothing predicted", confusion{FN: 3, TN: 10}, math.NaN(), 0, math.NaN()},
		{"no duplicates", confusion{FP: 1, TN: 10}, 0, math.NaN(), math.NaN()},
	}
	for _, tt := range tests {
		for _, got := range []struct {
			what      string
			got, want float64
		}{
			{"Precision", tt.c.Precision(), tt.precision},
			{"Recall", tt.c.Recall(), tt.recall},
			{"F1", tt.c.F1(), tt.f1},
		} {
			if !same(got.got, got.want) {
				t.Errorf("%s: %+v.%s() = %v, want %v", tt.name, tt.c, got.what, got.got, got.want)
			}
		}
	}
	c := confusion{TP: 1, FP: 2, FN: 3, TN: 4}.plus(confusion{TP: 10, FP: 20, FN: 30, TN: 40})
	if want := (confusion{TP: 11, FP: 22, FN: 33, TN: 44}); c != want {
		t.Errorf("plus = %+v, want %+v", c, want)
	}
	if got := c.FalsePositiveRate(); !same(got, 22.0/66) {
		t.Errorf("FalsePositiveRate() = %v, want %v", got, 22.0/66)
	}
}

func same(a, b float64) bool {
	return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-12
}

// countPairs turns a hand-made set of predictions into the counts of each
// group at each point.
func TestCountPairs(t *testing.T) {
	t.Parallel()
	// Three stored originals; queries: original 0 (negatives only), a light
	// copy of 1 and a light copy of 2, the last in band 1.
	qs := []query{
		{Band: 0, Edit: editNone, Of: 0},
		{Band: 0, Edit: "light", Of: 1},
		{Band: 1, Edit: "light", Of: 2},
	}
	// Point 0 predicts every pair; point 1 predicts (query 1, stored 1) and
	// (query 2, stored 0); no pair of query 0.
	ts := countPairs(qs, 3, 2, func(q, s int, hits []bool) bool {
		if q == 0 {
			return false
		}
		hits[0] = true
		hits[1] = q == 1 && s == 1 || q == 2 && s == 0
		return true
	})
	tests := []struct {
		key      groupKey
		point    int
		want     confusion
		pairs    int
		dupPairs int
	}{
		{groupKey{0, editNone}, 0, confusion{TN: 2}, 2, 0},
		{groupKey{0, "light"}, 0, confusion{TP: 1, FP: 2}, 3, 1},
		{groupKey{0, "light"}, 1, confusion{TP: 1, TN: 2}, 3, 1},
		{groupKey{1, "light"}, 1, confusion{FP: 1, FN: 1, TN: 1}, 3, 1},
	}
	for _, tt := range tests {
		tl := ts[tt.key]
		if tl == nil {
			t.Fatalf("no tally for %+v", tt.key)
		}
		if got := tl.at(tt.point); got != tt.want || tl.Pairs != tt.pairs || tl.Positives != tt.dupPairs {
			t.Errorf("%+v at %d = %+v (%d pairs, %d duplicates), want %+v (%d, %d)", tt.key, tt.point, got, tl.Pairs, tl.Positives, tt.want, tt.pairs, tt.dupPairs)
		}
	}
	light := func(k groupKey) bool { return k.Edit == "light" }
	if got, want := ts.at(light, 1), (confusion{TP: 1, FP: 1, FN: 1, TN: 3}); got != want {
		t.Errorf("at(light, 1) = %+v, want %+v", got, want)
	}
}
