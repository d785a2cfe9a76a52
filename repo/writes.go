package repo

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

// Lock takes transaction-scoped advisory locks on keys, in the order given.
func (t *storeTx) Lock(ctx context.Context, keys []service.LockKey) error {
	spaces := make([]int32, len(keys))
	values := make([]int32, len(keys))
	for i, k := range keys {
		spaces[i], values[i] = k.Space, k.Value
	}
	// unnest yields the keys in array order and the locks are taken row by row.
	_, err := t.db.Exec(ctx, `
		SELECT pg_advisory_xact_lock(k.space, k.value)
		FROM unnest($1::int4[], $2::int4[]) AS k(space, value)`, spaces, values)
	return interpretError(err, "lock")
}

// TryLock takes a transaction-scoped advisory lock if it is free.
func (t *storeTx) TryLock(ctx context.Context, key service.LockKey) (bool, error) {
	var ok bool
	err := t.db.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1, $2)`, key.Space, key.Value).Scan(&ok)
	return ok, interpretError(err, "try lock")
}

// Insert stores a new article and sets its ID, IngestedAt and ClusterID.
func (t *storeTx) Insert(ctx context.Context, a *service.Article, body string) error {
	args := append([]any{
		a.Source, a.ExternalID, a.Title, a.URL, body, string(a.ContentType), a.PublishedAt,
		a.ContentHash[:], int64(a.Simhash), a.FingerprintVersion, storedWords(a.Words),
		string(a.Status), nullID(a.DuplicateOf), distanceArg(a), ratioArg(a),
	}, blockArgs(a.Simhash)...)
	err := t.db.QueryRow(ctx, `
		INSERT INTO articles (
			source, external_id, title, url, body, content_type, published_at,
			content_hash, simhash, fingerprint_version, words,
			status, duplicate_of, distance, word_ratio,
			a0, a1, a2, a3, b0, b1, b2, b3)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
			$16, $17, $18, $19, $20, $21, $22, $23)
		RETURNING id, ingested_at, cluster_id`, args...).Scan(&a.ID, &a.IngestedAt, &a.ClusterID)
	return interpretError(err, "insert article")
}

// Replace stores new content, fingerprint and verdict for article a.ID and
// sets its IngestedAt and ClusterID.
func (t *storeTx) Replace(ctx context.Context, a *service.Article, body string) error {
	args := append([]any{
		a.ID, a.Title, a.URL, body, string(a.ContentType), a.PublishedAt,
		a.ContentHash[:], int64(a.Simhash), a.FingerprintVersion, storedWords(a.Words),
		string(a.Status), nullID(a.DuplicateOf), distanceArg(a), ratioArg(a),
	}, blockArgs(a.Simhash)...)
	err := t.db.QueryRow(ctx, `
		UPDATE articles SET
			title = $2, url = $3, body = $4, content_type = $5, published_at = $6,
			ingested_at = clock_timestamp(),
			content_hash = $7, simhash = $8, fingerprint_version = $9, words = $10,
			status = $11, duplicate_of = $12, distance = $13, word_ratio = $14,
			a0 = $15, a1 = $16, a2 = $17, a3 = $18, b0 = $19, b1 = $20, b2 = $21, b3 = $22
		WHERE id = $1
		RETURNING ingested_at, cluster_id`, args...).Scan(&a.IngestedAt, &a.ClusterID)
	return interpretError(err, "replace article")
}

// Relink sets the verdict of stored articles in one statement.
func (t *storeTx) Relink(ctx context.Context, links []service.Link) error {
	var (
		ids, canonical []int64
		statuses       []string
		distances      []int16
		ratios         []float32
	)
	for _, l := range links {
		ids = append(ids, l.ID)
		statuses = append(statuses, string(l.Status))
		canonical = append(canonical, l.DuplicateOf)
		distances = append(distances, int16(l.Distance))
		ratios = append(ratios, float32(l.WordRatio))
	}
	_, err := t.db.Exec(ctx, `
		UPDATE articles AS a SET
			status = l.status,
			duplicate_of = nullif(l.duplicate_of, 0),
			distance = CASE WHEN l.duplicate_of = 0 THEN NULL ELSE l.distance END,
			word_ratio = CASE WHEN l.duplicate_of = 0 THEN NULL ELSE l.word_ratio END
		FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::smallint[], $5::real[])
			AS l(id, status, duplicate_of, distance, word_ratio)
		WHERE a.id = l.id`, ids, statuses, canonical, distances, ratios)
	return interpretError(err, "relink cluster")
}

// Delete removes an article; KindNotFound if it is gone.
func (t *storeTx) Delete(ctx context.Context, id int64) error {
	tag, err := t.db.Exec(ctx, `DELETE FROM articles WHERE id = $1`, id)
	if err == nil && tag.RowsAffected() == 0 {
		err = pgx.ErrNoRows
	}
	return interpretError(err, "delete article")
}

func nullID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

func distanceArg(a *service.Article) *int16 {
	if a.DuplicateOf == 0 {
		return nil
	}
	d := int16(a.Distance)
	return &d
}

func ratioArg(a *service.Article) *float32 {
	if a.DuplicateOf == 0 {
		return nil
	}
	r := float32(a.WordRatio)
	return &r
}
