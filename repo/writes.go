package repo

import (
	"cmp"
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

// Lock takes transaction-scoped advisory locks on keys, in the order given.
func (t *storeTx) Lock(ctx context.Context, keys []service.LockKey) error {
	ks := make([]int64, len(keys))
	for i, k := range keys {
		ks[i] = int64(k)
	}
	// unnest yields the keys in array order and the locks are taken row by row.
	_, err := t.db.Exec(ctx, `SELECT pg_advisory_xact_lock(k) FROM unnest($1::int8[]) AS k`, ks)
	return interpretError(err, "lock")
}

// TryLock takes a transaction-scoped advisory lock if it is free.
func (t *storeTx) TryLock(ctx context.Context, key service.LockKey) (bool, error) {
	var ok bool
	err := t.db.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, int64(key)).Scan(&ok)
	return ok, interpretError(err, "try lock")
}

// NextIDs reserves n article ids from the table's identity sequence.
func (t *storeTx) NextIDs(ctx context.Context, n int) ([]int64, error) {
	rows, err := t.db.Query(ctx, `SELECT nextval(pg_get_serial_sequence('articles', 'id')) FROM generate_series(1, $1)`, n)
	if err != nil {
		return nil, interpretError(err, "reserve article ids")
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	return ids, interpretError(err, "reserve article ids")
}

// InsertMany stores new articles whose ids NextIDs reserved, with one COPY
// for the articles (in their order: each gets its ingested_at as its row is
// written, so a later one may link to an earlier one) and one for their
// sentences. It sets each article's ClusterID.
func (t *storeTx) InsertMany(ctx context.Context, as []*service.Article, bodies []string) error {
	_, err := t.db.CopyFrom(ctx, pgx.Identifier{"articles"}, append([]string{"id"}, articleWriteColumns...),
		pgx.CopyFromSlice(len(as), func(i int) ([]any, error) {
			return append([]any{as[i].ID}, articleValues(as[i], bodies[i])...), nil
		}))
	if err != nil {
		return interpretError(err, "copy articles")
	}
	var rows [][]any
	for _, a := range as {
		a.ClusterID = cmp.Or(a.ClusterID, a.ID)
		for i := range a.Sentences {
			rows = append(rows, sentenceValues(a.ID, i, &a.Sentences[i]))
		}
	}
	if len(rows) == 0 {
		return nil
	}
	_, err = t.db.CopyFrom(ctx, pgx.Identifier{"sentences"}, sentenceColumns, pgx.CopyFromRows(rows))
	if err != nil {
		return interpretError(err, "copy sentences")
	}
	parts, err := t.sentencePartitions(ctx)
	if err != nil || parts == 0 {
		return err
	}
	return writeSentenceParts(ctx, t.db, rows, nil, false)
}

// Insert stores a new article and sets its ID, IngestedAt and ClusterID.
func (t *storeTx) Insert(ctx context.Context, a *service.Article, body string) error {
	err := t.db.QueryRow(ctx, insertArticleSQL, articleValues(a, body)...).Scan(&a.ID, &a.IngestedAt, &a.ClusterID)
	if err != nil {
		return interpretError(err, "insert article")
	}
	return t.writeSentences(ctx, a.ID, a.Sentences, false)
}

// Replace stores new content, fingerprint and verdict for article a.ID and
// sets its IngestedAt and ClusterID.
func (t *storeTx) Replace(ctx context.Context, a *service.Article, body string) error {
	args := append(articleValues(a, body), a.ID)
	err := t.db.QueryRow(ctx, replaceArticleSQL, args...).Scan(&a.IngestedAt, &a.ClusterID)
	if err != nil {
		return interpretError(err, "replace article")
	}
	return t.writeSentences(ctx, a.ID, a.Sentences, true)
}

// Correct stores new content, fingerprint, sentences and verdict for
// article a.ID, keeping the time it was ingested, and sets a.IngestedAt and
// a.ClusterID.
func (t *storeTx) Correct(ctx context.Context, a *service.Article, body string) error {
	args := append(articleValues(a, body), a.ID)
	if err := t.db.QueryRow(ctx, correctArticleSQL, args...).Scan(&a.IngestedAt, &a.ClusterID); err != nil {
		return interpretError(err, "correct article")
	}
	return t.writeSentences(ctx, a.ID, a.Sentences, true)
}

// Refingerprint stores article a.ID's new fingerprint, sentences and
// verdict, keeping the time it was ingested, and sets a.ClusterID.
func (t *storeTx) Refingerprint(ctx context.Context, a *service.Article, body string) error {
	args := append(articleValues(a, body), a.ID)
	if err := t.db.QueryRow(ctx, refingerprintSQL, args...).Scan(&a.ClusterID); err != nil {
		return interpretError(err, "refingerprint article")
	}
	return t.writeSentences(ctx, a.ID, a.Sentences, true)
}

// Relink sets a stored article's verdict and moves it, with every article
// whose links lead to it within its cluster, to cluster l.ClusterID (its
// own when 0 or its id), in one statement. An article that heads a cluster
// of its own though it links to one (service/rules_drift.go) stays where
// it is, with its cluster.
func (t *storeTx) Relink(ctx context.Context, l service.Link) error {
	tag, err := t.db.Exec(ctx, `
		WITH RECURSIVE subtree(id) AS (
			SELECT $1::bigint
			UNION
			SELECT a.id FROM articles a JOIN subtree s ON a.duplicate_of = s.id WHERE a.cluster_head IS NOT NULL
		)
		UPDATE articles AS a SET
			cluster_head = nullif(CASE WHEN $6::bigint = 0 THEN $1 ELSE $6 END, a.id),
			status       = CASE WHEN a.id = $1 THEN $2 ELSE a.status END,
			duplicate_of = CASE WHEN a.id = $1 THEN nullif($3::bigint, 0) ELSE a.duplicate_of END,
			distance     = CASE WHEN a.id = $1 THEN CASE WHEN $3 = 0 THEN NULL ELSE $4::smallint END ELSE a.distance END,
			word_ratio   = CASE WHEN a.id = $1 THEN CASE WHEN $3 = 0 THEN NULL ELSE $5::real END ELSE a.word_ratio END,
			overlap      = CASE WHEN a.id = $1 THEN CASE WHEN $3 = 0 THEN NULL ELSE $7::real END ELSE a.overlap END,
			coverage_this = CASE WHEN a.id = $1 THEN CASE WHEN $2 = 'partial_duplicate' THEN $8::real END ELSE a.coverage_this END,
			coverage_that = CASE WHEN a.id = $1 THEN CASE WHEN $2 = 'partial_duplicate' THEN $9::real END ELSE a.coverage_that END
		FROM subtree
		WHERE a.id = subtree.id`,
		l.ID, string(l.Status), l.DuplicateOf, int16(l.Distance), float32(l.WordRatio), l.ClusterID, float32(l.Overlap),
		float32(l.Coverage.This), float32(l.Coverage.That))
	if err == nil && tag.RowsAffected() == 0 {
		err = pgx.ErrNoRows
	}
	return interpretError(err, "relink article")
}

// RelinkMany sets the verdicts of stored articles and moves them to their
// clusters in two statements however many. The first writes each verdict
// with the head the caller knows (l.ClusterID), or for now, when it does
// not, the one stored or the article linked to, as the table's check wants
// one; it tells which moved to another cluster with articles linking to
// them (as they were: the statement reads the rows before it), found once
// for all rather than probed for each row, which a much-copied story's
// statistics planned as a table scan (docs/design-notes.md, "Relinking").
// The second, only when there are such or unknown heads, gives the others
// theirs, walking up from each to its head, and moves the articles whose
// links lead through one that moved, walking down its subtree.
func (t *storeTx) RelinkMany(ctx context.Context, ls []service.Link) error {
	if len(ls) == 0 {
		return nil
	}
	n := len(ls)
	ids, links, clusters := make([]int64, n), make([]int64, n), make([]int64, n)
	statuses := make([]string, n)
	distances := make([]int16, n)
	ratios, overlaps, this, that := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i, l := range ls {
		ids[i], links[i], clusters[i], statuses[i] = l.ID, l.DuplicateOf, l.ClusterID, string(l.Status)
		distances[i], ratios[i], overlaps[i] = int16(l.Distance), float32(l.WordRatio), float32(l.Overlap)
		this[i], that[i] = float32(l.Coverage.This), float32(l.Coverage.That)
	}
	rows, err := t.db.Query(ctx, `
		WITH parents AS (SELECT DISTINCT duplicate_of AS id FROM articles WHERE duplicate_of = ANY($1::int8[]))
		UPDATE articles AS a SET
			status        = n.status,
			duplicate_of  = nullif(n.link, 0),
			distance      = CASE WHEN n.link <> 0 THEN n.distance END,
			word_ratio    = CASE WHEN n.link <> 0 THEN n.word_ratio END,
			overlap       = CASE WHEN n.link <> 0 THEN n.overlap END,
			coverage_this = CASE WHEN n.status = 'partial_duplicate' THEN n.coverage_this END,
			coverage_that = CASE WHEN n.status = 'partial_duplicate' THEN n.coverage_that END,
			cluster_head  = CASE WHEN n.link = 0 THEN NULL
			                     WHEN n.cluster <> 0 THEN nullif(n.cluster, n.id)
			                     ELSE coalesce(o.cluster_head, n.link) END
		FROM unnest($1::int8[], $2::text[], $3::int8[], $4::int8[], $5::int2[], $6::real[], $7::real[], $8::real[], $9::real[])
		     AS n(id, status, link, cluster, distance, word_ratio, overlap, coverage_this, coverage_that)
		JOIN articles o ON o.id = n.id
		WHERE a.id = n.id
		RETURNING a.id, a.cluster_id, n.link <> 0 AND n.cluster = 0,
		          o.cluster_id <> a.cluster_id AND a.id IN (SELECT id FROM parents)`,
		ids, statuses, links, clusters, distances, ratios, overlaps, this, that)
	if err != nil {
		return interpretError(err, "relink articles")
	}
	var (
		id, cluster     int64
		unknown, moved  bool // moved: to another cluster, with articles linking to it
		found           int
		walkUp          []int64
		movers, movedTo []int64
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &cluster, &unknown, &moved}, func() error {
		found++
		switch {
		case unknown:
			walkUp = append(walkUp, id)
		case moved:
			movers, movedTo = append(movers, id), append(movedTo, cluster)
		}
		return nil
	})
	if err == nil && found < n {
		err = pgx.ErrNoRows
	}
	if err != nil || len(walkUp)+len(movers) == 0 {
		return interpretError(err, "relink articles")
	}
	_, err = t.db.Exec(ctx, `
		WITH RECURSIVE up(id, at) AS (
			SELECT id, id FROM unnest($1::int8[]) AS id
			UNION ALL
			SELECT up.id, a.duplicate_of FROM up JOIN articles a ON a.id = up.at WHERE a.cluster_head IS NOT NULL
		), moved(id, head) AS (
			SELECT up.id, up.at FROM up JOIN articles h ON h.id = up.at WHERE h.cluster_head IS NULL
			UNION ALL
			SELECT * FROM unnest($2::int8[], $3::int8[])
		), down(id, head) AS (
			SELECT id, head FROM moved
			UNION
			SELECT a.id, down.head FROM down JOIN articles a ON a.duplicate_of = down.id WHERE a.cluster_head IS NOT NULL
		)
		UPDATE articles AS a SET cluster_head = nullif(d.head, a.id)
		FROM (SELECT DISTINCT id, head FROM down) d
		WHERE a.id = d.id AND a.cluster_head IS DISTINCT FROM nullif(d.head, a.id)`, walkUp, movers, movedTo)
	return interpretError(err, "move relinked articles")
}

// Delete removes an article; KindNotFound if it is gone.
func (t *storeTx) Delete(ctx context.Context, id int64) error {
	tag, err := t.db.Exec(ctx, `DELETE FROM articles WHERE id = $1`, id)
	if err == nil && tag.RowsAffected() == 0 {
		err = pgx.ErrNoRows
	}
	return interpretError(err, "delete article")
}
