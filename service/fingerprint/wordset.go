package fingerprint

import "slices"

// WordSet is the compact set of words a fingerprint was made from: the
// 64-bit hashes of its distinct counted words, sorted ascending. It is what
// the shared-word ratio compares, so two articles can be compared without
// their texts.
type WordSet []uint64

// NewWordSet returns the set of the given word hashes, sorted, without
// repeats. It may reorder hashes.
func NewWordSet(hashes []uint64) WordSet {
	slices.Sort(hashes)
	return WordSet(slices.Compact(hashes))
}

// Shared returns how many words the two sets have in common.
func (w WordSet) Shared(other WordSet) int { return sharedSorted(w, other) }

// Ratio is the shared-word ratio |A ∩ B| / min(|A|, |B|), in [0, 1]: the
// share of the shorter article's words that the other one also has. It is 1
// when one article contains all the words of the other (a repost with a line
// added), and 0 when either set is empty.
func Ratio(a, b WordSet) float64 {
	smaller := min(len(a), len(b))
	if smaller == 0 {
		return 0
	}
	return float64(a.Shared(b)) / float64(smaller)
}
