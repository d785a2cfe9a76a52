package repo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
)

// TestSourcesByPrefixReadsOnlyTheMatches stores 3,000 sources and asks for
// a prefix that begins two of them, in another case: both come back, and
// the statement reads a handful of index pages, not one a source (the walk
// of every source read over 6,000 at this size).
func TestSourcesByPrefixReadsOnlyTheMatches(t *testing.T) {
	t.Parallel()
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(44, 5))
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var rows []repo.CopyRow
	for i := range 3000 {
		rows = append(rows, repo.CopyRow{Body: "正文", Article: fixtureArticle(fmt.Sprint("k-", i), fmt.Sprintf("src-%04d", i), day, service.ContentText, rng)})
	}
	for i, source := range []string{"zzz-a", "ZZZ-b", "zz"} {
		rows = append(rows, repo.CopyRow{Body: "正文", Article: fixtureArticle(fmt.Sprint("z-", i), source, day, service.ContentText, rng)})
	}
	copyArticles(t, st, rows)
	if _, err := st.Pool().Exec(ctx, "ANALYZE articles"); err != nil {
		t.Fatal(err)
	}

	got, err := svc.Sources(ctx, "Zzz")
	if want := []string{"ZZZ-b", "zzz-a"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Sources(Zzz) = %v, %v; want %v", got, err, want)
	}
	if got, err := svc.Sources(ctx, "SRC-000"); err != nil || len(got) != 10 || got[0] != "src-0000" {
		t.Errorf("Sources(SRC-000) = %v, %v; want src-0000 … src-0009", got, err)
	}

	var plan []struct {
		Plan struct {
			SharedHit  int `json:"Shared Hit Blocks"`
			SharedRead int `json:"Shared Read Blocks"`
		}
	}
	var raw []byte
	if err := st.Pool().QueryRow(ctx, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "+repo.SourcesSQL, "zzz", 100).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &plan); err != nil || len(plan) != 1 {
		t.Fatalf("EXPLAIN: %v: %s", err, raw)
	}
	if pages := plan[0].Plan.SharedHit + plan[0].Plan.SharedRead; pages > 100 {
		t.Errorf("sources beginning with zzz read %d pages among 3,003 sources; want a handful:\n%s", pages, raw)
	}
}
