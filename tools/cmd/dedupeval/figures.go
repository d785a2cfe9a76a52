package main

import (
	"fmt"
	"math"
)

// rate is Hit out of Of.
type rate struct {
	Hit int `json:"hit"`
	Of  int `json:"of"`
}

// Value is Hit / Of, NaN when Of is 0.
func (r rate) Value() float64 {
	if r.Of == 0 {
		return math.NaN()
	}
	return float64(r.Hit) / float64(r.Of)
}

func (r *rate) add(hit bool) {
	r.Of++
	if hit {
		r.Hit++
	}
}

func (r rate) plus(o rate) rate { return rate{Hit: r.Hit + o.Hit, Of: r.Of + o.Of} }

// String reads "0.987 (148/150)", or "–" when there is nothing to count.
func (r rate) String() string {
	if r.Of == 0 {
		return "–"
	}
	return fmt.Sprintf("%s (%d/%d)", f3(r.Value()), r.Hit, r.Of)
}

// figures are what the goals read: measured end to end through the API, or
// at the fingerprint level for each setting of the sweep.
type figures struct {
	// Natural pairs of the corpora published within the window, linked.
	IdenticalOtherTitle rate `json:"identical_other_title"`
	NearIdentical       rate `json:"near_identical"` // Jaccard ≥ 0.8, identical bodies included
	Partial             rate `json:"partial"`        // containment ≥ 0.8, Jaccard < 0.8
	// FalseFlags is the flags whose bodies share less than 30 % of the
	// shorter one's 5-grams, out of every flag between bodies of 80
	// characters or more.
	FalseFlags rate `json:"false_flags"`
	// Reposts[edit][band] is the reposts detected.
	Reposts map[string][]rate `json:"reposts"`
	// Load is the unrelated pairs within 3 bits, out of every unrelated
	// pair.
	Load rate `json:"load"`
}

// repostRates turns repost counts into detection rates.
func repostRates(counts map[string][]repostCount) map[string][]rate {
	out := make(map[string][]rate, len(counts))
	for e, bands := range counts {
		for _, c := range bands {
			out[e] = append(out[e], c.detected())
		}
	}
	return out
}
