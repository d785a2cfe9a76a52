package repo

import "github.com/jackc/pgx/v5/pgxpool"

// Pool returns the store's connection pool, for the tests of package
// repo_test that read the table directly.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }
