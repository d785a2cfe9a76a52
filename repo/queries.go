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
	// planEachRun, in a transaction of InTx (one that may write), is how
	// its searches of the articles table are sent to be planned for its
	// values on every run (planEachRunMode); zero elsewhere.
	planEachRun pgx.QueryExecMode
	// parts is the Store's count of sentence partitions
	// (sentence_partitions.go), shared by its transactions; nil reads none.
	parts *partitioning
}

// writerArgs are args, sent to be planned at every run in a writer's
// transaction (planEachRun), as they are elsewhere.
func (q queries) writerArgs(args ...any) []any {
	if q.planEachRun != 0 {
		return append([]any{q.planEachRun}, args...)
	}
	return args
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

func collectArticles(rows pgx.Rows, err error, doing string) ([]service.Article, error) {
	if err != nil {
		return nil, interpretError(err, doing)
	}
	as, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.Article, error) {
		return scanArticle(row)
	})
	return as, interpretError(err, doing)
}

// exactMatchesSQL finds, for each content hash ($1, one element a query),
// the stored articles with that text, earliest ingested first.
const exactMatchesSQL = `
	SELECT q.i, c.*
	FROM unnest($1::bytea[]) WITH ORDINALITY AS q(content_hash, i)` +
	exactMatchesOf

// exactMatchSQL is exactMatchesSQL for one content hash, as a check or a
// single ingest asks, its value a scalar, for the reason nearCandidateSQL
// gives: PostgreSQL plans exactMatchesSQL at every run, and keeps this
// one's generic plan after five runs (TestOneArticleSearchesGetAGenericPlan;
// measured: docs/design-notes.md). Unlike its other reads of the articles
// table, a writer sends it prepared too: its generic plan reads the
// content-hash index even when made for an empty table
// (TestYoungTableKeepsUsingTheIndex).
const exactMatchSQL = `
	SELECT q.i, c.*
	FROM (VALUES ($1::bytea, 1::bigint)) AS q(content_hash, i)` +
	exactMatchesOf

// exactMatchesOf finds the stored copies of query q, whose shared values
// are $2–$5.
const exactMatchesOf = `
	CROSS JOIN LATERAL (
	    SELECT ` + candidateColumns + `
	    FROM articles a
	    WHERE a.content_hash = q.content_hash
	      AND a.fingerprint_version = $2
	      AND a.id <> $3
	      AND (a.ingested_at < $4 OR $4 IS NULL)
	    ORDER BY a.ingested_at, a.id
	    LIMIT $5
	) c`

// ExactMatches returns, for each query, the articles whose normalised text
// has its content hash, earliest ingested first. The queries share their
// version, excluded article and bound (the first query's).
func (q queries) ExactMatches(ctx context.Context, eqs []service.ExactQuery) ([][]service.Candidate, error) {
	if len(eqs) == 0 {
		return nil, nil
	}
	sql, args := exactMatchesSQL, exactMatchesArgs(eqs)
	if len(eqs) == 1 {
		sql, args = exactMatchSQL, exactMatchArgs(eqs[0])
	}
	rows, err := q.db.Query(ctx, sql, args...)
	return collectPerQuery(rows, err, len(eqs), "find exact matches")
}

// exactMatchArgs returns the arguments of exactMatchSQL.
func exactMatchArgs(eq service.ExactQuery) []any {
	return []any{eq.ContentHash[:], eq.Version, eq.ExcludeID, timeArg(eq.Before), limitArg(eq.Limit)}
}

// exactMatchesArgs returns the arguments of exactMatchesSQL: the queries'
// content hashes, then what they share.
func exactMatchesArgs(eqs []service.ExactQuery) []any {
	hashes := make([][]byte, len(eqs))
	for i := range eqs {
		hashes[i] = eqs[i].ContentHash[:]
	}
	args := exactMatchArgs(eqs[0])
	args[0] = hashes
	return args
}

