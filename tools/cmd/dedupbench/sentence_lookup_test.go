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
// rows grown to 40,000, 10 queries, the real part cut from 围城) into a
// folder holding docs/benchmarks.json, and checks the rows loaded, that a
// stored article's own text finds every one of its sentences at both
// sizes, the growth by ingest, the Markdown, the merge, and that the
// database is gone.
func TestSentenceOnly(t *testing.T) {
	cfg := newsTestConfig(t, "", 1)
	cfg.sentenceRows = 20_000
	cfg.sentenceArticles = 100
	cfg.sentenceQueries = 10
	cfg.sentenceLargeRows = 40_000
	cfg.sentenceGrowArticles = 6
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
	l := after.SentenceLookupLarge
	switch {
	case l == nil:
		t.Fatalf("%s has no larger sentence tier", jsonFile)
	case l.Loaded != cfg.sentenceLargeRows || l.RealRows+l.BulkRows != l.Loaded || l.RealRows != r.RealRows:
		t.Errorf("the larger tier loaded %d rows (real %d, bulk %d), want %d with the first tier's %d real ones", l.Loaded, l.RealRows, l.BulkRows, cfg.sentenceLargeRows, r.RealRows)
	case l.Queries != r.Queries || l.StoredQueries != r.StoredQueries || l.BlockKeys > l.Queries || l.StoredAllFoundOrCapped != l.StoredQueries || l.Buffers.Median <= 0 || l.Sizes.Total <= r.Sizes.Total:
		t.Errorf("the larger tier: %d queries (%d on the block keys), %d of %d stored found (first tier: %d stored), buffers %+v, sizes %d after %d", l.Queries, l.BlockKeys, l.StoredAllFoundOrCapped, l.StoredQueries, r.StoredQueries, l.Buffers, l.Sizes.Total, r.Sizes.Total)
	case l.Growth == nil || l.Growth.Articles+l.Growth.Refused != cfg.sentenceGrowArticles || l.Growth.Rows == 0 || l.Growth.Bytes <= 0:
		t.Errorf("the growth by ingest is %+v, want %d articles' rows and bytes", l.Growth, cfg.sentenceGrowArticles)
	}
	goals := map[string]Goal{}
	for _, g := range after.Goals {
		goals[g.Goal] = g
	}
	var latency *Goal
	for i, g := range after.Goals {
		if strings.HasPrefix(g.Goal, "sentence lookup of one article") && strings.Contains(g.Goal, "20,000") {
			latency = &after.Goals[i]
		}
	}
	if latency == nil || latency.Status != statusNotMeasured {
		t.Errorf("the goal at 20,000 rows is %+v, want it not measured at 10,000,000", latency)
	}
	for _, want := range []string{goalSentenceLargeWhat} {
		if g, ok := goals[want]; !ok || g.Status != statusNotMeasured || !strings.Contains(g.Note, "40,000 rows") || g.Measured == "" {
			t.Errorf("goal %q = %+v, want it measured at 40,000 rows and not judged", want, g)
		}
	}

	md, err := os.ReadFile(filepath.Join(cfg.out, reportFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{string(md), stdout.String()} {
		for _, want := range []string{"## " + sentenceSectionTitle, "**20,000 rows**", "MISSING", "per stored article", "### At 40,000 sentences", "**Memory.**", "#### What ingest adds"} {
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
	if cfg, err := parseFlags(nil, &strings.Builder{}); err != nil || cfg.sentenceRows != 10_000_000 || cfg.sentenceLargeRows != 100_000_000 {
		t.Errorf("default -sentence-rows = %d, -sentence-large-rows = %d, %v; want 10,000,000 and 100,000,000", cfg.sentenceRows, cfg.sentenceLargeRows, err)
	}
	if cfg, err := parseFlags([]string{"-sentence-large-rows", "0", "-sentence-grow-articles", "50"}, &strings.Builder{}); err != nil || cfg.sentenceLargeRows != 0 || cfg.sentenceGrowArticles != 50 {
		t.Errorf("parseFlags() = %+v, %v", cfg, err)
	}
}
