package service

import (
	"time"
)

// Lineage by publication (issue 47): a copy links to the earliest published
// article it could have been copied from — of its near and exact matches,
// the one published first — whatever the order they arrived in. An article
// that arrives after its copies but was published before them heads their
// cluster instead: it is stored unlinked and the copies it holds relink to
// it (ingest_promote.go).
//
// A publication time is the client's word. One later than the article's
// arrival by more than publishedSkew cannot be true and counts as the
// arrival; one far in the past is trusted — an archive imported today is
// all in the past — and the window (Options.Window) already keeps a copy
// from matching articles far from its time. An article sent without one
// takes its arrival, as it always has. docs/reporting.md, "Who copied whom".

// publishedSkew is how far after its arrival a publication time may be
// (clocks differ, a CMS schedules a minute ahead) before it counts as the
// arrival.
const publishedSkew = 10 * time.Minute

// effectivePublished is the publication time lineage compares: published,
// or arrived when published is later than arrived by more than
// publishedSkew. A zero arrived (an article of the group being stored)
// trusts published.
func effectivePublished(published, arrived time.Time) time.Time {
	if !arrived.IsZero() && published.After(arrived.Add(publishedSkew)) {
		return arrived
	}
	return published
}

// earliestHolder is the match a copy links to among matches, sorted best
// first by decide: the earliest published (effectivePublished) of its
// exact copies, or when it has none, of its near duplicates, the best
// sorted first among equals; nil when none is near or exact. An exact copy
// of a repost links to the repost, whose text it has, not to the original
// without the repost's lines.
func earliestHolder(matches []Match) *Match {
	var best *Match
	for i := range matches {
		m := &matches[i]
		if m.partial || (best != nil && best.exact && !m.exact) {
			continue
		}
		if best == nil || (m.exact && !best.exact) || m.published().Before(best.published()) {
			best = m
		}
	}
	return best
}

// published is the match's publication time as lineage compares it.
func (m *Match) published() time.Time { return effectivePublished(m.PublishedAt, m.ingestedAt) }

// promotes reports whether an article published at published (its
// effective time) heads the cluster of its decision's match rather than
// link to it: its match was published after it, and is a near or exact
// duplicate, or a partial one that heads its cluster (an excerpt stored
// alone before its original). An article sent without a publication time
// (arrived) never does: its time is its arrival, after everything stored.
func promotes(published time.Time, arrived bool, d decision) bool {
	return !arrived && d.best != nil && (!d.best.partial || d.best.clusterID == d.best.ID) && published.Before(d.best.published())
}
