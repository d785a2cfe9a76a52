package service

import (
	"context"
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
// text, as they would had it arrived first (rules_lineage.go).
func (s *Service) saveAsHead(ctx context.Context, tx Tx, in *ArticleInput, fp fingerprint.Fingerprint, d decision, opts Options) (Article, error) {
	a := newArticle(in, fp, Link{Status: StatusUnique})
	if err := tx.Insert(ctx, &a, in.Body); err != nil {
		return Article{}, err
	}
	members, err := tx.ClusterMembers(ctx, d.best.clusterID, maxPromoteRelinks)
	if err != nil {
		return Article{}, err
	}
	published := effectivePublished(a.PublishedAt, s.now())
	var ls []Link
	for _, m := range members {
		if l, ok := promotedLink(a, fp, published, m, opts); ok {
			ls = append(ls, l)
		} else if m.ID == d.best.ID && d.best.partial {
			ls = append(ls, partialLink(a, fp, *d.best, m))
		}
	}
	if err := tx.RelinkMany(ctx, ls); err != nil {
		return Article{}, err
	}
	return a, s.recredit(ctx, tx, ls)
}

// promotedLink is member m's link to head h (fingerprint fp, published at
// published) when m is a near or exact duplicate of it published after
// it and not a partial duplicate (whose link the partial rule chose).
func promotedLink(h Article, fp fingerprint.Fingerprint, published time.Time, m Article, opts Options) (Link, bool) {
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
	}
	return Link{ID: m.ID, Status: status, DuplicateOf: h.ID, ClusterID: h.ID, Similarity: sim}, true
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
