package main

import (
	"context"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The simhash operating points: every word measure with every max_distance
// k from 0 to fingerprint.MaxIndexedDistance and every min_word_ratio r in 0,
// 0.1, …, 1. A pair is predicted duplicate at (measure, k, r) when its
// distance is ≤ k and its word measure is ≥ r, as the service decides.
const (
	maxK       = fingerprint.MaxIndexedDistance
	ratioSteps = 11
	simPoints  = len(measures) * (maxK + 1) * ratioSteps
)

// measures are the two ways to compare word sets: the service's shared-word
// ratio |A∩B| / min(|A|, |B|), and Jaccard |A∩B| / |A∪B|, which the design
// names as the alternative to switch to if it serves better.
var measures = [...]string{"ratio", "jaccard"}

const (
	measureRatio = iota
	measureJaccard
)

// simPoint returns the index of operating point (measure, k, r = ri/10).
func simPoint(measure, k, ri int) int { return (measure*(maxK+1)+k)*ratioSteps + ri }

// jaccard is |A∩B| / |A∪B|, or 0 when both sets are empty.
func jaccard(a, b fingerprint.WordSet) float64 {
	shared := a.Shared(b)
	union := len(a) + len(b) - shared
	if union == 0 {
		return 0
	}
	return float64(shared) / float64(union)
}

// ratioAt returns the min_word_ratio of step ri. Dividing (rather than adding
// 0.1 up) gives the same float as a ratio such as 3/10, so a pair exactly at
// the threshold passes.
func ratioAt(ri int) float64 { return float64(ri) / 10 }

// simhashResult is one simhash method's figures.
type simhashResult struct {
	Method  simhashMethod
	Tallies tallies
	// NoWords is how many texts the method found no words in.
	NoWords     int
	Fingerprint time.Duration
	// BlockRows counts, per group, the negative pairs the block index
	// returns: those that share at least one family-A and one family-B block
	// value (all pairs within distance 3 do, and some farther ones).
	BlockRows map[groupKey]int
}

// evaluateSimhash fingerprints the stored originals and the queries with the
// method and tallies every pair at every operating point.
func evaluateSimhash(ctx context.Context, d *fingerprint.Dictionary, m simhashMethod, c labelledCorpus, qs []query, workers int) (simhashResult, error) {
	alg := m.newAlgorithm(d)
	start := time.Now()
	docs := make([]fingerprint.Document, 0, len(qs))
	for _, q := range qs {
		docs = append(docs, q.Doc)
	}
	// The originals are the first queries (see queries): their signatures
	// serve both as stored articles and as queries.
	sigs, err := fingerprintAll(ctx, alg, docs, workers)
	if err != nil {
		return simhashResult{}, err
	}
	elapsed := time.Since(start)
	stored := sigs[:len(c.Originals)]
	res := simhashResult{Method: m, Fingerprint: elapsed}
	for _, s := range sigs {
		if !s.OK {
			res.NoWords++
		}
	}
	res.Tallies = countPairs(qs, len(stored), simPoints, func(q, s int, hits []bool) bool {
		a, b := sigs[q], stored[s]
		if !a.OK || !b.OK {
			return false
		}
		dist := fingerprint.Distance(a.Simhash, b.Simhash)
		if dist > maxK {
			return false
		}
		values := [len(measures)]float64{
			measureRatio:   fingerprint.Ratio(a.Words, b.Words),
			measureJaccard: jaccard(a.Words, b.Words),
		}
		for m, v := range values {
			for k := range maxK + 1 {
				for ri := range ratioSteps {
					hits[simPoint(m, k, ri)] = dist <= k && v >= ratioAt(ri)
				}
			}
		}
		return true
	})
	blocks := make([]fingerprint.Blocks, len(sigs))
	for i, s := range sigs {
		blocks[i] = fingerprint.BlocksOf(s.Simhash)
	}
	res.BlockRows = make(map[groupKey]int)
	forEachPair(qs, len(stored), func(q, s int, dup bool) {
		if !dup && sigs[q].OK && stored[s].OK && sharesBlocks(blocks[q], blocks[s]) {
			res.BlockRows[groupKey{Band: qs[q].Band, Edit: qs[q].Edit}]++
		}
	})
	return res, nil
}

// sharesBlocks reports whether two fingerprints share a block value of
// family A and one of family B: the rows the service's lookup returns.
func sharesBlocks(a, b fingerprint.Blocks) bool {
	return (a.A[0] == b.A[0] || a.A[1] == b.A[1] || a.A[2] == b.A[2] || a.A[3] == b.A[3]) &&
		(a.B[0] == b.B[0] || a.B[1] == b.B[1] || a.B[2] == b.B[2] || a.B[3] == b.B[3])
}

// blockLoad is the share of the negative pairs of the groups keep accepts
// that the block index returns.
func (r simhashResult) blockLoad(keep func(groupKey) bool) float64 {
	rows, negatives := 0, 0
	for k, t := range r.Tallies {
		if keep(k) {
			rows += r.BlockRows[k]
			negatives += t.Pairs - t.Positives
		}
	}
	return ratio(rows, negatives)
}

// nearNegatives is the share of negative pairs within distance maxK: the
// rows the block index returns only for the ratio to reject. It is the
// candidate load a lookup carries.
func (r simhashResult) nearNegatives(keep func(groupKey) bool) confusion {
	return r.Tallies.at(keep, simPoint(measureRatio, maxK, 0))
}
