package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// The sweep of the partitions' rows of articles that do not exist: rows an
// ingest wrote before its transaction rolled back (a partition write
// commits on its own), and rows of articles deleted since. Lookups already
// leave them out (sentenceSearchFromParts); the sweep frees their space.
//
// The full pass reads every article id on every partition, which grows
// with the index; dedupd serve runs the incremental one every few minutes
// instead (SweepRecentPartitionSentences): the rows written since its last
// pass (the partitions' BRIN index on written_at finds them), and the
// articles whose deletes committed since (recorded by a trigger on
// articles, migration 00052). A row older than the last pass whose article
// is gone without a recorded delete (one deleted before the migration, or
// while there were no partitions) is left for the full pass; a TRUNCATE of
// articles makes the next pass a full one.

// sweepStep is how many article ids one call of the sweep looks at.
const sweepStep = 100_000

// SweepPartitionSentences deletes from the partitions the sentences of
// articles that do not exist, written more than settled ago (longer than
// any transaction lasts: an ingest still open must not lose its rows), and
// returns how many went: the full pass, which reads every id of every
// partition (dedupd partitions sweep). Without partitions it does nothing.
func (s *Store) SweepPartitionSentences(ctx context.Context, settled time.Duration) (int, error) {
	n, err := s.sentencePartitions(ctx)
	if err != nil || n == 0 {
		return 0, err
	}
	var last int64
	err = s.pool.QueryRow(ctx, `SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('articles', 'id')::regclass), 0)`).Scan(&last)
	if err != nil {
		return 0, interpretError(err, "sweep partition sentences")
	}
	swept := 0
	for lo := int64(0); lo <= last; lo += sweepStep {
		rows, err := s.pool.Query(ctx, `
			SELECT g.id FROM sentence_proxy.article_ids($1, $2, $3) AS g(id)
			WHERE NOT EXISTS (SELECT 1 FROM articles a WHERE a.id = g.id)`, lo, lo+sweepStep, settled)
		if err != nil {
			return swept, interpretError(err, "sweep partition sentences")
		}
		gone, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return swept, interpretError(err, "sweep partition sentences")
		}
		k, err := s.forgetOnPartitions(ctx, gone)
		swept += k
		if err != nil {
			return swept, err
		}
	}
	return swept, nil
}

// sweepMargin widens the window of the rows an incremental pass reads past
// where the last ended, for the partition servers' clocks, which decide
// written_at, against the primary's, which keeps the mark.
const sweepMargin = time.Minute

// departedStep is how many deleted articles one statement forgets.
const departedStep = 10_000

// SweepRecentPartitionSentences deletes from the partitions the rows
// written since its last pass (less sweepMargin) and more than settled ago
// whose articles do not exist, and all the rows of the articles deleted
// since, and returns how many went. With no last pass recorded it runs the
// full pass. Without partitions it does nothing.
func (s *Store) SweepRecentPartitionSentences(ctx context.Context, settled time.Duration) (int, error) {
	n, err := s.sentencePartitions(ctx)
	if err != nil || n == 0 {
		return 0, err
	}
	var (
		mark *time.Time
		now  time.Time
	)
	if err := s.pool.QueryRow(ctx, `SELECT swept_before, now() FROM sentence_partition_sweep`).Scan(&mark, &now); err != nil {
		return 0, interpretError(err, "sweep partition sentences")
	}
	swept := 0
	if mark == nil {
		if swept, err = s.SweepPartitionSentences(ctx, settled); err != nil {
			return swept, err
		}
	} else {
		rows, err := s.pool.Query(ctx, `
			SELECT DISTINCT w.article_id FROM sentence_proxy.written_between($1, $2) w
			WHERE NOT EXISTS (SELECT 1 FROM articles a WHERE a.id = w.article_id)`, now.Sub(*mark)+sweepMargin, settled)
		if err != nil {
			return 0, interpretError(err, "sweep recent partition sentences")
		}
		gone, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return 0, interpretError(err, "sweep recent partition sentences")
		}
		if swept, err = s.forgetOnPartitions(ctx, gone); err != nil {
			return 0, err
		}
	}
	for {
		rows, err := s.pool.Query(ctx, `SELECT DISTINCT article_id FROM sentence_partition_departed LIMIT $1`, departedStep)
		if err != nil {
			return swept, interpretError(err, "sweep deleted articles' partition sentences")
		}
		gone, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return swept, interpretError(err, "sweep deleted articles' partition sentences")
		}
		if len(gone) == 0 {
			break
		}
		k, err := s.forgetOnPartitions(ctx, gone)
		swept += k
		if err != nil {
			return swept, err
		}
		// Forgotten on the partitions first: a failure between leaves the
		// ids for the next pass, which forgets them again at no harm.
		if _, err := s.pool.Exec(ctx, `DELETE FROM sentence_partition_departed WHERE article_id = ANY ($1)`, gone); err != nil {
			return swept, interpretError(err, "sweep deleted articles' partition sentences")
		}
	}
	_, err = s.pool.Exec(ctx, `UPDATE sentence_partition_sweep SET swept_before = $1`, now.Add(-settled))
	return swept, interpretError(err, "sweep partition sentences")
}

// forgetOnPartitions deletes the partition rows of these articles and
// returns how many went.
func (s *Store) forgetOnPartitions(ctx context.Context, ids []int64) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	var k int
	err := s.pool.QueryRow(ctx, `SELECT coalesce(sum(n), 0) FROM sentence_proxy.forget($1::int8[]) n`, ids).Scan(&k)
	return k, interpretError(err, "sweep partition sentences")
}
