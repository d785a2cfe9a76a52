package repo

import (
	"cmp"
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

// CopyRow is an article as CopyArticles stores it.
type CopyRow struct {
	Article service.Article
	Body    string
}

// CopyArticles bulk-loads rows with COPY, each as a unique article, without
// judging them against each other or the stored articles. It is for loading
// fixtures and benchmark corpora, a million rows in seconds; articles that
// clients send go through the service. It returns how many rows it stored.
func (s *Store) CopyArticles(ctx context.Context, rows []CopyRow) (int64, error) {
	columns := []string{
		"source", "external_id", "title", "url", "body", "content_type", "published_at",
		"content_hash", "simhash", "fingerprint_version", "words", "status",
		"a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3",
	}
	n, err := s.pool.CopyFrom(ctx, pgx.Identifier{"articles"}, columns,
		pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
			a := &rows[i].Article
			return append([]any{
				a.Source, a.ExternalID, a.Title, a.URL, rows[i].Body, string(cmp.Or(a.ContentType, service.ContentText)), a.PublishedAt,
				a.ContentHash[:], int64(a.Simhash), a.FingerprintVersion, storedWords(a.Words), string(service.StatusUnique),
			}, blockArgs(a.Simhash)...), nil
		}))
	return n, interpretError(err, "copy articles")
}