// nearCandidatesSQL is the candidate query (see the package comment), for
// several fingerprints at once, one element of each array $1–$13 a query: a
// match in at least one block of family A and at least one of family B,
// which the planner answers with a BitmapAnd of two BitmapOrs over the eight
// block indexes, then the Hamming distance verified on the few rows that
// remain. The plan test runs it through export_test.go; the benchmarks see
// it through Options.Tracer, as the service runs it.
const nearCandidatesSQL = `
	SELECT q.i, c.*
	FROM unnest($1::int2[], $2::int2[], $3::int2[], $4::int2[], $5::int2[], $6::int2[], $7::int2[], $8::int2[],
	            $9::int8[], $10::int4[], $11::timestamptz[], $12::timestamptz[], $13::int4[])
	     WITH ORDINALITY AS q(a0, a1, a2, a3, b0, b1, b2, b3, simhash, max_distance, published_from, published_to, lim, i)` +
	nearCandidatesOf

// nearCandidateSQL is nearCandidatesSQL for one fingerprint, as a check
// asks, its values scalars rather than arrays. PostgreSQL cannot price the
// arrays' unnest without their values, so it planned nearCandidatesSQL at
// every check, where this one gets its generic plan (the block indexes',
// TestLargeTable) after five runs (measured: docs/design-notes.md). A
// single ingest's writer sends it planned at each run (planEachRunMode),
// as it does the statement for several.
const nearCandidateSQL = `
	SELECT q.i, c.*
	FROM (VALUES ($1::int2, $2::int2, $3::int2, $4::int2, $5::int2, $6::int2, $7::int2, $8::int2,
	              $9::int8, $10::int4, $11::timestamptz, $12::timestamptz, $13::int4, 1::bigint))
	     AS q(a0, a1, a2, a3, b0, b1, b2, b3, simhash, max_distance, published_from, published_to, lim, i)` +
	nearCandidatesOf

// nearCandidatesOf finds the candidates of query q, whose shared values are
// $14–$16.
const nearCandidatesOf = `
	CROSS JOIN LATERAL (
	    SELECT ` + candidateColumns + `
	    FROM articles a
	    WHERE (a.a0 = q.a0 OR a.a1 = q.a1 OR a.a2 = q.a2 OR a.a3 = q.a3)
	      AND (a.b0 = q.b0 OR a.b1 = q.b1 OR a.b2 = q.b2 OR a.b3 = q.b3)
	      AND a.fingerprint_version = $14
	      AND bit_count((a.simhash # q.simhash)::bit(64)) <= q.max_distance
	      AND a.published_at BETWEEN q.published_from AND q.published_to
	      AND a.id <> $15
	      AND (a.ingested_at < $16 OR $16 IS NULL)
	    ORDER BY bit_count((a.simhash # q.simhash)::bit(64)), a.id
	    LIMIT q.lim
	) c`

// NearCandidates returns, for each query, the articles within its
// MaxDistance bits of its Simhash, closest first, through the block
// indexes. The queries share their version, excluded article and bound
// (the first query's).
func (q queries) NearCandidates(ctx context.Context, nqs []service.NearQuery) ([][]service.Candidate, error) {
	if len(nqs) == 0 {
		return nil, nil
	}
	sql, args := nearCandidatesSQL, nearCandidatesArgs(nqs)
	if len(nqs) == 1 {
		sql, args = nearCandidateSQL, nearCandidateArgs(nqs[0])
	}
	rows, err := q.db.Query(ctx, sql, q.writerArgs(args...)...)
	return collectPerQuery(rows, err, len(nqs), "find near candidates")
}

// CopiesAndCandidates sends the search for eq's copies and the search for
// nq's near candidates in one round trip (one pgx batch) rather than two:
// for a check, whose fingerprinting and statements share the cores, each
// round trip costs CPU time on both sides as well as the wait (measured:
// docs/design-notes.md). In a writer's transaction the candidate search
// must be planned for its values (planEachRun), which a batch cannot ask
// for, so there the two are sent one after the other.
func (q queries) CopiesAndCandidates(ctx context.Context, eq service.ExactQuery, nq service.NearQuery) ([]service.Candidate, []service.Candidate, error) {
	if q.planEachRun != 0 {
		exact, err := q.ExactMatches(ctx, []service.ExactQuery{eq})
		if err != nil {
			return nil, nil, err
		}
		near, err := q.NearCandidates(ctx, []service.NearQuery{nq})
		if err != nil {
			return nil, nil, err
		}
		return exact[0], near[0], nil
	}
	b := &pgx.Batch{}
	b.Queue(exactMatchSQL, exactMatchArgs(eq)...)
	b.Queue(nearCandidateSQL, nearCandidateArgs(nq)...)
	results := q.db.SendBatch(ctx, b)
	rows, err := results.Query()
	exact, err := collectPerQuery(rows, err, 1, "find exact matches")
	if err != nil {
		_ = results.Close()
		return nil, nil, err
	}
	rows, err = results.Query()
	near, err := collectPerQuery(rows, err, 1, "find near candidates")
	if cerr := results.Close(); err == nil && cerr != nil {
		err = interpretError(cerr, "find copies and near candidates")
	}
	if err != nil {
		return nil, nil, err
	}
	return exact[0], near[0], nil
}

