package main

import (
	"math/rand/v2"
)

// Mix is how a tier's rows are made up.
type Mix struct {
	N int `json:"n"`
	// Real rows are fingerprints of 围城 articles (originals and edited
	// copies) with their word sets: a fifth of the table at most.
	Real int `json:"real"`
	// Variants are real fingerprints with 1–5 bits flipped, two per real
	// row at most: near neighbours of the real rows, as the copies of a
	// story are in a newsroom's archive.
	Variants int `json:"variants"`
	// Random rows are uniformly random fingerprints: the bulk of an
	// archive, unrelated to any query.
	Random int `json:"random"`
}

// planMix divides n rows among the kinds when realAvailable real
// fingerprints exist (in groups of groupSize: an original and its copies;
// only whole groups are stored, so that every stored original has its
// copies). The real rows and their variants stay the same from one tier to
// the next once the tier is large enough; only the random background grows,
// so the latency against N measures the index, not a growing cluster.
func planMix(n, realAvailable, groupSize int) Mix {
	real := min(realAvailable, n/5)
	real -= real % groupSize
	variants := min(2*real, n-real)
	return Mix{N: n, Real: real, Variants: variants, Random: n - real - variants}
}

// Kinds of synthetic row.
const (
	kindReal byte = iota
	kindVariant
	kindRandom
)

// synthRow is one row of a tier before it is written: its kind, its
// fingerprint and, for a real row or a variant, the real fingerprint it is
// (index into the real rows).
type synthRow struct {
	Simhash uint64
	Base    int32
	Kind    byte
	Flipped uint8 // bits flipped, for a variant
}

// makeRows returns the rows of a tier in a random order: m.Real real rows
// (real[0:m.Real]), m.Variants variants of them and m.Random random
// fingerprints. The order is shuffled so that the real rows and their
// variants are spread over the table's pages as they would be in an
// archive filled day by day.
func makeRows(rng *rand.Rand, m Mix, real []uint64) []synthRow {
	rows := make([]synthRow, 0, m.N)
	for i := range m.Real {
		rows = append(rows, synthRow{Simhash: real[i], Base: int32(i), Kind: kindReal})
	}
	for range m.Variants {
		b := rng.IntN(m.Real)
		k := 1 + rng.IntN(5)
		rows = append(rows, synthRow{Simhash: flipBits(rng, real[b], k), Base: int32(b), Kind: kindVariant, Flipped: uint8(k)})
	}
	for range m.Random {
		rows = append(rows, synthRow{Simhash: rng.Uint64(), Base: -1, Kind: kindRandom})
	}
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	return rows
}

// flipBits returns h with k distinct bits, chosen at random, flipped.
func flipBits(rng *rand.Rand, h uint64, k int) uint64 {
	var mask uint64
	for n := 0; n < k; {
		bit := uint64(1) << rng.IntN(64)
		if mask&bit == 0 {
			mask |= bit
			n++
		}
	}
	return h ^ mask
}
