package repo

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// writesEndedPoll is how often settledClock asks whether the writes under
// way have ended: ingests hold their transaction for milliseconds.
const writesEndedPoll = 20 * time.Millisecond

// settledClock returns the database's clock once every article ingested
// before it is visible. An article's ingested_at is the clock when its row
// was written, inside its transaction, so a transaction under way may still
// commit rows from before now: the clock is read first, then the
// transactions then under way (those holding a transaction id in the
// snapshot taken after it) are waited for.
func (s *Store) settledClock(ctx context.Context) (time.Time, error) {
	var now time.Time
	if err := s.pool.QueryRow(ctx, `SELECT clock_timestamp()`).Scan(&now); err != nil {
		return time.Time{}, interpretError(err, "read the clock")
	}
	var snapshot string
	if err := s.pool.QueryRow(ctx, `SELECT pg_current_snapshot()::text`).Scan(&snapshot); err != nil {
		return time.Time{}, interpretError(err, "read a snapshot")
	}
	for {
		var busy bool
		err := s.pool.QueryRow(ctx, `
			SELECT EXISTS (SELECT 1 FROM pg_snapshot_xip($1::pg_snapshot) AS x WHERE pg_xact_status(x) = 'in progress')`,
			snapshot).Scan(&busy)
		if err != nil {
			return time.Time{}, interpretError(err, "wait for the writes under way")
		}
		if !busy {
			return now, nil
		}
		select {
		case <-ctx.Done():
			return time.Time{}, interpretError(ctx.Err(), "wait for the writes under way")
		case <-time.After(writesEndedPoll):
		}
	}
}

// earliest returns the position of the earliest article ingested before
// before whose version is (or, with other, is not) v; false when none is.
func (s *Store) earliest(ctx context.Context, v fingerprint.Version, other bool, before time.Time) (service.ArticlePosition, bool, error) {
	var p service.ArticlePosition
	err := s.pool.QueryRow(ctx, `
		SELECT id, ingested_at FROM articles
		WHERE (fingerprint_version = $1) <> $2 AND ingested_at < $3
		ORDER BY ingested_at, id
		LIMIT 1`, v, other, before).Scan(&p.ID, &p.IngestedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, false, nil
	}
	return p, err == nil, interpretError(err, "find the earliest article of a version")
}

// RejudgeHorizon returns a time before which every stored article is of
// version v and visible: the settled clock, or the time the earliest
// article of another version ingested before it was (an older binary still
// writing, or an upgrade not done).
func (s *Store) RejudgeHorizon(ctx context.Context, v fingerprint.Version) (time.Time, error) {
	now, err := s.settledClock(ctx)
	if err != nil {
		return time.Time{}, err
	}
	p, found, err := s.earliest(ctx, v, true, now)
	if err != nil || !found {
		return now, err
	}
	return p.IngestedAt, nil
}

// RejudgeMark returns how far the unique articles of version v have been
// judged again. The first time, it records a mark just before the earliest
// stored article of version v, or at the settled clock when there is none
// before it.
func (s *Store) RejudgeMark(ctx context.Context, v fingerprint.Version) (service.ArticlePosition, error) {
	var p service.ArticlePosition
	read := func() error {
		return s.pool.QueryRow(ctx, `SELECT rejudged_after_id, rejudged_through FROM fingerprint_upgrades WHERE version = $1`, v).
			Scan(&p.ID, &p.IngestedAt)
	}
	err := read()
	if !errors.Is(err, pgx.ErrNoRows) {
		return p, interpretError(err, "read the rejudge mark")
	}
	now, err := s.settledClock(ctx)
	if err != nil {
		return p, err
	}
	first := service.ArticlePosition{IngestedAt: now}
	if e, found, err := s.earliest(ctx, v, false, now); err != nil {
		return p, err
	} else if found {
		first = service.ArticlePosition{IngestedAt: e.IngestedAt, ID: e.ID - 1}
	}
	if _, err := s.pool.Exec(ctx, `
		INSERT INTO fingerprint_upgrades (version, rejudged_through, rejudged_after_id) VALUES ($1, $2, $3)
		ON CONFLICT (version) DO NOTHING`, v, first.IngestedAt, first.ID); err != nil {
		return p, interpretError(err, "record the first rejudge mark")
	}
	return p, interpretError(read(), "read the rejudge mark")
}

// MarkRejudged records that the unique articles of version v up to
// position p have been judged again, unless a mark further on is there.
func (s *Store) MarkRejudged(ctx context.Context, v fingerprint.Version, p service.ArticlePosition) error {
	_, err := s.pool.Exec(ctx, `
		INSERT INTO fingerprint_upgrades AS u (version, rejudged_through, rejudged_after_id) VALUES ($1, $2, $3)
		ON CONFLICT (version) DO UPDATE SET rejudged_through = excluded.rejudged_through, rejudged_after_id = excluded.rejudged_after_id
		WHERE (u.rejudged_through, u.rejudged_after_id) < (excluded.rejudged_through, excluded.rejudged_after_id)`,
		v, p.IngestedAt, p.ID)
	return interpretError(err, "record the rejudge mark")
}
