package main

import (
	"testing"
	"time"
)

// TestMeasureDrift: a member counts as drifted when less than 30 % of its
// 5-grams are its cluster's earliest published article's; the original is
// by publication, not by id, and lone articles are no cluster.
func TestMeasureDrift(t *testing.T) {
	day := time.Date(2018, 11, 1, 0, 0, 0, 0, time.UTC)
	grams := func(from, to uint64) gramSet {
		var g gramSet
		for i := from; i < to; i++ {
			g = append(g, i)
		}
		return g
	}
	s := &newsSet{
		Articles: []newsArticle{{Published: day.Add(time.Hour)}, {Published: day}, {Published: day.Add(2 * time.Hour)}, {Published: day}, {Published: day}},
		Grams: []gramSet{
			grams(0, 100),   // shares 100 % with the original (1)
			grams(0, 100),   // the original: published first
			grams(75, 175),  // shares 25 %: drifted
			grams(0, 50),    // another cluster's original
			grams(500, 600), // alone
		},
	}
	st := &stored{Articles: []storedArticle{{ID: 1, ClusterID: 1}, {ID: 2, ClusterID: 1}, {ID: 3, ClusterID: 1}, {ID: 4, ClusterID: 4}, {ID: 5, ClusterID: 5}}}
	got := measureDrift(s, st)
	if want := (driftResult{Clusters: 1, Members: 2, Drifted: 1}); got != want {
		t.Errorf("measureDrift = %+v, want %+v", got, want)
	}
}
