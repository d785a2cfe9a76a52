package service

import (
	"context"
)

// The list of clusters' orders and totals: newest first by their heads'
// publication (the default), largest first, or by their latest member
// (the last ingested), each with a keyset cursor of its own; and how many
// clusters, and articles in them, a query's filters match.

// CountClusters counts the clusters of two or more articles that q's
// filters match, whatever page q asks for. Errors as Clusters'.
func (s *Service) CountClusters(ctx context.Context, q ClusterQuery) (ClusterTotal, error) {
	return s.CountClustersUpTo(ctx, q, 0)
}

// CountClustersUpTo counts as CountClusters does, up to upTo clusters when
// upTo > 0: a count the editors' page makes on every load, at a bounded
// cost (a common source's 50,000 clusters cost some 25 ms to count at a
// million articles; docs/ui.md).
func (s *Service) CountClustersUpTo(ctx context.Context, q ClusterQuery, upTo int) (ClusterTotal, error) {
	q.After, q.Limit = nil, 1
	if err := q.validate(); err != nil {
		return ClusterTotal{}, err
	}
	if q.SourcePrefix != "" {
		var err error
		if q.Sources, err = s.store.Sources(ctx, q.SourcePrefix, MaxSources); err != nil || len(q.Sources) == 0 {
			return ClusterTotal{}, err
		}
	}
	return s.store.CountClusters(ctx, q, upTo)
}
