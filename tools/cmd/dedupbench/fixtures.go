package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// fixtureRow is an article as the bench stores it: straight into the table
// with COPY, as a unique article, unjudged. Going through the service would
// take hours for millions of rows, and the bench measures lookups in a full
// table, not ingest.
type fixtureRow struct {
	Article service.Article
	Body    string
}

// fixtureColumns are the columns copyFixtures fills, in fixtureValues'
// order; the others take their defaults.
var fixtureColumns = []string{
	"source", "external_id", "title", "body", "published_at",
	"content_hash", "simhash", "fingerprint_version", "words", "shingles", "status",
	"a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3",
}

func fixtureValues(r *fixtureRow) []any {
	a := &r.Article
	words := make([]int64, len(a.Words))
	for i, w := range a.Words {
		words[i] = int64(w)
	}
	shingles := make([]int32, len(a.Shingles))
	for i, s := range a.Shingles {
		shingles[i] = int32(s)
	}
	values := []any{
		a.Source, a.ExternalID, a.Title, r.Body, a.PublishedAt,
		a.ContentHash[:], int64(a.Simhash), a.FingerprintVersion, words, shingles, string(service.StatusUnique),
	}
	b := fingerprint.BlocksOf(a.Simhash)
	for _, v := range b.A {
		values = append(values, int16(v))
	}
	for _, v := range b.B {
		values = append(values, int16(v))
	}
	return values
}

// copyFixtures stores rows with one COPY.
func copyFixtures(ctx context.Context, pool *pgxpool.Pool, rows []fixtureRow) error {
	_, err := pool.CopyFrom(ctx, pgx.Identifier{"articles"}, fixtureColumns,
		pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) { return fixtureValues(&rows[i]), nil }))
	if err != nil {
		return fmt.Errorf("copy fixtures: %w", err)
	}
	return nil
}
