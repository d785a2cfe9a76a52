package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

var _ service.OverviewStore = queries{}

// CountDuplicates counts the duplicates published between the bounds, by
// bucket, source and verdict, from the partial index of duplicates by
// publication time (migration 00021) alone: width_bucket puts each in the
// bucket its time falls in.
func (q queries) CountDuplicates(ctx context.Context, bounds []time.Time) ([]service.DuplicateBucket, error) {
	if len(bounds) < 2 {
		return nil, nil
	}
	rows, err := q.db.Query(ctx, `
		SELECT width_bucket(published_at, $1::timestamptz[]) - 1, source, status, count(*)
		FROM articles
		WHERE status <> 'unique' AND published_at >= $2 AND published_at < $3
		GROUP BY 1, 2, 3`, bounds, bounds[0], bounds[len(bounds)-1])
	if err != nil {
		return nil, interpretError(err, "count duplicates")
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.DuplicateBucket, error) {
		var b service.DuplicateBucket
		var status string
		err := row.Scan(&b.Bucket, &b.Source, &status, &b.N)
		b.Status = service.Status(status)
		return b, err
	})
	return out, interpretError(err, "count duplicates")
}

// CountPublished counts the articles published from from to to, and the
// clusters of two or more whose head was, by their publication times'
// indexes (the articles' in article_search: see migration 00021).
func (q queries) CountPublished(ctx context.Context, from, to time.Time) (articles, clusters int, err error) {
	err = q.db.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM article_search WHERE published_at >= $1 AND published_at < $2),
		       (SELECT count(*) FROM cluster_listing WHERE published_at >= $1 AND published_at < $2)`, from, to).
		Scan(&articles, &clusters)
	return articles, clusters, interpretError(err, "count published")
}

// CountOwnCopies counts, by source, the duplicates published from from to
// to that link to an article of the same owner's (source_owner): the
// period's duplicates from the partial index by publication, each with the
// owner of its link from its own row (original_owner, migration 00048).
func (q queries) CountOwnCopies(ctx context.Context, from, to time.Time) (map[string]int, error) {
	rows, err := q.db.Query(ctx, `
		SELECT d.source, count(*)
		FROM articles d
		WHERE d.status <> 'unique' AND d.published_at >= $1 AND d.published_at < $2
		  AND source_owner(d.source) = d.original_owner
		GROUP BY d.source`, from, to)
	if err != nil {
		return nil, interpretError(err, "count own copies")
	}
	out := map[string]int{}
	var (
		src string
		n   int
	)
	_, err = pgx.ForEachRow(rows, []any{&src, &n}, func() error {
		out[src] = n
		return nil
	})
	return out, interpretError(err, "count own copies")
}
