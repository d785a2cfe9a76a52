package repo

import (
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// parseConfig parses a PostgreSQL URL or key=value string without echoing
// it: the password must not reach a log through an error message.
func parseConfig(databaseURL string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: invalid syntax")
	}
	return cfg, nil
}
