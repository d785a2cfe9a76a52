package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSentenceOnly runs -only sentence-lookup on a tiny index (20,000
// rows, 10 queries, the real part cut from 围城) into a folder holding
// docs/benchmarks.json, and checks the rows loaded, that
// a stored article's own text finds every one of its sentences, the
// Markdown, the merge, and that the database is gone.
func TestSentenceOnly(t *testing.T) {
	cfg := newsTestConfig(t, "", 1)
	cfg.sentenceRows = 20_000
	cfg.sentenceArticles = 100
	cfg.sentenceQueries = 10
	cfg.out = t.TempDir()
	// An earlier run's results: the repository's own.
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", jsonFile))
	if err != nil {
		t.Fatal(err)
	}
	var before Results
	if err := json.Unmarshal(data, &before); err != nil || len(before.Tiers) == 0 {
		t.Fatalf("docs/%s: %v, %d tiers", jsonFile, err, len(before.Tiers))
	}
	if err := os.WriteFile(filepath.Join(cfg.out, jsonFile), data, 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	var stdout strings.Builder
	if err := runSentenceOnly(ctx, cfg, &stdout); err != nil {
		t.Fatalf("runSentenceOnly() error: %v", err)
	}

	var after Results
	data, err = os.ReadFile(filepath.Join(cfg.out, jsonFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &after); err != nil {
		t.Fatal(err)
	}
	if after.Command != before.Command || len(after.Tiers) != len(before.Tiers) || (after.NewsIngest == nil) != (before.NewsIngest == nil) {
		t.Errorf("the merge lost the other sections: %+v", after)
	}
	r := after.SentenceLookup
	if r == nil {
		t.Fatalf("%s has no sentence-lookup section", jsonFile)
	}
	if r.Loaded != cfg.sentenceRows || r.RealRows+r.BulkRows != r.Loaded || r.RealRows == 0 || r.RealArticles != cfg.sentenceArticles {
		t.Errorf("loaded %d rows (real %d of %d articles, bulk %d), want %d", r.Loaded, r.RealRows, r.RealArticles, r.BulkRows, cfg.sentenceRows)
	}
	if r.Fallback == "" || r.Source != newsSourceNovel {
		t.Errorf("source %q, fallback %q: want 围城, said so", r.Source, r.Fallback)
	}
	if r.Queries != cfg.sentenceQueries || r.StoredQueries == 0 || r.StoredAllFoundOrCapped != r.StoredQueries {
		t.Errorf("%d queries, %d of a stored article, %d of them found all its sentences in it (or the limit's worth)", r.Queries, r.StoredQueries, r.StoredAllFoundOrCapped)
	}
	if r.Returned.Min < 0 || r.Returned.Max == 0 || r.Sentences.Min < 1 || r.DBMS.N != r.Queries || r.Sizes.Total <= r.Sizes.Heap {
		t.Errorf("returned %+v, sentences %+v, timings %+v, sizes %+v", r.Returned, r.Sentences, r.DBMS, r.Sizes)
	}
	var latency *Goal
	for i, g := range after.Goals {
		if strings.HasPrefix(g.Goal, "sentence lookup of one article") {
			latency = &after.Goals[i]
		}
	}
	if latency == nil || latency.Status != statusNotMeasured || !strings.Contains(latency.Goal, "20,000 stored sentences") {
		t.Errorf("the goal at 20,000 rows is %+v, want it not measured at 10,000,000", latency)
	}

	md, err := os.ReadFile(filepath.Join(cfg.out, reportFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{string(md), stdout.String()} {
		for _, want := range []string{"## " + sentenceSectionTitle, "**20,000 rows**", "MISSING", "per stored article"} {
			if !strings.Contains(text, want) {
				t.Errorf("the section does not mention %q:\n%s", want, text)
			}
		}
	}
	if n := databasesLeft(t, cfg); n != 0 {
		t.Errorf("%d databases named %s* are left", n, cfg.dbPrefix)
	}
}

func TestSentenceFlags(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://nowhere/x")
	cfg, err := parseFlags([]string{"-only", onlySentenceLookup, "-sentence-rows", "500000", "-sentence-queries", "40"}, &strings.Builder{})
	if err != nil || cfg.only != onlySentenceLookup || cfg.sentenceRows != 500_000 || cfg.sentenceQueries != 40 || cfg.sentenceArticles != 4_000 {
		t.Errorf("parseFlags() = %+v, %v", cfg, err)
	}
	if _, err := parseFlags([]string{"-only", onlySentenceLookup, "-sentence-rows", "0"}, &strings.Builder{}); err == nil {
		t.Error("-only sentence-lookup with -sentence-rows 0 was accepted")
	}
	if cfg, err := parseFlags(nil, &strings.Builder{}); err != nil || cfg.sentenceRows != 10_000_000 {
		t.Errorf("default -sentence-rows = %d, %v; want 10,000,000", cfg.sentenceRows, err)
	}
}
