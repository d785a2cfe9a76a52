package service

import (
	"cmp"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

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
// text gives (rules_partial.go says what the two shares mean).
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

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// decide judges a fingerprint against the stored articles with the same text
// (exact) and the index's candidates (near). A candidate is a match when it
// is within opts.MaxDistance bits and shares at least opts.MinOverlap of the
// shorter text and opts.MinWordRatio of the words; a near duplicate when it
// shares most of both texts too, else a partial duplicate with its coverage
// (rules_near.go). A near or exact duplicate links to the earliest published
// of its near and exact matches (rules_lineage.go), the closest among equals
// (an exact copy, then fewest differing bits, most shared text, most shared
// words, the earliest stored); a partial duplicate, when no match is near,
// to its closest one. Matches are listed closest first.
func decide(fp fingerprint.Fingerprint, exact, near []Candidate, opts Options) decision {
	seen := make(map[int64]bool, len(exact)+len(near))
	var matches []Match
	for _, c := range exact {
		seen[c.ID] = true
		matches = append(matches, newMatch(fp, c, true))
	}
	for _, c := range near {
		if seen[c.ID] {
			continue
		}
		m := newMatch(fp, c, false)
		if !linkedByFingerprint(m.Similarity, opts) {
			continue
		}
		if !nearEnough(m.Similarity, opts) {
			this, that := fingerprint.Coverage(fp.Shingles, c.Shingles)
			m.partial, m.Coverage = true, Coverage{This: this, That: that}
		}
		matches = append(matches, m)
	}
	slices.SortFunc(matches, func(a, b Match) int {
		return cmp.Or(
			compareBool(a.partial, b.partial),
			cmp.Compare(a.Distance, b.Distance),
			-compareBool(a.exact, b.exact),
			-cmp.Compare(a.Overlap, b.Overlap),
			-cmp.Compare(a.WordRatio, b.WordRatio),
			cmp.Compare(a.ID, b.ID),
		)
	})

	// Exact copies sort first (distance 0, exact before near, then by id),
	// partial ones last; the best is the earliest published of the near and
	// exact ones (rules_lineage.go), the first sorted among equals, else
	// the earliest published of the closest partial ones.
	d := decision{matches: matches}
	d.chooseBest()
	if len(d.matches) > opts.Limit {
		d.matches = d.matches[:opts.Limit]
	}
	return d
}

// chooseBest sets d's best and status from its matches, sorted closest
// first as decide sorts them: unique when there are none.
func (d *decision) chooseBest() {
	d.best, d.status = nil, StatusUnique
	if len(d.matches) == 0 {
		return
	}
	d.best = cmp.Or(earliestHolder(d.matches), earliestClosest(d.matches))
	switch {
	case d.best.exact:
		d.status = StatusExactDuplicate
	case d.best.partial:
		d.status = StatusPartialDuplicate
	default:
		d.status = StatusNearDuplicate
	}
}

// inWindow reports whether t is within opts' window around published.
func inWindow(t, published time.Time, opts Options) bool {
	from, to := window(published, opts)
	return from.IsZero() || (!t.Before(from) && !t.After(to))
}

// window returns the publication times a near duplicate of an article
// published at t may have; both zero when opts sets no window.
func window(t time.Time, opts Options) (from, to time.Time) {
	if opts.Window == 0 {
		return time.Time{}, time.Time{}
	}
	return t.Add(-opts.Window), t.Add(opts.Window)
}
