package repo

import (
	"context"
)

// Secret returns the secret stored under name, storing fresh first when
// there is none: every caller, on every instance, gets the one stored
// first. Two statements, so that the read sees a row another instance
// committed while this insert waited for it.
func (q queries) Secret(ctx context.Context, name string, fresh []byte) ([]byte, error) {
	if _, err := q.db.Exec(ctx, `INSERT INTO service_secrets (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, fresh); err != nil {
		return nil, interpretError(err, "store secret")
	}
	var secret []byte
	err := q.db.QueryRow(ctx, `SELECT secret FROM service_secrets WHERE name = $1`, name).Scan(&secret)
	return secret, interpretError(err, "read secret")
}
