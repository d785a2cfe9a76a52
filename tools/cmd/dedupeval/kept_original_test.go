package main

import (
	"reflect"
	"testing"
	"time"
)

// TestMeasureDrift: a member counts as drifted when less than 30 % of its
// 5-grams are its cluster's earliest published article's; the original is
// by publication, not by id, and lone articles are no cluster. Each drifted
// member is told by its verdict, its link and what it is to its match.
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
	st := &stored{Articles: []storedArticle{
		{ID: 1, ClusterID: 1, Status: statusNear, DuplicateOf: 2},
		{ID: 2, ClusterID: 1},
		{ID: 3, ClusterID: 1, Status: statusPartial, DuplicateOf: 1, Coverage: &coverageJSON{This: 0.25, That: 0.25}},
		{ID: 4, ClusterID: 4}, {ID: 5, ClusterID: 5}},
		byID: map[int64]int{1: 0, 2: 1, 3: 2, 4: 3, 5: 4}}
	got := measureDrift(s, st)
	want := driftResult{Clusters: 1, Members: 2, Drifted: 1,
		Kinds: map[string]int{"partial_duplicate, links to another member, neither, coverage this 0.2 that 0.2": 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("measureDrift = %+v, want %+v", got, want)
	}
}

// TestDriftKind: a drifted member holding its match is an expansion or a
// compilation, one its match holds an excerpt, and a link to the original
// is told from a chain.
func TestDriftKind(t *testing.T) {
	grams := func(from, to uint64) gramSet {
		var g gramSet
		for i := from; i < to; i++ {
			g = append(g, i)
		}
		return g
	}
	s := &newsSet{Grams: []gramSet{grams(0, 100), grams(0, 400), grams(0, 50), grams(300, 320)}}
	st := &stored{Articles: []storedArticle{
		{ID: 1},
		{ID: 2, Status: statusPartial, DuplicateOf: 1, Coverage: &coverageJSON{This: 0.25, That: 1}},
		{ID: 3, Status: statusPartial, DuplicateOf: 2, Coverage: &coverageJSON{This: 1, That: 0.12}},
		{ID: 4, Status: statusPartial, DuplicateOf: 2}},
		byID: map[int64]int{1: 0, 2: 1, 3: 2, 4: 3}}
	for m, want := range map[int]string{
		1: "partial_duplicate, links to the original, holds its match, coverage this 0.2 that 1.0",
		2: "partial_duplicate, links to another member, excerpt of its match, coverage this 1.0 that 0.1",
		3: "partial_duplicate, links to another member, excerpt of its match",
	} {
		if got := driftKind(s, st, m, 0); got != want {
			t.Errorf("driftKind(%d) = %q, want %q", m, got, want)
		}
	}
}
