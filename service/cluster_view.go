package service

import (
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Member is a member of a cluster as its view shows it.
type Member struct {
	Article
	TextLength int       // characters of its text (an HTML body without markup)
	Kept       *Decision // the editor's choice in force on it, if any
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

// likeness compares two stored articles by their stored fingerprints.
func likeness(m, kept *Article) Likeness {
	mInK, kInM := fingerprint.Coverage(m.Shingles, kept.Shingles)
	return Likeness{
		Similarity:   similarity(m.fingerprint(), kept.Simhash, kept.Words, kept.Shingles),
		Coverage:     mInK,
		KeptCoverage: kInM,
	}
}
