package repo

import "github.com/jackc/pgx/v5/pgxpool"

// Exported for the tests of package repo_test, which check the candidate
// query's plan and read the table directly.
var (
	NearCandidatesSQL  = nearCandidatesSQL
	NearCandidatesArgs = nearCandidatesArgs
)

// Pool returns the store's connection pool.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }
