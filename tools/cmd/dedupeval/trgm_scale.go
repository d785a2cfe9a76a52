package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/corpus"
)

// A few hundred stored rows say little about what a trigram lookup costs in
// a service that stores a week of news: a trigram's posting list grows with
// the table, and so does the work of every lookup. So the lookups are timed
// a second time against the originals plus filler rows: articles of random
// sentences of the novel, which look like the corpus to a trigram index but
// duplicate nothing.

// fillerBodies returns count bodies of random sentences of the novel, of 500
// to 1,500 runes, with a fixed seed.
func fillerBodies(n *corpus.Novel, count int) []string {
	rng := rand.New(rand.NewPCG(3, seedStream))
	sentences := n.Sentences()
	out := make([]string, count)
	for i := range out {
		var b strings.Builder
		target := 500 + rng.IntN(1001)
		for runes := 0; runes < target; {
			s := sentences[rng.IntN(len(sentences))]
			b.WriteString(s)
			runes += utf8.RuneCountInString(s)
		}
		out[i] = b.String()
	}
	return out
}

// loadLarge makes stored_large, the stored originals and the filler rows,
// and returns how long its GIN index took to build.
func (s *scratch) loadLarge(ctx context.Context, filler []string) (time.Duration, error) {
	if _, err := s.conn.Exec(ctx, "CREATE TABLE stored_large AS SELECT id, body FROM stored"); err != nil {
		return 0, fmt.Errorf("stored_large: %w", err)
	}
	var first int
	if err := s.conn.QueryRow(ctx, "SELECT coalesce(max(id), -1) + 1 FROM stored").Scan(&first); err != nil {
		return 0, fmt.Errorf("stored_large: %w", err)
	}
	rows := make([][]any, len(filler))
	for i, body := range filler {
		rows[i] = []any{first + i, body}
	}
	if _, err := s.conn.CopyFrom(ctx, pgx.Identifier{"stored_large"}, []string{"id", "body"}, pgx.CopyFromRows(rows)); err != nil {
		return 0, fmt.Errorf("copy filler: %w", err)
	}
	start := time.Now()
	if _, err := s.conn.Exec(ctx, "CREATE INDEX stored_large_body_trgm ON stored_large USING gin (body gin_trgm_ops)"); err != nil {
		return 0, fmt.Errorf("index stored_large: %w", err)
	}
	build := time.Since(start)
	if _, err := s.conn.Exec(ctx, "ANALYZE stored_large"); err != nil {
		return 0, fmt.Errorf("analyze stored_large: %w", err)
	}
	return build, nil
}
