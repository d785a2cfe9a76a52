package service

import (
	"slices"
	"testing"
	"time"
)

// TestScopePublishedBy: a stored article judged again by publication
// leaves out the candidates published after it, by their effective times
// (a publication far after the candidate's arrival counts as its arrival;
// one corrected since, sent again without a time, appeared when first
// stored), and a scope without the bound leaves out none.
func TestScopePublishedBy(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 19, 30, 0, 0, time.UTC)
	cs := []Candidate{
		{ID: 1, PublishedAt: t0.Add(-time.Hour), IngestedAt: t0.Add(5 * time.Hour)},
		{ID: 2, PublishedAt: t0, IngestedAt: t0.Add(5 * time.Hour)},
		{ID: 3, PublishedAt: t0.Add(time.Minute), IngestedAt: t0.Add(time.Hour)},
		{ID: 4, PublishedAt: t0.Add(48 * time.Hour), IngestedAt: t0.Add(-time.Hour)}, // dated ahead: its arrival counts
		{ID: 5, PublishedAt: t0.Add(48 * time.Hour), IngestedAt: t0.Add(time.Hour)},
		{ID: 6, PublishedAt: t0.Add(time.Minute), IngestedAt: t0.Add(-5 * time.Minute)}, // corrected since: there since its ingestion
	}
	ids := func(cs []Candidate) []int64 {
		var out []int64
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	if got := ids(scope{}.publishedBy(slices.Clone(cs))); !slices.Equal(got, []int64{1, 2, 3, 4, 5, 6}) {
		t.Errorf("no bound: %v, want every candidate", got)
	}
	if got := ids(scope{notAfter: t0}.publishedBy(slices.Clone(cs))); !slices.Equal(got, []int64{1, 2, 4, 6}) {
		t.Errorf("published by %v: %v, want 1, 2, 4 and 6", t0, got)
	}
}
