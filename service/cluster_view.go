package service

import (
	"math"
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Member is a member of a cluster as its view shows it.
type Member struct {
	Article
	TextLength int       // characters of its text (an HTML body without markup)
	Kept       *Decision // the editor's choice in force on it, if any
	// ShinglesCut says that Shingles are the first (smallest) of a longer
	// article's, as KeepCandidate's: a page reads no more of them.
	ShinglesCut bool
}

// BodyHead is the start of a stored body, as a cluster's page reads it:
// its first characters, and whether the body is longer.
type BodyHead struct {
	Body string
	Cut  bool
}

// Likeness is how a member compares with its cluster's kept member.
type Likeness struct {
	Similarity
	// Coverage is the share of the member's text found in the kept
	// member's; KeptCoverage the share of the kept member's found in the
	// member's.
	Coverage, KeptCoverage float64
}

// ClusterView is a cluster with its members, its kept member and the
// decisions made in it.
type ClusterView struct {
	ID       int64 // its head's id
	Size     int
	Members  []Member // at most MaxClusterMembers, earliest ingested first
	Kept     Kept
	Original Original // the member the others derive from (rules_original.go)
	// Compilations are the members that hold most of the text of two
	// stories or more (isCompilation), never kept by completeness.
	Compilations map[int64]bool
	Likeness     map[int64]Likeness // of each member but the kept one, with the kept one
	Decisions    []Decision         // in this cluster or about its members, latest first
	Policy       KeepPolicy
}

// Member returns the member with this id, if the view lists it.
func (v *ClusterView) Member(id int64) (Member, bool) {
	i := slices.IndexFunc(v.Members, func(m Member) bool { return m.ID == id })
	if i < 0 {
		return Member{}, false
	}
	return v.Members[i], true
}

// likeness compares two members by their stored fingerprints; of a long
// member's shingles, read cut, by the sample both hold whole (sampledCoverage).
func likeness(m, kept *Member) Likeness {
	mInK, kInM := sampledCoverage(m.Shingles, kept.Shingles, m.ShinglesCut, kept.ShinglesCut)
	sim := similarity(m.fingerprint(), kept.Simhash, kept.Words, kept.Shingles)
	sim.Overlap, sim.LongerOverlap = max(mInK, kInM), min(mInK, kInM)
	return Likeness{Similarity: sim, Coverage: mInK, KeptCoverage: kInM}
}

// sampledCoverage is fingerprint.Coverage of two sets of shingles of which
// either may be cut (its smallest only, in their unsigned order): below
// the smaller of the cut sets' last shingles both sets are whole, and the
// shingles there are a sample of each text as even as the shingles'
// own sampling, so the shares are counted there — as the keep rule counts
// the story (storyHeld).
func sampledCoverage(a, b fingerprint.ShingleSet, aCut, bCut bool) (aInB, bInA float64) {
	if !aCut && !bCut || len(a) == 0 || len(b) == 0 {
		return fingerprint.Coverage(a, b)
	}
	below := uint32(math.MaxUint32)
	for _, s := range []struct {
		set fingerprint.ShingleSet
		cut bool
	}{{a, aCut}, {b, bCut}} {
		if s.cut {
			below = min(below, s.set[len(s.set)-1])
		}
	}
	upTo := func(s fingerprint.ShingleSet) fingerprint.ShingleSet {
		n, _ := slices.BinarySearch(s, below)
		if n < len(s) && s[n] == below {
			n++
		}
		return s[:n]
	}
	return fingerprint.Coverage(upTo(a), upTo(b))
}
