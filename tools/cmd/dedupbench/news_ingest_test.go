package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service/fingerprint"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

// newsTestConfig is a tiny real-news section: articles articles, once,
// batches of 10, on the test server with a prefix of its own.
func newsTestConfig(t *testing.T, corpora string, articles int) *config {
	t.Helper()
	var suffix [4]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig()
	cfg.serverURL = dbtest.ServerURL(t)
	cfg.dbPrefix = "benchnews_" + hex.EncodeToString(suffix[:]) + "_"
	cfg.poolSize = 4
	cfg.corpora = corpora
	cfg.newsArticles = articles
	cfg.newsReps = 1
	cfg.newsBatchSize = 10
	cfg.newsSingleClients = 4
	cfg.command = "go test ./cmd/dedupbench"
	cfg.progress = testWriter{t}
	return &cfg
}

// runNewsSection measures the section with cfg and checks what holds
// whatever the articles: every mode ran, every article sent was answered
// with a verdict and stored, and the databases are gone.
func runNewsSection(t *testing.T, cfg *config) *NewsIngestResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	dict, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dict.Close()
	var made []string
	res, err := benchNewsIngest(ctx, cfg, dict, corpus.LoadNovel, &made)
	if err != nil {
		t.Fatalf("benchNewsIngest() error: %v", err)
	}
	if len(res.Modes) != 2+2*len(cfg.newsBatchClients)+2+1 {
		t.Fatalf("%d modes, want fingerprint-only, batch and single, each with the sentence index on and off, and the peer: %+v", len(res.Modes), res.Modes)
	}
	for _, m := range res.Modes {
		if len(m.Runs) != cfg.newsReps || m.PerSecond.Median <= 0 {
			t.Errorf("%s: %d runs, median %v", modeName(&m), len(m.Runs), m.PerSecond.Median)
			continue
		}
		run := m.Runs[0]
		if m.Kind == newsPeer {
			// The in-memory peer stores nothing in the database: it is
			// held to a verdict for every article sent.
			if run.Sent != res.Articles || run.Statuses["unique"]+run.Statuses["duplicate"] != res.Articles || run.Stored != 0 {
				t.Errorf("peer: sent %d, verdicts %v, stored %d; want %d articles judged, none stored", run.Sent, run.Statuses, run.Stored, res.Articles)
			}
			continue
		}
		if run.Sent != res.Articles {
			t.Errorf("%s: sent %d articles, want %d", modeName(&m), run.Sent, res.Articles)
		}
		verdicts := 0
		for status, n := range run.Statuses {
			if strings.HasPrefix(status, "error") {
				t.Errorf("%s: %d articles %s", modeName(&m), n, status)
			}
			verdicts += n
		}
		if verdicts != res.Articles || len(run.HTTPErrors) != 0 {
			t.Errorf("%s: %d verdicts for %d articles, non-2xx %v", modeName(&m), verdicts, res.Articles, run.HTTPErrors)
		}
		switch {
		case m.Kind == newsFingerprint && run.Stored != 0:
			t.Errorf("fingerprint-only stored %d articles", run.Stored)
		case m.Kind != newsFingerprint && run.Stored != res.Articles:
			t.Errorf("%s: %d articles stored, want the %d sent", modeName(&m), run.Stored, res.Articles)
		}
		switch {
		case m.Kind == newsFingerprint && run.Bytes != nil:
			t.Errorf("fingerprint-only measured bytes: %+v", *run.Bytes)
		case m.Kind != newsFingerprint && (run.Bytes == nil || run.Bytes.Database <= 0):
			t.Errorf("%s: bytes grown %+v, want the database grown", modeName(&m), run.Bytes)
		case m.Kind != newsFingerprint && m.Sentences != (run.Bytes.Sentences > 0):
			t.Errorf("%s: the sentence index grew by %d bytes", modeName(&m), run.Bytes.Sentences)
		}
		switch {
		case m.Kind == newsFingerprint && run.Sessions != nil:
			t.Errorf("fingerprint-only sampled database sessions: %+v", *run.Sessions)
		case m.Kind != newsFingerprint && (run.Sessions == nil || run.Sessions.Samples < 1):
			t.Errorf("%s: database sessions %+v, want at least one sample", modeName(&m), run.Sessions)
		}
		if (m.Kind == newsBatch) != (m.Ratio != nil) {
			t.Errorf("%s: ratio to fingerprint-only %v", modeName(&m), m.Ratio)
		}
		switch {
		case m.CPU == nil || m.CPU.Process.Median <= 0 || m.CPU.Cores.Median <= 0:
			t.Errorf("%s: CPU time per article %+v", modeName(&m), m.CPU)
		case m.Kind == newsFingerprint && m.CPU.Server != nil:
			t.Errorf("fingerprint-only counts the server's CPU time: %+v", *m.CPU.Server)
		case m.Kind != newsFingerprint && (m.CPU.Server != nil) != (res.ServerCPU == ""):
			t.Errorf("%s: the server's CPU time %v, yet why it was not measured: %q", modeName(&m), m.CPU.Server, res.ServerCPU)
		}
	}
	if batches := res.mode(newsBatch, true, 2).Runs[0].RequestMS.N; batches != (res.Articles+9)/10 {
		t.Errorf("%d batches, want %d", batches, (res.Articles+9)/10)
	}
	if singles := res.mode(newsSingle, false, 0).Runs[0].RequestMS.N; singles != res.Articles {
		t.Errorf("%d single requests, want %d", singles, res.Articles)
	}
	if left := databasesLeft(t, cfg); left != 0 {
		t.Errorf("%d databases named %s* are left", left, cfg.dbPrefix)
	}
	return res
}

