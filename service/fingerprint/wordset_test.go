package fingerprint_test

import (
	"slices"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func TestNewWordSet(t *testing.T) {
	got := fingerprint.NewWordSet([]uint64{5, 1, 5, 3, 1})
	if want := (fingerprint.WordSet{1, 3, 5}); !slices.Equal(got, want) {
		t.Errorf("NewWordSet(5 1 5 3 1) = %v, want %v", got, want)
	}
	if got := fingerprint.NewWordSet(nil); len(got) != 0 {
		t.Errorf("NewWordSet(nil) = %v, want empty", got)
	}
}

func TestWordSetRatio(t *testing.T) {
	tests := []struct {
		a, b       fingerprint.WordSet
		shared     int
		ratio      float64
		comparison string
	}{
		{fingerprint.WordSet{1, 2, 3}, fingerprint.WordSet{1, 2, 3}, 3, 1, "equal"},
		{fingerprint.WordSet{1, 2, 3}, fingerprint.WordSet{4, 5, 6}, 0, 0, "disjoint"},
		{fingerprint.WordSet{1, 2, 3, 4}, fingerprint.WordSet{2, 4}, 2, 1, "subset"},
		{fingerprint.WordSet{1, 2, 3, 4}, fingerprint.WordSet{3, 4, 5, 6, 7, 8}, 2, 0.5, "half of the smaller"},
		{fingerprint.WordSet{1, 3, 5, 7, 9}, fingerprint.WordSet{2, 3, 4, 9, 10}, 2, 0.4, "interleaved"},
		{fingerprint.WordSet{0, 1 << 63, ^uint64(0)}, fingerprint.WordSet{1 << 63}, 1, 1, "extreme values"},
		{nil, fingerprint.WordSet{1, 2}, 0, 0, "one empty"},
		{fingerprint.WordSet{}, fingerprint.WordSet{}, 0, 0, "both empty"},
		{nil, nil, 0, 0, "both nil"},
	}
	for _, tt := range tests {
		for _, swap := range []bool{false, true} {
			a, b := tt.a, tt.b
			if swap {
				a, b = b, a
			}
			if got := a.Shared(b); got != tt.shared {
				t.Errorf("%s: %v.Shared(%v) = %d, want %d", tt.comparison, a, b, got, tt.shared)
			}
			if got := fingerprint.Ratio(a, b); got != tt.ratio {
				t.Errorf("%s: Ratio(%v, %v) = %v, want %v", tt.comparison, a, b, got, tt.ratio)
			}
		}
	}
}

// Ratio is symmetric and in [0, 1] on random sets.
func TestWordSetRatioRandom(t *testing.T) {
	rng := newRand(3)
	randomSet := func() fingerprint.WordSet {
		hashes := make([]uint64, rng.IntN(40))
		for i := range hashes {
			hashes[i] = uint64(rng.IntN(60))
		}
		return fingerprint.NewWordSet(hashes)
	}
	for range 2000 {
		a, b := randomSet(), randomSet()
		ab, ba := fingerprint.Ratio(a, b), fingerprint.Ratio(b, a)
		if ab != ba || ab < 0 || ab > 1 {
			t.Fatalf("Ratio(%v, %v) = %v, reversed %v; want equal, in [0, 1]", a, b, ab, ba)
		}
		shared := 0
		for _, x := range a {
			if slices.Contains(b, x) {
				shared++
			}
		}
		if got := a.Shared(b); got != shared {
			t.Fatalf("%v.Shared(%v) = %d, want %d", a, b, got, shared)
		}
	}
}
