package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// queries are the reads, over a pool or inside a transaction.
type queries struct {
	db querier
}

// Article returns the article with this id, or KindNotFound.
func (q queries) Article(ctx context.Context, id int64) (service.Article, error) {
	a, err := scanArticle(q.db.QueryRow(ctx, `SELECT `+articleColumns+` FROM articles WHERE id = $1`, id))
	return a, interpretError(err, "find article")
}

// ArticleByKey returns the article stored under source and externalID, or
// KindNotFound.
func (q queries) ArticleByKey(ctx context.Context, source, externalID string) (service.Article, error) {
	a, err := scanArticle(q.db.QueryRow(ctx,
		`SELECT `+articleColumns+` FROM articles WHERE source = $1 AND external_id = $2`, source, externalID))
	return a, interpretError(err, "find article by key")
}

// ClusterMembers returns the articles of a cluster, its head
// included, earliest ingested first; at most limit of them, 0 for all.
func (q queries) ClusterMembers(ctx context.Context, clusterID int64, limit int) ([]service.Article, error) {
	rows, err := q.db.Query(ctx, `
		SELECT `+articleColumns+`
		FROM articles
		WHERE cluster_id = $1
		ORDER BY ingested_at, id
		LIMIT $2`, clusterID, limitArg(limit))
	return collectArticles(rows, err, "list cluster")
}

// Dependants returns the articles that link to article id, earliest
// ingested first.
func (q queries) Dependants(ctx context.Context, id int64) ([]service.Article, error) {
	rows, err := q.db.Query(ctx, `
		SELECT `+articleColumns+`
		FROM articles
		WHERE duplicate_of = $1
		ORDER BY ingested_at, id`, id)
	return collectArticles(rows, err, "list dependants")
}

func collectArticles(rows pgx.Rows, err error, doing string) ([]service.Article, error) {
	if err != nil {
		return nil, interpretError(err, doing)
	}
	as, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.Article, error) {
		return scanArticle(row)
	})
	return as, interpretError(err, doing)
}

// ExactMatches returns the articles whose normalised text has q's content
// hash, earliest ingested first.
func (q queries) ExactMatches(ctx context.Context, eq service.ExactQuery) ([]service.Candidate, error) {
	rows, err := q.db.Query(ctx, `
		SELECT `+candidateColumns+`
		FROM articles
		WHERE content_hash = $1
		  AND fingerprint_version = $2
		  AND id <> $3
		  AND ingested_at < $4
		ORDER BY ingested_at, id
		LIMIT $5`,
		eq.ContentHash[:], eq.Version, eq.ExcludeID, upperBound(eq.Before), limitArg(eq.Limit))
	return collectCandidates(rows, err, "find exact matches")
}

// nearCandidatesSQL is the candidate query (see the package comment): a
// match in at least one block of family A and at least one of family B,
// which the planner answers with a BitmapAnd of two BitmapOrs over the eight
// block indexes, then the Hamming distance verified on the few rows that
// remain. The plan test runs it through export_test.go; the benchmarks see
// it through Options.Tracer, as the service runs it.
const nearCandidatesSQL = `
	SELECT ` + candidateColumns + `
	FROM articles
	WHERE (a0 = $1 OR a1 = $2 OR a2 = $3 OR a3 = $4)
	  AND (b0 = $5 OR b1 = $6 OR b2 = $7 OR b3 = $8)
	  AND fingerprint_version = $9
	  AND bit_count((simhash # $10)::bit(64)) <= $11
	  AND published_at BETWEEN $12 AND $13
	  AND id <> $14
	  AND ingested_at < $15
	ORDER BY bit_count((simhash # $10)::bit(64)), id
	LIMIT $16`

// NearCandidates returns the articles within q.MaxDistance bits of
// q.Simhash, closest first, through the block indexes.
func (q queries) NearCandidates(ctx context.Context, nq service.NearQuery) ([]service.Candidate, error) {
	rows, err := q.db.Query(ctx, nearCandidatesSQL, nearCandidatesArgs(nq)...)
	return collectCandidates(rows, err, "find near candidates")
}

// nearCandidatesArgs returns the arguments of nearCandidatesSQL, $1 to
// $16, for a query: the eight block values first.
func nearCandidatesArgs(nq service.NearQuery) []any {
	return append(blockArgs(nq.Simhash),
		nq.Version, int64(nq.Simhash), nq.MaxDistance,
		lowerBound(nq.From), upperBound(nq.To),
		nq.ExcludeID, upperBound(nq.Before), limitArg(nq.Limit))
}

func collectCandidates(rows pgx.Rows, err error, doing string) ([]service.Candidate, error) {
	if err != nil {
		return nil, interpretError(err, doing)
	}
	cs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.Candidate, error) {
		return scanCandidate(row)
	})
	return cs, interpretError(err, doing)
}

// lowerBound and upperBound turn "no bound" (the zero time) into infinities,
// so one statement serves bounded and unbounded queries.
func lowerBound(t time.Time) pgtype.Timestamptz {
	if t.IsZero() {
		return pgtype.Timestamptz{InfinityModifier: pgtype.NegativeInfinity, Valid: true}
	}
	return pgtype.Timestamptz{Time: t, Valid: true}
}

func upperBound(t time.Time) pgtype.Timestamptz {
	if t.IsZero() {
		return pgtype.Timestamptz{InfinityModifier: pgtype.Infinity, Valid: true}
	}
	return pgtype.Timestamptz{Time: t, Valid: true}
}

// limitArg turns "no limit" (0) into SQL's LIMIT NULL.
func limitArg(n int) *int {
	if n <= 0 {
		return nil
	}
	return &n
}

// Body returns the body of article id as it was sent.
func (q queries) Body(ctx context.Context, id int64) (string, error) {
	var body string
	err := q.db.QueryRow(ctx, `SELECT body FROM articles WHERE id = $1`, id).Scan(&body)
	return body, interpretError(err, "read body")
}

// Upgrade lists the articles an upgrade works through, earliest ingested
// first.
func (q queries) Upgrade(ctx context.Context, uq service.UpgradeQuery) ([]service.ArticlePosition, error) {
	rows, err := q.db.Query(ctx, `
		SELECT id, ingested_at FROM articles
		WHERE CASE WHEN $1 THEN fingerprint_version = $2 AND status = 'unique' AND ingested_at > $3
		           ELSE fingerprint_version <> $2 END
		  AND (ingested_at, id) > ($4, $5)
		ORDER BY ingested_at, id
		LIMIT $6`,
		uq.Unique, uq.Version, lowerBound(uq.Since), lowerBound(uq.After.IngestedAt), uq.After.ID, limitArg(uq.Limit))
	if err != nil {
		return nil, interpretError(err, "list articles to upgrade")
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[service.ArticlePosition])
	return out, interpretError(err, "list articles to upgrade")
}

// CountOutdated returns how many articles have a fingerprint version other
// than v.
func (q queries) CountOutdated(ctx context.Context, v fingerprint.Version) (int64, error) {
	var n int64
	err := q.db.QueryRow(ctx, `SELECT count(*) FROM articles WHERE fingerprint_version <> $1`, v).Scan(&n)
	return n, interpretError(err, "count outdated articles")
}