// Without the corpora, the section ingests 围城 articles and says so, in
// the report and in the goals.
func TestNewsIngestFallback(t *testing.T) {
	cfg := newsTestConfig(t, filepath.Join(t.TempDir(), "no-corpora"), 30)
	res := runNewsSection(t, cfg)
	if res.Source != newsSourceNovel || !strings.Contains(res.Fallback, "no-corpora") || res.Articles != 30 {
		t.Errorf("source %q, fallback %q, %d articles; want 30 围城 articles and why", res.Source, res.Fallback, res.Articles)
	}
	var b strings.Builder
	writeNewsIngest(&b, res, true)
	md := b.String()
	for _, want := range []string{"## " + newsSectionTitle, "real corpora were MISSING", "no-corpora", "not** figures on real news", "### Goals of this section", "sentence index", "### CPU time per article", "### Bytes per article", "### What the database's sessions were doing", "≤ 3× that without it"} {
		if !strings.Contains(md, want) {
			t.Errorf("the section does not say %q:\n%s", want, md)
		}
	}
	for _, g := range append(newsGoals(res), sentenceCostGoals(res)...) {
		if !strings.Contains(g.Note, "not real news") {
			t.Errorf("goal %q does not say it was measured on 围城: %+v", g.Goal, g)
		}
	}
}

// With a corpus folder, the section reads the Sina file. The corpus here
// is generated (word soup), not real text.
func TestNewsIngestCorpus(t *testing.T) {
	dir := t.TempDir()
	soup, err := wordSoup(25)
	if err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	for i, a := range soup {
		lines = append(lines, map[string]any{"id": 1000 + i, "title": a.Title, "text": a.Body, "title_matches_body": true})
	}
	if err := newscorpus.WriteLines(dir, newscorpus.Sina, lines); err != nil {
		t.Fatal(err)
	}
	cfg := newsTestConfig(t, dir, 20)
	res := runNewsSection(t, cfg)
	if res.Source != newsSourceSina || res.Fallback != "" || res.Articles != 20 {
		t.Errorf("source %q, fallback %q, %d articles; want the first 20 of the Sina file", res.Source, res.Fallback, res.Articles)
	}
	var b strings.Builder
	writeNewsIngest(&b, res, false)
	if md := b.String(); strings.Contains(md, "MISSING") || !strings.Contains(md, "first 20 articles of the Sina corpus") {
		t.Errorf("the section:\n%s", md)
	}

	// Each statement: every batch run's, when the server preloads
	// pg_stat_statements (devdb's does), the articles' write among them.
	preloaded, err := resetStatements(context.Background(), cfg.serverURL)
	if err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, m := range res.modesOf(newsBatch) {
		for _, run := range m.Runs {
			writes := false
			for _, s := range run.Statements {
				writes = writes || strings.Contains(strings.ToLower(s.Query), `"articles"`) || strings.Contains(s.Query, "INSERT INTO articles")
			}
			if preloaded != writes {
				t.Errorf("sentence index %s: preloaded %v, but the run's statements write articles: %v (%d statements)", onOff(m.Sentences), preloaded, writes, len(run.Statements))
			}
		}
	}
	if preloaded != strings.Contains(md, "| calls an article |") || preloaded == strings.Contains(md, "Not measured: the server does not preload") {
		t.Errorf("preloaded %v; the section:\n%s", preloaded, md)
	}
}

func TestOnlyFlag(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://nowhere/x")
	if _, err := parseFlags([]string{"-only", "tiers"}, &strings.Builder{}); err == nil {
		t.Error("-only tiers was accepted")
	}
	cfg, err := parseFlags([]string{"-only", onlyNewsIngest, "-corpora", "/somewhere", "-news-articles", "50"}, &strings.Builder{})
	if err != nil || cfg.only != onlyNewsIngest || cfg.corpora != "/somewhere" || cfg.newsArticles != 50 || cfg.newsReps != 3 {
		t.Errorf("parseFlags() = %+v, %v", cfg, err)
	}
}

// databasesLeft counts the databases named with cfg's prefix.
func databasesLeft(t *testing.T, cfg *config) int {
	t.Helper()
	pool, err := openPool(t.Context(), cfg.serverURL, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var n int
	if err := pool.QueryRow(t.Context(), "SELECT count(*) FROM pg_database WHERE datname LIKE $1", cfg.dbPrefix+"%").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// -pool sets the in-process service's pool, and refuses a pool without a
// connection.
func TestPoolFlag(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://nowhere/x")
	if cfg, err := parseFlags(nil, &strings.Builder{}); err != nil || cfg.poolSize != 16 {
		t.Errorf("default: poolSize %d, %v", cfg.poolSize, err)
	}
	if cfg, err := parseFlags([]string{"-pool", "4"}, &strings.Builder{}); err != nil || cfg.poolSize != 4 {
		t.Errorf("-pool 4: poolSize %d, %v", cfg.poolSize, err)
	}
	if _, err := parseFlags([]string{"-pool", "0"}, &strings.Builder{}); err == nil {
		t.Error("-pool 0 accepted")
	}
}
