package repo

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

// copyRow is an article as copyArticles stores it.
type copyRow struct {
	Article service.Article
	Body    string
}

// copyArticles bulk-loads rows with COPY, each as a unique article, without
// judging them against each other or the stored articles: the tests' way to
// fill a table with a hundred thousand rows in seconds (export_test.go).
// Articles that clients send go through the service.
func (s *Store) copyArticles(ctx context.Context, rows []copyRow) (int64, error) {
	n, err := s.pool.CopyFrom(ctx, pgx.Identifier{"articles"}, articleWriteColumns,
		pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
			a := rows[i].Article
			a.Status, a.DuplicateOf, a.ClusterID, a.PlainBody = service.StatusUnique, 0, 0, rows[i].Body
			return articleValues(&a, rows[i].Body), nil
		}))
	return n, interpretError(err, "copy articles")
}
