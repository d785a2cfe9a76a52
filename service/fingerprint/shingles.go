package fingerprint

import (
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// Shingles measure how much text two articles share, which a fingerprint
// cannot: two stories about the same person share their key words, and so
// their fingerprints, but not their sentences. A shingle is a run of
// shingleRunes characters of the normalised body, spaces left out; the set
// keeps the shingles whose xxhash64 is 0 modulo shingleSample, as the high
// 32 bits of the hash. Sampling by the hash, not by position, keeps the same
// shingles in any text: the sample of two texts' common shingles is exactly
// the common part of their samples, so |A ∩ B| / |A| estimates the share of
// A's text found in B without storing A's text (about 4 bytes for every 4
// characters). The evaluation on real news chose 5-grams sampled 1 in 4: the
// estimate's mean error is 0.04 on items of 80–300 characters and 0.007
// above 1,000, and a pair of stories sharing under 30 % of their 5-grams
// passes a threshold of 0.5 in 0.09 % of the near pairs.
const (
	shingleRunes  = 5
	shingleSample = 4
)

// ShingleSet is the sampled shingles of a text, sorted ascending, no repeats.
type ShingleSet []uint32

// ShinglesOf returns the sampled shingles of normalised text. A text shorter
// than a shingle is one shingle of its own, sampled like any other.
func ShinglesOf(normalised string) ShingleSet {
	b := strings.ReplaceAll(normalised, " ", "")
	if b == "" {
		return nil
	}
	// at[r%shingleRunes] is the byte offset of rune r, for the last
	// shingleRunes runes: a shingle ends where the rune after it starts.
	var at [shingleRunes]int
	out := make([]uint32, 0, len(b)/(3*shingleSample)+4) // about one in four of the runes, most of 3 bytes
	keep := func(s string) {
		if h := xxhash.Sum64String(s); h%shingleSample == 0 {
			out = append(out, uint32(h>>32))
		}
	}
	runes := 0
	for i := range b {
		if runes >= shingleRunes {
			keep(b[at[runes%shingleRunes]:i])
		}
		at[runes%shingleRunes] = i
		runes++
	}
	if runes < shingleRunes {
		keep(b)
	} else {
		keep(b[at[runes%shingleRunes]:])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Shared returns how many shingles the two sets have in common.
func (s ShingleSet) Shared(other ShingleSet) int { return sharedSorted(s, other) }

// Coverage estimates how much of a's text is found in b's (aInB) and how
// much of b's in a's (bInA), each in [0, 1]; 0 when a set is empty.
func Coverage(a, b ShingleSet) (aInB, bInA float64) {
	if len(a) == 0 || len(b) == 0 {
		return 0, 0
	}
	shared := float64(a.Shared(b))
	return shared / float64(len(a)), shared / float64(len(b))
}

// Without returns the shingles of s that are not in other (both sorted),
// in a new set.
func (s ShingleSet) Without(other ShingleSet) ShingleSet {
	out := make(ShingleSet, 0, len(s))
	j := 0
	for _, x := range s {
		for j < len(other) && other[j] < x {
			j++
		}
		if j < len(other) && other[j] == x {
			continue
		}
		out = append(out, x)
	}
	return out
}
