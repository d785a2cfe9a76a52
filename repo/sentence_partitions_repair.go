package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// The repair of a rolled-back correction's rows on the partitions.
//
// A correction (or replacement, or re-fingerprint) replaces an article's
// sentences on its partition in a write that commits on its own: if the
// primary's transaction then rolls back, the article keeps its old content
// while its partition holds the new content's sentences, which a lookup
// would return for it (the merge keeps rows of articles that exist, and it
// exists). The sweep (SweepPartitionSentences) only deletes rows of
// articles that do not exist; this compares, for the rows written in the
// last window that have settled, each article's rows (count and a sum of
// position-weighted text hashes) with the primary's table sentences, which
// holds what committed (an article a correction left with no sentence is
// marked on its partition, so it is compared too), and writes the
// primary's rows again to the
// partition of every article that differs, its row locked against a
// correction meanwhile. Until it runs (dedupd serve: every 10 minutes) such
// an article's partition rows are wrong; docs/operations.md says so.

// RepairPartitionSentences writes again, from the primary's table, the
// partition rows of articles whose rows written between window and settled
// ago differ from the primary's, and returns how many articles it
// repaired. Without partitions it does nothing.
func (s *Store) RepairPartitionSentences(ctx context.Context, window, settled time.Duration) (int, error) {
	n, err := s.sentencePartitions(ctx)
	if err != nil || n == 0 {
		return 0, err
	}
	rows, err := s.pool.Query(ctx, `
		WITH p AS (
		    SELECT w.article_id, count(w.pos) AS n, coalesce(sum(w.text_hash::numeric * (w.pos + 1)), 0) AS h
		    FROM sentence_proxy.written_between($1, $2) w
		    GROUP BY w.article_id
		)
		SELECT p.article_id
		FROM p
		CROSS JOIN LATERAL (
		    SELECT count(*) AS n, coalesce(sum(x.text_hash::numeric * (x.position + 1)), 0) AS h
		    FROM sentences x WHERE x.article_id = p.article_id
		) t
		WHERE EXISTS (SELECT 1 FROM articles a WHERE a.id = p.article_id)
		  AND (p.n, p.h) IS DISTINCT FROM (t.n, t.h)`, window, settled)
	if err != nil {
		return 0, interpretError(err, "compare partition sentences")
	}
	differ, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || len(differ) == 0 {
		return 0, interpretError(err, "compare partition sentences")
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		locked, err := tx.Query(ctx, `SELECT id FROM articles WHERE id = ANY ($1) ORDER BY id FOR UPDATE`, differ)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(locked, pgx.RowTo[int64])
		if err != nil {
			return err
		}
		sent, err := tx.Query(ctx, `SELECT `+sentenceColumnList+` FROM sentences WHERE article_id = ANY ($1) ORDER BY article_id, position`, ids)
		if err != nil {
			return err
		}
		values, err := pgx.CollectRows(sent, func(r pgx.CollectableRow) ([]any, error) { return r.Values() })
		if err != nil {
			return err
		}
		has := make(map[int64]bool)
		for _, v := range values {
			has[v[0].(int64)] = true
		}
		var forget []int64
		for _, id := range ids {
			if !has[id] {
				forget = append(forget, id)
			}
		}
		return writeSentenceParts(ctx, tx, values, forget, true)
	})
	if err != nil {
		return 0, interpretError(err, "repair partition sentences")
	}
	return len(differ), nil
}
