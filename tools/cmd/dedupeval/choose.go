package main

import "math"

// The rule that picks the defaults from the sweep, so that no parameter is
// chosen by hand: a setting that links unrelated articles, or makes every
// lookup fetch many candidates only to reject them, is worse than one that
// misses some copies. So:
//
//  1. meet both the precision goal and the load goal (then the precision
//     goal alone, then the load goal alone);
//  2. then meet the most recall goals of issue 9 (identical and
//     near-identical pairs, and the reposts);
//  3. then the best mean of those goals' figures;
//  4. then, recall being equal, the fewer flags between unrelated bodies,
//     then the lighter load: the safer of two settings that find the same;
//  5. a tie keeps the earlier setting of the grid (the lower exponent, no
//     cap, the lower min_overlap): the simpler one.

// ranking is what the rule reads of a point.
type ranking struct {
	Precise, Light bool // precision goal met; load goal met
	RecallMet      int
	RecallMean     float64
	FalseShare     float64 // the precision goal's figure
	Load           float64 // the load goal's figure
}

// rankOf reads a point's figures.
func rankOf(f *figures) ranking {
	r := ranking{FalseShare: first(precisionGoal.Figure(f)), Load: first(loadGoal.Figure(f))}
	r.Precise, r.Light = precisionGoal.met(r.FalseShare), loadGoal.met(r.Load)
	sum, n := 0.0, 0
	for _, g := range figureGoals {
		if !g.Recall {
			continue
		}
		v, _ := g.Figure(f)
		if math.IsNaN(v) {
			continue
		}
		if g.met(v) {
			r.RecallMet++
		}
		sum += v
		n++
	}
	if n > 0 {
		r.RecallMean = sum / float64(n)
	}
	return r
}

func first(v float64, _ string) float64 { return v }

// better reports whether a ranks above b by the rule.
func better(a, b ranking) bool {
	if ab, bb := a.Precise && a.Light, b.Precise && b.Light; ab != bb {
		return ab
	}
	if a.Precise != b.Precise {
		return a.Precise
	}
	if a.Light != b.Light {
		return a.Light
	}
	if a.RecallMet != b.RecallMet {
		return a.RecallMet > b.RecallMet
	}
	if a.RecallMean != b.RecallMean {
		return a.RecallMean > b.RecallMean
	}
	if a.FalseShare != b.FalseShare {
		return a.FalseShare < b.FalseShare
	}
	return a.Load < b.Load
}

// choose returns the index of the point the rule picks, -1 for none.
func choose(points []sweepPoint) int {
	best := -1
	var bestRank ranking
	for i := range points {
		r := rankOf(&points[i].Figures)
		if best < 0 || better(r, bestRank) {
			best, bestRank = i, r
		}
	}
	return best
}
