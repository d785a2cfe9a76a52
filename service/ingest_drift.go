package service

import (
	"context"

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
