package service

import (
	"cmp"
	"slices"
	"time"
)

// Original is the member of a cluster the others derive from (首发): the
// one published first. A member that holds the article it links to plus
// much more (holdsMore: a digest, a compilation, an expansion) is made of
// the others, so it is not the original unless every member is one. The
// view cluster_original (migration 00022) names the same member.
type Original struct {
	ID          int64
	PublishedAt time.Time
	// Copies is how many other members the cluster has.
	Copies int
}

// originalOf names the original of a cluster's members (at least one):
// the earliest published, then the lowest id.
func originalOf(members []KeepCandidate) Original {
	whole := slices.DeleteFunc(slices.Clone(members), holdsMore)
	if len(whole) == 0 {
		whole = members
	}
	first := slices.MinFunc(whole, func(a, b KeepCandidate) int {
		return cmp.Or(a.PublishedAt.Compare(b.PublishedAt), cmp.Compare(a.ID, b.ID))
	})
	return Original{ID: first.ID, PublishedAt: first.PublishedAt, Copies: len(members) - 1}
}
