package service

// A near duplicate shares most of both texts. The verifier counts what two
// articles share on their sampled character 5-grams (shingles) from each
// side: the share of the shorter text found in the longer
// (Similarity.Overlap) and the share of the longer found in the shorter
// (Similarity.LongerOverlap). A candidate within opts.MaxDistance bits that
// shares opts.MinOverlap of the shorter text is a match, as it always was
// (linkedByFingerprint); it is a near duplicate only when it shares that
// much of the longer text too and neither text holds the other plus much
// more (HoldShare of the other found in it, less than HoldShare of it found
// there). Otherwise — a digest of several stories and one of them, a
// compilation, an expansion, an excerpt and its original, two texts that
// share half of one — it is a partial duplicate, with the coverage its
// text gives (partial.go says what the two shares mean).
//
// Counted from the shorter side alone, a digest shared all of each of its
// stories and was their near duplicate whenever its fingerprint was near,
// as it often is: its heaviest words are often one story's. Measured on
// real news in docs/digests.md: the verifier's rule turns every digest of
// make eval into a partial duplicate of one of its stories and keeps every
// link the service made, so the fingerprint stays as it is.

// HoldShare: a text holds another when at least this share of the other's
// text is found in it, the partial rule's text share (exported for the
// evaluation, which counts with it).
const HoldShare = partialText

// linkedByFingerprint reports whether a candidate measured as s matches
// under opts: within opts.MaxDistance bits, sharing opts.MinOverlap of the
// shorter text and opts.MinWordRatio of the words.
func linkedByFingerprint(s Similarity, opts Options) bool {
	return s.Distance <= opts.MaxDistance && s.Overlap >= opts.MinOverlap && s.WordRatio >= opts.MinWordRatio
}

// nearEnough reports whether a candidate measured as s is a near duplicate
// under opts: a match that shares opts.MinOverlap of both texts, neither
// holding the other plus much more.
func nearEnough(s Similarity, opts Options) bool {
	return linkedByFingerprint(s, opts) && s.LongerOverlap >= opts.MinOverlap && !holdsPlusMore(s.Overlap, s.LongerOverlap)
}

// holdsPlusMore reports whether a text holds another plus much more: held
// of the other is found in it, and own of it in the other.
func holdsPlusMore(held, own float64) bool {
	return held >= HoldShare && own < HoldShare
}
