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

// StartSession stores a session under digest, ending after lifetime, and
// deletes the sessions that have ended.
func (q queries) StartSession(ctx context.Context, digest [sha256.Size]byte, s service.Session, lifetime, idle time.Duration) (service.Session, error) {
	if _, err := q.db.Exec(ctx, `DELETE FROM editor_sessions WHERE expires_at <= now() OR last_seen_at <= now() - $1::interval`, idle); err != nil {
		return service.Session{}, interpretError(err, "delete ended sessions")
	}
	err := q.db.QueryRow(ctx, `
		INSERT INTO editor_sessions (token_hash, editor, key_id, expires_at)
		VALUES ($1, $2, $3, now() + $4::interval)
		RETURNING started_at, expires_at`, digest[:], s.Editor, s.KeyID, lifetime).Scan(&s.Started, &s.Expires)
	return s, interpretError(err, "start session")
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
