package main

import (
	"math"
	"slices"
)

// Summary describes a sample: its size, nearest-rank percentiles and mean.
type Summary struct {
	N      int     `json:"n"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
}

// summarize returns the summary of xs (which it does not change); the zero
// Summary for an empty sample.
func summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	var sum float64
	for _, x := range s {
		sum += x
	}
	return Summary{
		N:      len(s),
		Min:    s[0],
		Median: percentile(s, 50),
		P90:    percentile(s, 90),
		P99:    percentile(s, 99),
		Max:    s[len(s)-1],
		Mean:   sum / float64(len(s)),
	}
}

// percentile returns the p-th percentile (0 < p ≤ 100) of sorted by the
// nearest-rank method: the smallest value with at least p% of the sample at
// or below it. It is always a value that was observed; the median of an even
// sample is the lower of the two middle values, and the p99 of fewer than 100
// values is the largest. NaN for an empty sample.
func percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	rank := int(math.Ceil(p / 100 * float64(n)))
	rank = min(max(rank, 1), n)
	return sorted[rank-1]
}
