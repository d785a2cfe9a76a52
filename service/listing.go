package service

import (
	"context"
)

// The list of clusters' orders and totals: newest first by their heads'
// publication (the default), largest first, or by their latest member
// (the last ingested), each with a keyset cursor of its own; and how many
// clusters, and articles in them, a query's filters match.

// ClusterSort is an order of the list of clusters.
type ClusterSort string

// The orders of the list.
const (
	SortPublished ClusterSort = "published" // newest head first
	SortSize      ClusterSort = "size"      // largest first
	SortLatest    ClusterSort = "latest"    // latest ingested member first
)

// ClusterSorts are the orders, the default first.
var ClusterSorts = []ClusterSort{SortPublished, SortSize, SortLatest}

// Or is the order, SortPublished for "".
func (s ClusterSort) Or() ClusterSort {
	if s == "" {
		return SortPublished
	}
	return s
}

// validateOrder checks the query's order, and that its cursor is of it.
func (q *ClusterQuery) validateOrder() error {
	switch q.Sort.Or() {
	case SortPublished, SortSize, SortLatest:
	default:
		return Invalid("sort", "must be published, size or latest, not %q", q.Sort)
	}
	if q.After != nil && q.After.Sort.Or() != q.Sort.Or() {
		return Invalid("cursor", "is a place in the list in another order (%s): give the sort it was given with", q.After.Sort.Or())
	}
	if q.Source != "" && q.SourcePrefix != "" {
		return Invalid("source_prefix", "cannot be given with source")
	}
	return nil
}

// ClusterTotal is how many clusters a query's filters match, and how many
// articles they hold.
type ClusterTotal struct {
	Clusters, Articles int
	// More says that more clusters than Clusters match: a count up to a
	// bound stopped there (Articles is then 0).
	More bool
}

// ListingStore counts the list of clusters.
type ListingStore interface {
	// CountClusters counts the clusters of two or more articles that q's
	// filters match (its order, cursor and limit aside), and their
	// members; when upTo > 0, at most upTo clusters (More set should more
	// match, without the members).
	CountClusters(ctx context.Context, q ClusterQuery, upTo int) (ClusterTotal, error)
}

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
