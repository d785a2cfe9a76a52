package service

import (
	"cmp"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Drift (issue 36). A partial duplicate links to the article it copies
// part of, and used to join that article's cluster; so chains of excerpts,
// and articles quoting a story amid much else, gathered members sharing
// little with the cluster's original. On the real corpora every such member
// was a partial duplicate (docs/evaluation.md, section 3c). Now a partial
// duplicate sharing less than DriftShare of its sampled 5-grams with the
// original of the cluster it would join keeps its link (status, coverage)
// but heads a cluster of its own: a link is still a real match, and a
// cluster stays one story. A near or exact duplicate always joins.
// docs/reporting.md says how clusters form.

// DriftShare is the share of its own sampled 5-grams a partial duplicate
// must find in its match's cluster's original to join that cluster.
const DriftShare = 0.3

// ClusterOriginal is what the drift rule reads of a cluster's original
// (rules_original.go's member; for a lone article, the article).
type ClusterOriginal struct {
	ID          int64
	PublishedAt time.Time
	Shingles    fingerprint.ShingleSet
	// HoldsMore: it holds the article it links to plus much more (a
	// digest, a compilation, an expansion), so it stays the original only
	// while no other member is one that does not.
	HoldsMore bool
}

// drifts reports whether an article judged status, with shingles own,
// would drift from a cluster whose original has shingles original: a
// partial duplicate sharing less than DriftShare of its own with it.
func drifts(status Status, own, original fingerprint.ShingleSet) bool {
	if status != StatusPartialDuplicate || len(own) == 0 {
		return false
	}
	return float64(own.Shared(original)) < DriftShare*float64(len(own))
}

// place applies the drift rule to link l of an article with shingles own,
// among the originals of the clusters it may join: l heads its own
// cluster when the article would drift from the one it links into.
func place(l *Link, own fingerprint.ShingleSet, origs map[int64]ClusterOriginal) {
	if o, ok := origs[l.ClusterID]; ok && drifts(l.Status, own, o.Shingles) {
		l.headsOwn()
	}
}

// headsOwn makes link l head a cluster of its own, its link kept: its
// cluster is its id (0 for an article not stored yet, which the store
// reads as heading its own).
func (l *Link) headsOwn() { l.ClusterID = l.ID }

// IsDriftHead reports whether the article links to another but heads a
// cluster of its own (the drift rule).
func (a *Article) IsDriftHead() bool { return a.DuplicateOf != 0 && a.ClusterID == a.ID }

// earlierOriginal reports whether a joining member with original-to-be c
// replaces original o of its cluster: a member that does not hold more
// replaces one that does; else the earliest published, then the lowest id.
func earlierOriginal(c, o ClusterOriginal) bool {
	if c.HoldsMore != o.HoldsMore {
		return o.HoldsMore
	}
	return cmp.Or(c.PublishedAt.Compare(o.PublishedAt), cmp.Compare(c.ID, o.ID)) < 0
}
