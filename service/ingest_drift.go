package service

import (
	"context"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

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
