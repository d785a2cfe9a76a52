package service

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// maxPromoteRelinks bounds the members an article that heads its match's
// cluster relinks to itself (the cluster's earliest ingested first); the
// rest keep their links, and those that link to a relinked one move with
// it. One read, one relink and one credit write, however many.
const maxPromoteRelinks = 1000

// saveAsHead stores new article in, published before the near or exact
// match d.best (promotes; d.best's cluster locked by lockMatch), as the
// head of a cluster of its own, and relinks to it every member of the
// match's cluster it is a near or exact duplicate of, published after it:
// the copies now link to the earliest published article that holds their
// text, as they would had it arrived first (rules_lineage.go), and the
// members linked as partial duplicates to an article published after it
// that it is as close to by the article index (closerPartialLink). Then
// the partial copies of it published after it (headsCopies), when they
// copy it as much as what they link to (relinkCopies).
func (s *Service) saveAsHead(ctx context.Context, tx Tx, locks *clusterLocks, in *ArticleInput, fp fingerprint.Fingerprint, d decision, opts Options) (Article, error) {
	a := newArticle(in, fp, Link{Status: StatusUnique})
	if err := tx.Insert(ctx, &a, in.Body); err != nil {
		return Article{}, err
	}
	published := effectivePublished(a.PublishedAt, s.now())
	var ls []Link
	if d.best != nil {
		members, err := tx.ClusterMembers(ctx, d.best.clusterID, maxPromoteRelinks)
		if err != nil {
			return Article{}, err
		}
		pub := make(map[int64]time.Time, len(members))
		for _, m := range members {
			pub[m.ID] = effectivePublished(m.PublishedAt, m.IngestedAt)
		}
		for _, m := range members {
			if l, ok := promotedLink(a, fp, published, m, d.boilerplate, opts); ok {
				ls = append(ls, l)
			} else if m.ID == d.best.ID && d.best.partial {
				ls = append(ls, partialLink(a, fp, *d.best, m))
			} else if target, known := pub[m.DuplicateOf]; known && published.Before(target) {
				if l, ok := closerPartialLink(a, fp, published, m, d.boilerplate, opts); ok {
					ls = append(ls, l)
				}
			}
		}
		more, err := promoteElsewhere(ctx, tx, locks, a, fp, published, d, ls, opts)
		if err != nil {
			return Article{}, err
		}
		ls = append(ls, more...)
	}
	orig := ClusterOriginal{ID: a.ID, PublishedAt: a.PublishedAt, Shingles: fp.Shingles}
	copies, err := s.relinkCopies(ctx, tx, locks, a, orig, headsCopies(published, d), ls, opts)
	if err != nil {
		return Article{}, err
	}
	ls = append(ls, copies...)
	if err := tx.RelinkMany(ctx, ls); err != nil {
		return Article{}, err
	}
	if err := replaceMoved(ctx, tx, a.ID, orig, ls); err != nil {
		return Article{}, err
	}
	return a, s.recredit(ctx, tx, ls)
}

// promoteElsewhere are the links to new head h (fingerprint fp, published
// at published) of the members of its later near matches' other clusters
// (laterMatchesElsewhere) that are near it and published after it, heading
// their cluster or linked to an article published after it
// (leavesForHead); those in done are relinked already. Each cluster is
// locked (lockMatch: a match changed meanwhile runs the transaction again)
// and read once, maxPromoteRelinks members at most; at most opts.Limit
// clusters, the decision's matches.
func promoteElsewhere(ctx context.Context, tx Tx, locks *clusterLocks, h Article, fp fingerprint.Fingerprint, published time.Time, d decision, done []Link, opts Options) ([]Link, error) {
	var ls []Link
	taken := relinkedIDs(done)
	read := map[int64]bool{d.best.clusterID: true}
	for _, m := range laterMatchesElsewhere(published, d) {
		if err := lockMatch(ctx, tx, locks, m); err != nil {
			return nil, err
		}
		if read[m.clusterID] {
			continue
		}
		read[m.clusterID] = true
		members, err := tx.ClusterMembers(ctx, m.clusterID, maxPromoteRelinks)
		if err != nil {
			return nil, err
		}
		pub := make(map[int64]time.Time, len(members))
		for _, x := range members {
			pub[x.ID] = effectivePublished(x.PublishedAt, x.IngestedAt)
		}
		for _, x := range members {
			if taken[x.ID] {
				continue
			}
			target, known := pub[x.DuplicateOf]
			if l, ok := promotedLink(h, fp, published, x, d.boilerplate, opts); ok && leavesForHead(published, x, target, known) {
				ls = append(ls, l)
				taken[x.ID] = true
			}
		}
	}
	return ls, nil
}

