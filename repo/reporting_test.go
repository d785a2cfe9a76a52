package repo_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestReportingViews stores a small cluster through the service and reads
// it back through the analysts' views.
func TestReportingViews(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	p := nearPairs(t, 3)
	day := time.Date(2026, 5, 4, 8, 0, 0, 0, time.UTC)
	ingest := func(source, id string, a service.ArticleInput) service.Verdict {
		t.Helper()
		a.Source, a.ExternalID, a.PublishedAt = source, id, day
		v, err := svc.Ingest(ctx, a, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	orig := ingest("xinhua", "x-1", input("", p[0][0]))
	ingest("sina", "s-1", input("", p[0][1]))
	ingest("sina", "s-2", input("", p[0][0]))
	third := ingest("sina", "s-3", input("", p[1][0]))
	// An expansion: s-3 with another story after it holds all of s-3.
	expansion := p[1][0]
	expansion.Body += "\n" + p[2][0].Body
	partial := ingest("people", "p-1", input("", expansion))
	if partial.Status != service.StatusPartialDuplicate || partial.ClusterID != third.ID {
		t.Fatalf("the expansion of s-3 is %s in cluster %d, want a partial duplicate in %d", partial.Status, partial.ClusterID, third.ID)
	}

	db := st.Pool()
	var pairs int
	var originalSource string
	if err := db.QueryRow(ctx, `SELECT count(*), min(original_source) FROM duplicate_pairs WHERE original_id = $1`,
		orig.ID).Scan(&pairs, &originalSource); err != nil {
		t.Fatal(err)
	}
	if pairs != 2 || originalSource != "xinhua" {
		t.Errorf("duplicate_pairs: %d pairs from %q, want 2 from xinhua", pairs, originalSource)
	}

	var status string
	var distance int
	var overlap, coverageThis, coverageThat *float64
	if err := db.QueryRow(ctx, `SELECT status, distance, overlap, coverage_this, coverage_that FROM duplicate_pairs WHERE article_id = $1`,
		partial.ID).Scan(&status, &distance, &overlap, &coverageThis, &coverageThat); err != nil {
		t.Fatal(err)
	}
	if status != "partial_duplicate" || overlap == nil || coverageThis == nil || coverageThat == nil || *coverageThat < 0.9 {
		t.Errorf("duplicate_pairs of the expansion: %s at %d bits, overlap %v, coverage %v / %v; want partial_duplicate, coverage_that ≥ 0.9",
			status, distance, overlap, coverageThis, coverageThat)
	}
	var partials int
	if err := db.QueryRow(ctx, `SELECT partial_duplicates FROM clusters WHERE cluster_id = $1`, third.ID).Scan(&partials); err != nil {
		t.Fatal(err)
	}
	if partials != 1 {
		t.Errorf("clusters: %d partial duplicates in the cluster of s-3, want 1", partials)
	}

	var size, exact, near, sourceCount int
	var sources []string
	if err := db.QueryRow(ctx, `
		SELECT size, exact_duplicates, near_duplicates, sources, source_count FROM clusters WHERE cluster_id = $1`,
		orig.ID).Scan(&size, &exact, &near, &sources, &sourceCount); err != nil {
		t.Fatal(err)
	}
	if size != 3 || exact != 1 || near != 1 || sourceCount != 2 || len(sources) != 2 || sources[0] != "sina" {
		t.Errorf("clusters: size %d exact %d near %d sources %v (%d), want 3 1 1 [sina xinhua] (2)",
			size, exact, near, sources, sourceCount)
	}
	var clusterCount int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM clusters`).Scan(&clusterCount); err != nil {
		t.Fatal(err)
	}
	if clusterCount != 2 {
		t.Errorf("clusters: %d rows, want 2 (one per cluster, singletons included)", clusterCount)
	}

	var articles, duplicates int
	var rate float64
	if err := db.QueryRow(ctx, `
		SELECT articles, near_duplicates + exact_duplicates, duplicate_rate
		FROM daily_duplicate_rate WHERE day = '2026-05-04' AND source = 'sina'`).Scan(&articles, &duplicates, &rate); err != nil {
		t.Fatal(err)
	}
	if articles != 3 || duplicates != 2 || rate != 0.6667 {
		t.Errorf("daily_duplicate_rate for sina: %d articles, %d duplicates, rate %v; want 3, 2, 0.6667", articles, duplicates, rate)
	}

	// Every view says what it is for.
	for _, view := range []string{"duplicate_pairs", "clusters", "daily_duplicate_rate", "cluster_kept", "cluster_original", "editorial_decisions", "separated_pairs", "shared_sentence_pairs"} {
		var comment *string
		if err := db.QueryRow(ctx, `SELECT obj_description($1::regclass, 'pg_class')`, view).Scan(&comment); err != nil {
			t.Fatal(err)
		}
		if comment == nil || *comment == "" {
			t.Errorf("view %s has no COMMENT", view)
		}
	}
}

// TestAnalystRole runs docs/analyst_role.sql and checks that the role it
// makes reads the views and changes nothing.
func TestAnalystRole(t *testing.T) {
	ctx := context.Background()
	url := dbtest.URL(t)
	st, err := repo.Open(ctx, url, repo.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	script, err := os.ReadFile("../docs/analyst_role.sql")
	if err != nil {
		t.Fatal(err)
	}
	// Roles belong to the whole server: give this test's role its own name.
	role := fmt.Sprintf("analyst_test_%d", time.Now().UnixNano())
	sql := strings.ReplaceAll(string(script), "newsdedup_analyst", role)
	if _, err := st.Pool().Exec(ctx, sql); err != nil {
		t.Fatalf("docs/analyst_role.sql: %v", err)
	}
	t.Cleanup(func() {
		st.Pool().Exec(ctx, "DROP OWNED BY "+role+"; DROP ROLE "+role)
	})

	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.User = role
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect as %s: %v", role, err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		"SELECT count(*) FROM duplicate_pairs",
		"SELECT count(*) FROM clusters",
		"SELECT count(*) FROM daily_duplicate_rate",
		"SELECT count(*) FROM cluster_kept",
		"SELECT count(*) FROM cluster_original",
		"SELECT count(*) FROM editorial_decisions",
		"SELECT count(*) FROM separated_pairs",
		"SELECT sources FROM keep_policy",
		"SELECT count(simhash) FROM articles",
		"SELECT count(*) FROM shared_sentence_pairs",
		"SELECT count(coverage_this), count(overlap) FROM articles",
		"SELECT count(text_hash) FROM sentences",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Errorf("as the analyst role, %s: %v", q, err)
		}
	}
	for _, q := range []string{
		"SELECT count(body) FROM articles",
		"SELECT count(plain_body) FROM articles",
		"SELECT count(a0) FROM sentences",
		"SELECT count(words) FROM sentences",
		"DELETE FROM articles",
		"DELETE FROM editor_decisions",
		"CREATE TABLE scratch (x int)",
	} {
		if _, err := conn.Exec(ctx, q); err == nil {
			t.Errorf("as the analyst role, %s succeeded; it must be refused", q)
		}
	}
}
