package repo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

var _ service.CopyReader = queries{}

// copiesWhere is the copies a report asks for, and its arguments from $1:
// duplicates published in the period whose original (the article each
// links to by its key) is of one of the sources or owners, read by
// original_source or original_owner on the copy's own row (migration
// 00048) through their indexes by publication (00049). Only the lists the
// query names are in the statement, so that each is a plain index
// condition. A copy of a copy counts for the copy it links to, as
// copy_credits says.
func copiesWhere(cq service.CopiesQuery) (string, []any) {
	args := []any{cq.From, cq.To, string(cq.Credit)}
	var by []string
	if len(cq.Sources) > 0 {
		args = append(args, cq.Sources)
		by = append(by, fmt.Sprintf("d.original_source = ANY($%d::text[])", len(args)))
	}
	if len(cq.Owners) > 0 {
		args = append(args, cq.Owners)
		by = append(by, fmt.Sprintf("d.original_owner = ANY($%d::text[])", len(args)))
	}
	if len(by) == 0 {
		by = append(by, "false")
	}
	return `
	FROM articles d
	JOIN articles o ON o.id = d.duplicate_of
	WHERE d.status <> 'unique' AND d.published_at >= $1 AND d.published_at < $2
	  AND (` + strings.Join(by, " OR ") + `)
	  AND ($3 = '' OR d.credit = $3)`, args
}

// EachCopy calls fn with each copy q asks for, latest published first, at
// most limit, as the rows arrive.
func (q queries) EachCopy(ctx context.Context, cq service.CopiesQuery, limit int, fn func(service.Copy) error) error {
	where, args := copiesWhere(cq)
	rows, err := q.db.Query(ctx, `
		SELECT d.id, d.source, source_owner(d.source), d.title, d.url, d.published_at, coalesce(d.credit, ''),
		       o.id, o.source, o.title, o.url, o.published_at, d.cluster_id,
		       source_owner(d.source) = d.original_owner`+where+`
		ORDER BY d.published_at DESC, d.id DESC
		LIMIT `+fmt.Sprintf("$%d", len(args)+1), append(args, limit)...)
	if err != nil {
		return interpretError(err, "read copies")
	}
	var (
		c      service.Copy
		credit string
	)
	_, err = pgx.ForEachRow(rows, []any{&c.CopyID, &c.CopySource, &c.CopyOwner, &c.CopyTitle, &c.CopyURL,
		&c.CopyPublishedAt, &credit, &c.OriginalID, &c.OriginalSource, &c.OriginalTitle, &c.OriginalURL,
		&c.OriginalPublishedAt, &c.ClusterID, &c.SameOwner}, func() error {
		c.Credit = service.Credit(credit)
		return fn(c)
	})
	return interpretError(err, "read copies")
}

// CountCopies counts the copies q asks for by copying source and credit,
// with the median delay after the original.
func (q queries) CountCopies(ctx context.Context, cq service.CopiesQuery) ([]service.CopyCount, error) {
	where, args := copiesWhere(cq)
	rows, err := q.db.Query(ctx, `
		SELECT d.source, bool_or(source_owner(d.source) = d.original_owner), count(*),
		       count(*) FILTER (WHERE d.credit = 'credited'),
		       count(*) FILTER (WHERE d.credit = 'credits_other'),
		       count(*) FILTER (WHERE d.credit = 'uncredited'),
		       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.published_at - o.published_at))`+where+`
		GROUP BY d.source
		ORDER BY count(*) DESC, d.source`, args...)
	if err != nil {
		return nil, interpretError(err, "count copies")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (service.CopyCount, error) {
		var (
			c      service.CopyCount
			median float64
		)
		err := r.Scan(&c.Source, &c.SameOwner, &c.Copies, &c.Credited, &c.CreditsOther, &c.Uncredited, &median)
		c.MedianDelay = time.Duration(median * float64(time.Second)).Round(time.Second)
		return c, err
	})
	return out, interpretError(err, "count copies")
}