// nearCandidateArgs returns the arguments of nearCandidateSQL.
func nearCandidateArgs(nq service.NearQuery) []any {
	var limit *int32
	if nq.Limit > 0 {
		l := int32(nq.Limit)
		limit = &l
	}
	return append(blockArgs(nq.Simhash), int64(nq.Simhash), int32(nq.MaxDistance), lowerBound(nq.From), upperBound(nq.To), limit,
		nq.Version, nq.ExcludeID, timeArg(nq.Before))
}

// nearCandidatesArgs returns the arguments of nearCandidatesSQL: the
// queries as columns, then what they share.
func nearCandidatesArgs(nqs []service.NearQuery) []any {
	n := len(nqs)
	blocks := make([][]int16, 8)
	for j := range blocks {
		blocks[j] = make([]int16, n)
	}
	simhashes, distances, limits := make([]int64, n), make([]int32, n), make([]*int32, n)
	from, to := make([]pgtype.Timestamptz, n), make([]pgtype.Timestamptz, n)
	for i, nq := range nqs {
		for j, v := range blockArgs(nq.Simhash) {
			blocks[j][i] = v.(int16)
		}
		simhashes[i], distances[i] = int64(nq.Simhash), int32(nq.MaxDistance)
		from[i], to[i] = lowerBound(nq.From), upperBound(nq.To)
		if nq.Limit > 0 {
			l := int32(nq.Limit)
			limits[i] = &l
		}
	}
	args := make([]any, 0, 16)
	for _, b := range blocks {
		args = append(args, b)
	}
	first := nqs[0]
	return append(args, simhashes, distances, from, to, limits, first.Version, first.ExcludeID, timeArg(first.Before))
}

// collectPerQuery reads rows of (query number from 1, candidate columns)
// into one list per query.
func collectPerQuery(rows pgx.Rows, err error, queries int, doing string) ([][]service.Candidate, error) {
	if err != nil {
		return nil, interpretError(err, doing)
	}
	out := make([][]service.Candidate, queries)
	_, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct{}, error) {
		var i int64
		c, err := scanCandidate(row, &i)
		if err == nil && i >= 1 && int(i) <= queries {
			out[i-1] = append(out[i-1], c)
		}
		return struct{}{}, err
	})
	return out, interpretError(err, doing)
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

// timeArg turns "no bound" (the zero time) into NULL, for a condition
// written "(t < $n OR $n IS NULL)": unlike a comparison with infinity,
// which the planner may answer with an index on t (reading every row of
// it), that is no condition at all when there is no bound.
func timeArg(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
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
		WHERE CASE WHEN $1 THEN fingerprint_version = $2 AND status = 'unique' AND ingested_at < $3
		           ELSE fingerprint_version <> $2 END
		  AND (ingested_at, id) > ($4, $5)
		ORDER BY ingested_at, id
		LIMIT $6`,
		uq.Unique, uq.Version, upperBound(uq.Before), lowerBound(uq.After.IngestedAt), uq.After.ID, limitArg(uq.Limit))
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

// ArticlesByKeys returns the stored articles with these keys.
func (q queries) ArticlesByKeys(ctx context.Context, keys []service.ArticleKey) ([]service.Article, error) {
	sources, ids := make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		sources[i], ids[i] = k.Source, k.ExternalID
	}
	rows, err := q.db.Query(ctx, `
		SELECT `+articleColumns+`
		FROM articles
		WHERE (source, external_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, q.writerArgs(sources, ids)...)
	return collectArticles(rows, err, "find articles by key")
}
