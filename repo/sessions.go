package repo

import (
	"context"
	"crypto/sha256"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

// The editors' page sessions (service.SessionStore), in editor_sessions.
// Every time is the database's: one clock for every instance.

// StartSession stores a session under digest, ending after
// limits.Lifetime, deletes the sessions that have ended, and ends the
// editor's oldest sessions beyond limits.PerEditor and everyone's beyond
// limits.Total. Each delete is a range of one of editor_sessions' indexes,
// so a sign-in costs the same at any number of sessions.
func (q queries) StartSession(ctx context.Context, digest [sha256.Size]byte, s service.Session, limits service.SessionLimits) (service.Session, error) {
	// Separate statements, no transaction: each delete stands alone, and a
	// sign-in racing another may leave one session over a cap until the next.
	err := func(tx querier) error {
		if _, err := tx.Exec(ctx, `DELETE FROM editor_sessions WHERE expires_at <= now()`); err != nil {
			return interpretError(err, "delete expired sessions")
		}
		if _, err := tx.Exec(ctx, `DELETE FROM editor_sessions WHERE last_seen_at <= now() - $1::interval`, limits.Idle); err != nil {
			return interpretError(err, "delete idle sessions")
		}
		err := tx.QueryRow(ctx, `
			INSERT INTO editor_sessions (token_hash, editor, key_id, expires_at)
			VALUES ($1, $2, $3, now() + $4::interval)
			RETURNING started_at, expires_at`, digest[:], s.Editor, s.KeyID, limits.Lifetime).Scan(&s.Started, &s.Expires)
		if err != nil {
			return interpretError(err, "start session")
		}
		if _, err := tx.Exec(ctx, `
			DELETE FROM editor_sessions WHERE token_hash IN (
				SELECT token_hash FROM editor_sessions WHERE editor = $1
				ORDER BY started_at DESC OFFSET $2)`, s.Editor, limits.PerEditor); err != nil {
			return interpretError(err, "end the editor's oldest sessions")
		}
		if _, err := tx.Exec(ctx, `
			DELETE FROM editor_sessions WHERE token_hash IN (
				SELECT token_hash FROM editor_sessions
				ORDER BY started_at DESC OFFSET $1)`, limits.Total); err != nil {
			return interpretError(err, "end the oldest sessions")
		}
		return nil
	}(q.db)
	if err != nil {
		return service.Session{}, err
	}
	return s, nil
}

// Session returns the session stored under digest and marks it seen now,
// unless it was last seen longer than idle ago or is past its end.
func (q queries) Session(ctx context.Context, digest [sha256.Size]byte, idle time.Duration) (service.Session, error) {
	var s service.Session
	err := q.db.QueryRow(ctx, `
		UPDATE editor_sessions SET last_seen_at = now()
		WHERE token_hash = $1 AND expires_at > now() AND last_seen_at > now() - $2::interval
		RETURNING editor, key_id, started_at, expires_at`, digest[:], idle).Scan(&s.Editor, &s.KeyID, &s.Started, &s.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return s, &service.Error{Kind: service.KindNotFound, Message: "no such session: never started, signed out, or ended"}
	}
	return s, interpretError(err, "read session")
}

// EndSession deletes the session stored under digest, if any.
func (q queries) EndSession(ctx context.Context, digest [sha256.Size]byte) error {
	_, err := q.db.Exec(ctx, `DELETE FROM editor_sessions WHERE token_hash = $1`, digest[:])
	return interpretError(err, "end session")
}
