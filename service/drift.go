package service

import (
	"context"
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// placedLink is the link of article id (0 when not stored) by decision d,
// placed by the drift rule: what every path that stores or checks one
// article writes.
func placedLink(ctx context.Context, r ArticleReader, id int64, d decision, own fingerprint.ShingleSet) (Link, error) {
	l := link(id, d)
	return l, placeLink(ctx, r, &l, own)
}

// placeLink applies the drift rule to link l of an article with shingles
// own: it reads the original of the cluster l joins and makes l head its
// own when the article would drift from it.
func placeLink(ctx context.Context, r ArticleReader, l *Link, own fingerprint.ShingleSet) error {
	if l.Status != StatusPartialDuplicate || l.ClusterID == 0 {
		return nil
	}
	origs, err := r.ClusterOriginals(ctx, []int64{l.ClusterID})
	if err != nil {
		return err
	}
	place(l, own, origs)
	return nil
}

// notIntoSubtree drops decision d's match when it is in stored article x's
// own subtree, which links to x directly or through others: an article
// that heads copies stored before it (saveAsHead) sees them when judged
// again against the articles ingested before it, and linking to one would
// close a circle. x then heads its subtree, as it did.
func notIntoSubtree(ctx context.Context, tx Tx, x Article, d *decision) error {
	if d.best == nil || d.best.clusterID != x.ClusterID {
		return nil
	}
	if x.ClusterID != x.ID || x.DuplicateOf != 0 { // not the whole cluster's head: read which members are below it
		sub, err := tx.Subtree(ctx, x.ID)
		if err != nil || !slices.Contains(sub, d.best.ID) {
			return err
		}
	}
	d.best, d.status = nil, StatusUnique
	return nil
}
