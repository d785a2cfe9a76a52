package service

import (
	"strconv"
	"strings"
	"testing"
)

// hostilePair is the shape of issue 44's two members, n characters for the
// first: one word repeated, a character apart at each end.
func hostilePair(n int) (string, string) {
	return "丙" + strings.Repeat("经济", n/2) + "戊", strings.Repeat("经济", n/4) + "丁"
}

// BenchmarkDiffRepetitive is the diff of the hostile pair at 20,000, 40,000
// and 80,000 characters (docs/measurements.md).
func BenchmarkDiffRepetitive(b *testing.B) {
	for _, n := range []int{20000, 40000, 80000} {
		from, to := hostilePair(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				Diff(from, to)
			}
		})
	}
}
