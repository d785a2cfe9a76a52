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

// TestRestsOnBoilerplate: once a sentence is boilerplate, a near link
// that shares too little without the boilerplate is judged again, one that
// still shares enough is not, whether its match holds the sentence or not;
// a partial link likewise, and only when its match holds the sentence;
// other verdicts never.
func TestRestsOnBoilerplate(t *testing.T) {
	opts := Options{MinOverlap: 0.5}
	boilerplate := fingerprint.ShingleSet{1, 2, 3}
	story := fingerprint.ShingleSet{1, 2, 3, 4, 5, 6}
	for _, c := range []struct {
		name        string
		status      Status
		theirs      fingerprint.ShingleSet
		targetHolds bool
		want        bool
	}{
		{"near, the same story", StatusNearDuplicate, fingerprint.ShingleSet{1, 2, 3, 4, 5, 6}, true, false},
		{"near, the boilerplate alone in common", StatusNearDuplicate, fingerprint.ShingleSet{1, 2, 3, 9}, true, true},
		{"near, nothing left", StatusNearDuplicate, fingerprint.ShingleSet{1, 2, 3}, false, true},
		{"partial, the same story", StatusPartialDuplicate, story, true, false},
		{"partial, its match holding only the boilerplate", StatusPartialDuplicate, fingerprint.ShingleSet{1, 2, 3}, true, true},
		{"partial, its match without the sentence", StatusPartialDuplicate, fingerprint.ShingleSet{1, 2, 3}, false, false},
		{"exact", StatusExactDuplicate, fingerprint.ShingleSet{1, 2, 3}, true, false},
		{"unique", StatusUnique, nil, true, false},
	} {
		a := Article{Status: c.status, Shingles: story}
		if got := restsOnBoilerplate(a, c.theirs, c.targetHolds, boilerplate, opts); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestJustBoilerplate: a sentence is measured again from the holder that
// makes it boilerplate up to boilerplateWindow holders, not before, not
// after.
func TestJustBoilerplate(t *testing.T) {
	for n, want := range map[int]bool{
		boilerplateArticles - 1: false, boilerplateArticles: true,
		boilerplateWindow - 1: true, boilerplateWindow: false,
	} {
		if got := justBoilerplate(n); got != want {
			t.Errorf("%d holders: %v, want %v", n, got, want)
		}
	}
}
