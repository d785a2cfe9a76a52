package repo

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

// ClusterOriginals returns the original of each of clusters ids that
// exists, ordered as the view cluster_original orders a cluster's members
// (a member holding the article it links to plus much more last, then the
// earliest published, then the lowest id), for the drift rule
// (service/rules_drift.go). Each cluster is one index scan of its members,
// and the shingles of its original alone are read.
func (q queries) ClusterOriginals(ctx context.Context, ids []int64) (map[int64]service.ClusterOriginal, error) {
	rows, err := q.db.Query(ctx, `
		SELECT c.id, o.id, o.published_at, o.shingles, o.holds_more
		FROM unnest($1::int8[]) AS c(id)
		CROSS JOIN LATERAL (
			SELECT a.id, a.published_at, a.shingles,
			       coalesce(a.status = 'partial_duplicate' AND a.coverage_that >= $2::real AND a.coverage_this < $2::real, false) AS holds_more
			FROM articles a
			WHERE a.cluster_id = c.id
			ORDER BY holds_more, a.published_at, a.id
			LIMIT 1) o`, ids, float32(service.HoldShare))
	if err != nil {
		return nil, interpretError(err, "read cluster originals")
	}
	out := make(map[int64]service.ClusterOriginal, len(ids))
	var (
		cluster  int64
		o        service.ClusterOriginal
		shingles []int32
	)
	_, err = pgx.ForEachRow(rows, []any{&cluster, &o.ID, &o.PublishedAt, &shingles, &o.HoldsMore}, func() error {
		o.Shingles = shingleSet(shingles)
		out[cluster] = o
		return nil
	})
	return out, interpretError(err, "read cluster originals")
}
