package main

import "testing"

// point builds a score whose light, long and all-copies confusions are the
// same: tp of 100 duplicates found, with fp false positives.
func point(i, tp, fp int) score {
	c := confusion{TP: tp, FP: fp, FN: 100 - tp, TN: 10_000}
	return score{Point: i, Light: c, Long: c, All: c}
}

func TestBestOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		scores []score
		want   int
		goal   bool
	}{
		{
			// Thresholds rising: false positives fall, then recall.
			name:   "lowest precise point with a margin",
			scores: []score{point(0, 100, 50), point(1, 100, 1), point(2, 100, 0), point(3, 99, 0), point(4, 90, 0)},
			// Point 1 is precise (P 0.990) but its lower step is not; point 2
			// has the margin.
			want: 2, goal: true,
		},
		{
			name:   "goal out of reach: margin and precision, then most light reposts",
			scores: []score{point(0, 95, 30), point(1, 95, 0), point(2, 95, 0), point(3, 80, 0)},
			want:   2, goal: false,
		},
		{
			name:   "a tie keeps the first",
			scores: []score{point(0, 100, 0), point(1, 100, 0)},
			want:   0, goal: true,
		},
	}
	for _, tt := range tests {
		got := bestOf(tt.scores)
		if got.Point != tt.want || got.Goal() != tt.goal {
			t.Errorf("%s: bestOf() = point %d (goal %v), want %d (goal %v)", tt.name, got.Point, got.Goal(), tt.want, tt.goal)
		}
	}
}
