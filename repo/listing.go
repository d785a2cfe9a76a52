package repo

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

var _ service.ListingStore = queries{}

// listingOrders are the list's orders: the key of cluster_listing each
// sorts by (descending, then cluster_id), each with a B-tree of that order
// (migrations 00009 and 00021).
var listingOrders = map[service.ClusterSort]string{
	service.SortPublished: "l.published_at",
	service.SortSize:      "l.size",
	service.SortLatest:    "l.last_ingested",
}

// clusterFilters are the conditions of a query's filters, with their
// arguments: only those it sets, so that the planner picks the index that
// fits — the order's B-tree, or for a filter that matches few clusters
// the GIN index of sources or statuses, or the size's B-tree.
func clusterFilters(cq service.ClusterQuery) (where []string, args []any) {
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if !cq.From.IsZero() {
		where = append(where, "l.published_at >= "+arg(cq.From))
	}
	if !cq.To.IsZero() {
		where = append(where, "l.published_at < "+arg(cq.To))
	}
	if !cq.ActiveFrom.IsZero() { // the index by latest member (migration 00021)
		where = append(where, "l.last_ingested >= "+arg(cq.ActiveFrom))
	}
	if cq.Source != "" {
		where = append(where, "l.sources @> ARRAY["+arg(cq.Source)+"::text]")
	}
	if cq.Sources != nil {
		where = append(where, "l.sources && "+arg(cq.Sources)+"::text[]")
	}
	if cq.Status != "" {
		where = append(where, "l.statuses @> ARRAY["+arg(string(cq.Status))+"::text]")
	}
	if cq.MinSize > 0 {
		where = append(where, "l.size >= "+arg(cq.MinSize))
	}
	if cq.MaxSize > 0 {
		where = append(where, "l.size <= "+arg(cq.MaxSize))
	}
	return where, args
}

// noStatus reports a query for a verdict no cluster has. One the
// statistics do not know would have the planner walk the whole order's
// index looking for it: the GIN index says so first.
func (q queries) noStatus(ctx context.Context, cq service.ClusterQuery) (bool, error) {
	if cq.Status == "" {
		return false, nil
	}
	var any bool
	err := q.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM cluster_listing WHERE statuses @> ARRAY[$1::text])`, string(cq.Status)).Scan(&any)
	return !any, err
}

// ListClusters returns a page of cluster_listing in the query's order.
func (q queries) ListClusters(ctx context.Context, cq service.ClusterQuery) ([]service.ClusterRow, error) {
	if none, err := q.noStatus(ctx, cq); none || err != nil {
		return nil, interpretError(err, "list clusters")
	}
	where, args := clusterFilters(cq)
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	key := listingOrders[cq.Sort.Or()]
	if a := cq.After; a != nil {
		var after any
		switch a.Sort.Or() {
		case service.SortSize:
			after = a.Size
		case service.SortLatest:
			after = a.LastIngested
		default:
			after = a.PublishedAt
		}
		where = append(where, fmt.Sprintf("(%s, l.cluster_id) < (%s, %s)", key, arg(after), arg(a.ID)))
	}
	sql := `
		SELECT l.cluster_id, h.title, h.source, h.external_id, l.published_at, l.size, l.sources, l.statuses, l.last_ingested
		FROM cluster_listing l
		JOIN articles h ON h.id = l.cluster_id`
	if len(where) > 0 {
		sql += "\n\t\tWHERE " + strings.Join(where, "\n\t\t  AND ")
	}
	sql += "\n\t\tORDER BY " + key + " DESC, l.cluster_id DESC\n\t\tLIMIT " + arg(cq.Limit)
	rows, err := q.db.Query(ctx, sql, args...)
	if err != nil {
		return nil, interpretError(err, "list clusters")
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.ClusterRow, error) {
		var r service.ClusterRow
		var statuses []string
		err := row.Scan(&r.ID, &r.Title, &r.Source, &r.ExternalID, &r.PublishedAt, &r.Size, &r.Sources, &statuses, &r.LastIngested)
		for _, s := range statuses {
			r.Statuses = append(r.Statuses, service.Status(s))
		}
		return r, err
	})
	return out, interpretError(err, "list clusters")
}

// CountClusters counts the clusters the query's filters match, and their
// members, from cluster_listing alone; up to upTo + 1 rows when upTo > 0.
func (q queries) CountClusters(ctx context.Context, cq service.ClusterQuery, upTo int) (service.ClusterTotal, error) {
	var t service.ClusterTotal
	if none, err := q.noStatus(ctx, cq); none || err != nil {
		return t, interpretError(err, "count clusters")
	}
	where, args := clusterFilters(cq)
	rows := `SELECT l.size FROM cluster_listing l`
	if len(where) > 0 {
		rows += " WHERE " + strings.Join(where, " AND ")
	}
	if upTo > 0 {
		rows += " LIMIT " + strconv.Itoa(upTo+1)
	}
	err := q.db.QueryRow(ctx, `SELECT count(*), coalesce(sum(size), 0) FROM (`+rows+`) l`, args...).Scan(&t.Clusters, &t.Articles)
	if upTo > 0 && t.Clusters > upTo {
		t = service.ClusterTotal{Clusters: upTo, More: true}
	}
	return t, interpretError(err, "count clusters")
}