// replaceMoved applies the drift rule again to the partial duplicates that
// moved into cluster (original orig) with the articles they link to, when
// ls relinked those: placed against their old cluster's original, they
// are placed against the new one, as in publication order they would have
// been — one sharing too little with it heads its own cluster, its link
// kept. Those ls relinked were placed already. One read of the cluster's
// members (maxPromoteRelinks at most), one relink.
func replaceMoved(ctx context.Context, tx Tx, cluster int64, orig ClusterOriginal, ls []Link) error {
	if len(ls) == 0 {
		return nil
	}
	members, err := tx.ClusterMembers(ctx, cluster, maxPromoteRelinks)
	if err != nil {
		return err
	}
	origs := map[int64]ClusterOriginal{cluster: orig}
	moved := relinkedIDs(ls)
	var placed []Link
	for _, m := range members {
		if m.Status != StatusPartialDuplicate || m.ClusterID != cluster || m.ID == orig.ID || moved[m.ID] {
			continue
		}
		l := Link{ID: m.ID, Status: m.Status, DuplicateOf: m.DuplicateOf, ClusterID: m.ClusterID, Similarity: m.Similarity}
		if place(&l, m.Shingles, origs); l.ClusterID != cluster {
			placed = append(placed, l)
		}
	}
	return tx.RelinkMany(ctx, placed)
}

// promotedLink is member m's link to head h (fingerprint fp, published at
// published) when m is a near or exact duplicate of it published after
// it and not a partial duplicate (whose link the partial rule chose); a
// near one that shares too little once h's boilerplate shingles are taken
// out of both (withoutBoilerplate) is none, as m arriving after h would
// have found.
func promotedLink(h Article, fp fingerprint.Fingerprint, published time.Time, m Article, boilerplate fingerprint.ShingleSet, opts Options) (Link, bool) {
	// An exact copy keeps its link to the text it has (earliestHolder).
	if m.ID == h.ID || m.Status == StatusPartialDuplicate || m.FingerprintVersion != fp.Version ||
		(m.Status == StatusExactDuplicate && m.ContentHash != fp.ContentHash) ||
		!published.Before(effectivePublished(m.PublishedAt, m.IngestedAt)) || !inWindow(m.PublishedAt, h.PublishedAt, opts) {
		return Link{}, false
	}
	sim := similarity(fp, m.Simhash, m.Words, m.Shingles)
	if !nearEnough(sim, opts) {
		return Link{}, false
	}
	status := StatusNearDuplicate
	if m.ContentHash == fp.ContentHash {
		status = StatusExactDuplicate
	} else if len(withoutBoilerplate(fp, []Candidate{{Shingles: m.Shingles}}, boilerplate, opts)) == 0 {
		return Link{}, false
	}
	return Link{ID: m.ID, Status: status, DuplicateOf: h.ID, ClusterID: h.ID, Similarity: sim}, true
}

// closerPartialLink is the link to head h (fingerprint fp, published at
// published) of member m, a partial duplicate of an article published
// after h (the caller checks), when h is its partial match by the article
// index at least as close as that one (closerByIndex), sharing enough once
// h's boilerplate shingles are out: in publication order m arrived after
// both and linked to h, the earliest of the closest. The partial rule's
// choice among the articles stored when m arrived, which h was not, is
// made again. Placed by the drift rule against h.
func closerPartialLink(h Article, fp fingerprint.Fingerprint, published time.Time, m Article, boilerplate fingerprint.ShingleSet, opts Options) (Link, bool) {
	if m.ID == h.ID || m.Status != StatusPartialDuplicate || m.FingerprintVersion != fp.Version ||
		!published.Before(effectivePublished(m.PublishedAt, m.IngestedAt)) || !inWindow(m.PublishedAt, h.PublishedAt, opts) {
		return Link{}, false
	}
	sim := similarity(fp, m.Simhash, m.Words, m.Shingles)
	if !linkedByFingerprint(sim, opts) || nearEnough(sim, opts) || !closerByIndex(sim, m.Similarity, opts) ||
		len(withoutBoilerplate(fp, []Candidate{{Shingles: m.Shingles}}, boilerplate, opts)) == 0 {
		return Link{}, false
	}
	mInH, hInM := fingerprint.Coverage(m.Shingles, fp.Shingles)
	sim.Coverage = Coverage{This: mInH, That: hInM}
	l := Link{ID: m.ID, Status: StatusPartialDuplicate, DuplicateOf: h.ID, ClusterID: h.ID, Similarity: sim}
	place(&l, m.Shingles, map[int64]ClusterOriginal{h.ID: {ID: h.ID, PublishedAt: h.PublishedAt, Shingles: fp.Shingles}})
	return l, true
}

