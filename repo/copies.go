package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

var _ service.CopyReader = queries{}

// copiesWhere is the copies a report asks for: duplicates published in the
// period (the partial index of duplicates by publication, migration
// 00021), each joined to the article it links to by its key, that article
// of one of the sources or owners. A copy of a copy counts for the copy it
// links to, as copy_credits says.
const copiesWhere = `
	FROM articles d
	JOIN articles o ON o.id = d.duplicate_of
	WHERE d.status <> 'unique' AND d.published_at >= $1 AND d.published_at < $2
	  AND (o.source = ANY($3::text[]) OR source_owner(o.source) = ANY($4::text[]))
	  AND ($5 = '' OR d.credit = $5)`

func copiesArgs(q service.CopiesQuery) []any {
	return []any{q.From, q.To, nonNil(q.Sources), nonNil(q.Owners), string(q.Credit)}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// EachCopy calls fn with each copy q asks for, latest published first, at
// most limit, as the rows arrive.
func (q queries) EachCopy(ctx context.Context, cq service.CopiesQuery, limit int, fn func(service.Copy) error) error {
	rows, err := q.db.Query(ctx, `
		SELECT d.id, d.source, source_owner(d.source), d.title, d.url, d.published_at, coalesce(d.credit, ''),
		       o.id, o.source, o.title, o.url, o.published_at, d.cluster_id,
		       source_owner(d.source) = source_owner(o.source)`+copiesWhere+`
		ORDER BY d.published_at DESC, d.id DESC
		LIMIT $6`, append(copiesArgs(cq), limit)...)
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
	rows, err := q.db.Query(ctx, `
		SELECT d.source, bool_or(source_owner(d.source) = source_owner(o.source)), count(*),
		       count(*) FILTER (WHERE d.credit = 'credited'),
		       count(*) FILTER (WHERE d.credit = 'credits_other'),
		       count(*) FILTER (WHERE d.credit = 'uncredited'),
		       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.published_at - o.published_at))`+copiesWhere+`
		GROUP BY d.source
		ORDER BY count(*) DESC, d.source`, copiesArgs(cq)...)
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
