package repo

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Pool returns the store's connection pool, for the tests of package
// repo_test that read the table directly.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// The candidate statement and its arguments, for the plan test.
const NearCandidatesSQL = nearCandidatesSQL

var NearCandidatesArgs = nearCandidatesArgs

// CopyRow and CopyArticles load fixtures without judging them.
type CopyRow = copyRow

func (s *Store) CopyArticles(ctx context.Context, rows []CopyRow) (int64, error) {
	return s.copyArticles(ctx, rows)
}
