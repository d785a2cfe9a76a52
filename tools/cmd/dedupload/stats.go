package main

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// latencies collects the durations of one kind of request.
type latencies []time.Duration

// summary is what the report says of a set of latencies.
type summary struct {
	Count              int
	P50, P95, P99, Max time.Duration
}

// summarize returns the count, the 50th, 95th and 99th percentiles (nearest
// rank) and the maximum. It sorts l.
func (l latencies) summarize() summary {
	if len(l) == 0 {
		return summary{}
	}
	slices.Sort(l)
	return summary{
		Count: len(l),
		P50:   percentile(l, 50),
		P95:   percentile(l, 95),
		P99:   percentile(l, 99),
		Max:   l[len(l)-1],
	}
}

// percentile returns the p-th percentile of sorted by the nearest-rank
// method: the smallest value with at least p% of the values at or below
// it. It returns 0 for no values; p is clamped to (0, 100].
func percentile[T cmp.Ordered](sorted []T, p float64) T {
	n := len(sorted)
	if n == 0 {
		var zero T
		return zero
	}
	rank := int(math.Ceil(p / 100 * float64(n)))
	rank = min(max(rank, 1), n)
	return sorted[rank-1]
}

// growth returns how much last grew over first, as a fraction (0.05 for
// 5%); +Inf when first is 0 and last is not.
func growth(first, last float64) float64 {
	if first == 0 {
		if last == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return (last - first) / first
}
