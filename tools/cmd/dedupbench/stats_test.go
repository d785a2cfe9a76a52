package main

import (
	"math"
	"testing"
)

func TestPercentile(t *testing.T) {
	t.Parallel()
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(i + 1) // 1..100
	}
	tests := []struct {
		sorted []float64
		p      float64
		want   float64
	}{
		{[]float64{7}, 50, 7},
		{[]float64{7}, 99, 7},
		{[]float64{1, 2, 3}, 50, 2},
		{[]float64{1, 2, 3, 4}, 50, 2}, // the lower middle value
		{[]float64{1, 2, 3, 4}, 99, 4},
		{[]float64{1, 2, 3, 4}, 25, 1},
		{[]float64{1, 2, 3, 4}, 26, 2},
		{hundred, 50, 50},
		{hundred, 90, 90},
		{hundred, 99, 99},
		{hundred, 99.5, 100},
		{hundred, 100, 100},
		{hundred, 0.1, 1},
	}
	for _, tt := range tests {
		if got := percentile(tt.sorted, tt.p); got != tt.want {
			t.Errorf("percentile(%v…, %v) = %v, want %v", tt.sorted[:min(4, len(tt.sorted))], tt.p, got, tt.want)
		}
	}
	if got := percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("percentile(nil, 50) = %v, want NaN", got)
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	xs := []float64{5, 1, 4, 2, 3}
	got := summarize(xs)
	want := Summary{N: 5, Min: 1, Median: 3, P90: 5, P99: 5, Max: 5, Mean: 3}
	if got != want {
		t.Errorf("summarize(%v) = %+v, want %+v", xs, got, want)
	}
	if xs[0] != 5 {
		t.Errorf("summarize sorted its argument: %v", xs)
	}
	if got := summarize(nil); got != (Summary{}) {
		t.Errorf("summarize(nil) = %+v, want the zero Summary", got)
	}
}
