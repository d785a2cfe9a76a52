package main

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// The baseline on a few articles, in a real database: exact copies score 1
// at every threshold, lookups are timed on both tables, and the scratch
// database is gone afterwards.
func TestTrgm(t *testing.T) {
	t.Parallel()
	server := dbtest.ServerURL(t)
	c, err := buildCorpus(mustNovel(t), 2)
	if err != nil {
		t.Fatal(err)
	}
	qs := queries(c)
	res, err := evaluateTrgm(t.Context(), server, "C.UTF-8", c, qs, []string{"填充的文字。", "另一行填充。"}, func(ts tallies) int { return bestTrgm(ts).Point })
	if err != nil {
		t.Fatalf("evaluateTrgm() = %v", err)
	}
	isExact := func(k groupKey) bool { return k.Edit == editExact }
	for i, th := range trgmThresholds {
		if got := res.Tallies.at(isExact, i); got.FN != 0 || got.TP == 0 {
			t.Errorf("threshold %.1f: exact copies %+v, want all found", th, got)
		}
	}
	if res.Queries != len(qs) || len(res.Lookups) != 2 || res.Lookups[1].Rows != len(c.Originals)+2 {
		t.Errorf("%d queries, lookups %+v; want %d queries and two tables, the second of %d rows", res.Queries, res.Lookups, len(qs), len(c.Originals)+2)
	}

	s, err := openScratch(t.Context(), server, "C.UTF-8")
	if err != nil {
		t.Fatalf("openScratch() = %v", err)
	}
	name := s.name
	if err := s.close(); err != nil {
		t.Fatalf("close() = %v", err)
	}
	conn, err := pgx.Connect(t.Context(), server)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var left bool
	if err := conn.QueryRow(t.Context(), "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&left); err != nil || left {
		t.Errorf("scratch database %s left behind: %v, %v", name, left, err)
	}
}
