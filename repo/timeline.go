package repo

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

// ClusterTimeline counts the members of the cluster headed by clusterID by
// hour of publication (UTC-aligned) and source, earliest first, through
// the cluster_id index: the database sends counts, not members.
func (q queries) ClusterTimeline(ctx context.Context, clusterID int64, limit int) ([]service.TimelineCount, error) {
	rows, err := q.db.Query(ctx, `
		SELECT date_bin('1 hour', published_at, TIMESTAMPTZ 'epoch') AS hour, source, count(*)
		FROM articles
		WHERE cluster_id = $1
		GROUP BY 1, 2
		ORDER BY 1, 2
		LIMIT $2`, clusterID, limitArg(limit))
	if err != nil {
		return nil, interpretError(err, "count a cluster's members by hour")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (service.TimelineCount, error) {
		var c service.TimelineCount
		err := r.Scan(&c.Hour, &c.Source, &c.Members)
		return c, err
	})
	return out, interpretError(err, "count a cluster's members by hour")
}