// partialLink is the link of m, the head of its cluster and the partial
// duplicate match of new head h, to h: the same measures, each side's
// coverage seen from m; placed by the drift rule against h, its new
// cluster's original, it may head its own cluster still.
func partialLink(h Article, fp fingerprint.Fingerprint, best Match, m Article) Link {
	sim := best.Similarity
	sim.Coverage = Coverage{This: best.Coverage.That, That: best.Coverage.This}
	l := Link{ID: m.ID, Status: StatusPartialDuplicate, DuplicateOf: h.ID, ClusterID: h.ID, Similarity: sim}
	place(&l, m.Shingles, map[int64]ClusterOriginal{h.ID: {ID: h.ID, PublishedAt: h.PublishedAt, Shingles: fp.Shingles}})
	return l
}

// relinkCopies are the links to new head h of its partial copies cs,
// published after it, that the sentence index found (maxProspects at most),
// other than those already relinked (done). Each copy's cluster is locked
// (locks) and the copy read again under it; one whose text or link changed
// meanwhile keeps its link. A copy heading its own cluster links to h; a
// partial duplicate of an article published after h moves to h when h
// covers it as much (the larger coverage either way), as decidePartial
// would have chosen had h arrived first. A copy near h (the article
// index's measure) links as near, a partial one is placed by the drift
// rule against orig, the original of h's cluster.
func (s *Service) relinkCopies(ctx context.Context, tx Tx, locks *clusterLocks, h Article, orig ClusterOriginal, cs []laterCopy, done []Link, opts Options) ([]Link, error) {
	published := effectivePublished(h.PublishedAt, h.IngestedAt)
	current := make(map[int64]Article)
	skip := relinkedIDs(done)
	var targets []int64
	for _, c := range cs {
		if skip[c.ID] {
			continue
		}
		a, err := lockCluster(ctx, tx, locks, c.ID, c.clusterID)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if a.ContentHash != c.contentHash || a.Status != c.status || (a.Status == StatusUnique && a.ClusterID != a.ID) {
			continue
		}
		current[c.ID] = a
		if a.Status == StatusPartialDuplicate {
			targets = append(targets, a.DuplicateOf)
		}
	}
	slices.Sort(targets)
	ofs, err := tx.Candidates(ctx, slices.Compact(targets))
	if err != nil {
		return nil, err
	}
	var ls []Link
	for _, c := range cs {
		cur, ok := current[c.ID]
		if !ok {
			continue
		}
		if cur.Status == StatusPartialDuplicate {
			i := slices.IndexFunc(ofs, func(o Candidate) bool { return o.ID == cur.DuplicateOf })
			if i < 0 || !published.Before(effectivePublished(ofs[i].PublishedAt, ofs[i].IngestedAt)) ||
				coverageRank(c.Coverage)+1e-4 < coverageRank(cur.Coverage) {
				continue
			}
		}
		l := Link{ID: c.ID, Status: StatusNearDuplicate, DuplicateOf: h.ID, ClusterID: h.ClusterID, Similarity: c.Similarity}
		if !nearEnough(c.Similarity, opts) {
			l.Status, l.Coverage = StatusPartialDuplicate, c.Coverage
			place(&l, cur.Shingles, map[int64]ClusterOriginal{h.ClusterID: orig})
		}
		ls = append(ls, l)
	}
	return ls, nil
}

// relinkLaterCopies relinks to stored article a, which links to an earlier
// one (not heading its cluster), the partial copies of it published after
// it that its partial step found (headsCopies), as relinkCopies does: in
// publication order they would have found it. Those of a's cluster, or of
// its match's when it drifted from it, keep their links (one might lead
// back to a). Nothing is read unless it has
// such copies.
func (s *Service) relinkLaterCopies(ctx context.Context, tx Tx, locks *clusterLocks, a Article, published time.Time, d decision, opts Options) error {
	cs := slices.DeleteFunc(headsCopies(published, d), func(c laterCopy) bool {
		return c.clusterID == a.ClusterID || (d.best != nil && c.clusterID == d.best.clusterID)
	})
	if len(cs) == 0 {
		return nil
	}
	origs, err := tx.ClusterOriginals(ctx, []int64{a.ClusterID})
	if err != nil {
		return err
	}
	ls, err := s.relinkCopies(ctx, tx, locks, a, origs[a.ClusterID], cs, nil, opts)
	if err != nil || len(ls) == 0 {
		return err
	}
	if err := tx.RelinkMany(ctx, ls); err != nil {
		return err
	}
	if err := replaceMoved(ctx, tx, a.ClusterID, origs[a.ClusterID], ls); err != nil {
		return err
	}
	return s.recredit(ctx, tx, ls)
}

// relinkedIDs is the set of articles ls relinks, so that a pass over a
// cluster's members asks it once each and stays linear in them.
func relinkedIDs(ls []Link) map[int64]bool {
	ids := make(map[int64]bool, len(ls))
	for _, l := range ls {
		ids[l.ID] = true
	}
	return ids
}

// coverageRank is what decidePartial ranks a partial match by first: the
// larger coverage either way.
func coverageRank(c Coverage) float64 { return max(c.This, c.That) }
