package service

import (
	"slices"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestWithoutBoilerplate: a candidate is kept when it still shares
// MinOverlap of what is left once the boilerplate shingles are out of both
// sides, and dropped when it shares too little of it or nothing is left.
func TestWithoutBoilerplate(t *testing.T) {
	fp := fingerprint.Fingerprint{Shingles: fingerprint.ShingleSet{1, 2, 3, 4, 5, 6}}
	opts := Options{MinOverlap: 0.5}
	boilerplate := fingerprint.ShingleSet{1, 2, 3}
	near := []Candidate{
		{ID: 1, Shingles: fingerprint.ShingleSet{1, 2, 3, 4, 5, 6}}, // the same story: kept
		{ID: 2, Shingles: fingerprint.ShingleSet{1, 2, 3, 9}},       // only the boilerplate in common
		{ID: 3, Shingles: fingerprint.ShingleSet{1, 2, 3}},          // nothing left
		{ID: 4, Shingles: fingerprint.ShingleSet{1, 2, 3, 4, 5, 9}}, // 2 of the 3 left
	}
	var kept []int64
	for _, c := range withoutBoilerplate(fp, near, boilerplate, opts) {
		kept = append(kept, c.ID)
	}
	if want := []int64{1, 4}; !slices.Equal(kept, want) {
		t.Errorf("kept %v, want %v", kept, want)
	}
	if got := withoutBoilerplate(fp, near, nil, opts); len(got) != len(near) {
		t.Errorf("without boilerplate, kept %d of %d candidates, want all", len(got), len(near))
	}
}
