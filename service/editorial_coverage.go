package service

import (
	"cmp"
	"context"
	"slices"
)

// Other coverage: the articles that are not in a cluster but share
// sentences with it — other outlets quoting the same press release, the
// multi-viewpoint case of the design — found by the sentence index from
// the cluster's original and its kept member (the other members are
// copies of them).

// MaxOtherCoverage is the most articles OtherCoverage lists.
const MaxOtherCoverage = 50

// OtherCoverage returns the articles outside the cluster that share
// sentences with its original or its kept member: one entry an article,
// newest first (then the highest id), each with the sentences it shares.
func (s *Service) OtherCoverage(ctx context.Context, v ClusterView) ([]SharedArticle, error) {
	byID := map[int64]SharedArticle{}
	for _, id := range slices.Compact([]int64{v.Original.ID, v.Kept.ID}) {
		if id == 0 {
			continue
		}
		shared, err := s.SharedSentences(ctx, id, SharedOptions{Limit: MaxOtherCoverage})
		if err != nil {
			return nil, err
		}
		for _, a := range shared.Articles {
			if a.ClusterID == v.ID {
				continue
			}
			if old, ok := byID[a.ID]; !ok || len(a.Pairs) > len(old.Pairs) {
				byID[a.ID] = a
			}
		}
	}
	out := make([]SharedArticle, 0, len(byID))
	for _, a := range byID {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b SharedArticle) int {
		return cmp.Or(b.PublishedAt.Compare(a.PublishedAt), cmp.Compare(b.ID, a.ID))
	})
	if len(out) > MaxOtherCoverage {
		out = out[:MaxOtherCoverage]
	}
	return out, nil
}
