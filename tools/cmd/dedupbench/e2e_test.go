package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestTinyRun runs every measurement at 2,000 rows against the real server
// and checks the outputs hang together.
func TestTinyRun(t *testing.T) {
	server := dbtest.ServerURL(t)
	var suffix [4]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig()
	cfg.serverURL = server
	cfg.dbPrefix = "benchtest_" + hex.EncodeToString(suffix[:]) + "_"
	cfg.tiers = []int{2_000}
	cfg.queries = 30
	cfg.realGroups = 100
	cfg.scanQueries = 10
	cfg.trgmQueries = 2
	cfg.unrelated = 20
	cfg.seqDuration = 500 * time.Millisecond
	cfg.checkDuration = time.Second
	cfg.checkClients = 4
	cfg.ingestCount = 200
	cfg.ingestClients = []int{1, 2}
	cfg.batchSize = 50
	cfg.fpDuration = 200 * time.Millisecond
	cfg.poolSize = 4
	cfg.corpora = "" // the real-news section falls back to 围城 (news_ingest_test.go tests it)
	cfg.newsArticles = 20
	cfg.newsReps = 1
	cfg.newsBatchSize = 10
	cfg.newsSingleClients = 4
	cfg.sentenceRows = 3_000 // the section on 围城 too (sentence_lookup_test.go tests it)
	cfg.sentenceArticles = 30
	cfg.sentenceQueries = 8
	cfg.sentenceLargeRows = 0 // TestSentenceOnly grows the index
	cfg.newsCheckRows = 3_000 // without the corpora the section says so and measures nothing (news_check_test.go measures it)
	cfg.correctionDependants = []int{0, 5}
	cfg.correctionReps = 1
	cfg.out = t.TempDir()
	cfg.command = "go test ./cmd/dedupbench"
	cfg.progress = testWriter{t}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // the real-news section adds about 20 s on a loaded machine
	defer cancel()
	res, err := bench(ctx, &cfg)
	if err != nil {
		t.Fatalf("bench() error: %v", err)
	}
	if err := writeOutputs(cfg.out, res); err != nil {
		t.Fatalf("writeOutputs() error: %v", err)
	}

	if len(res.Tiers) != 1 {
		t.Fatalf("%d tiers, want 1", len(res.Tiers))
	}
	tr := res.Tiers[0]
	if tr.Mix != (Mix{N: 2_000, Real: 400, Variants: 800, Random: 800}) {
		t.Errorf("mix = %+v", tr.Mix)
	}
	scan, a, both, trgm := tr.method(methodScan), tr.method(methodFamilyA), tr.method(methodBoth), tr.method(methodTrgm)
	if scan == nil || a == nil || both == nil || trgm == nil {
		t.Fatalf("methods = %+v, want full scan, family A, both and pg_trgm", tr.Methods)
	}
	if scan.Queries != 30 || both.Queries != 30 || trgm.Queries != 2 {
		t.Errorf("queries: scan %d, both %d, trgm %d; want 30, 30, 2", scan.Queries, both.Queries, trgm.Queries)
	}
	if scan.Examined.Min != 2_000 || scan.Examined.Max != 2_000 {
		t.Errorf("the full scan examined %v–%v rows, want 2,000 each time", scan.Examined.Min, scan.Examined.Max)
	}
	if !(both.Examined.Mean <= a.Examined.Mean && a.Examined.Mean < scan.Examined.Mean) {
		t.Errorf("examined means: both %v, family A %v, scan %v; want both ≤ A < scan", both.Examined.Mean, a.Examined.Mean, scan.Examined.Mean)
	}
	// Every method finds the same matches: the index loses none within 3 bits.
	if both.Returned.Mean != a.Returned.Mean || scan.Returned.Mean < 1 {
		t.Errorf("returned means: both %v, family A %v, scan %v", both.Returned.Mean, a.Returned.Mean, scan.Returned.Mean)
	}
	if trgm.Returned.Min < 1 {
		t.Errorf("pg_trgm found nothing for some repost: %+v", trgm.Returned)
	}
	if tr.Sizes.BlockTotal <= 0 || len(tr.Sizes.BlockIndexes) != 8 || tr.Sizes.Heap <= 0 {
		t.Errorf("sizes = %+v", tr.Sizes)
	}
	if c := res.ColumnType; c == nil || c.Bigint.Heap <= c.Smallint.Heap || c.BigintLook.Returned.Mean != both.Returned.Mean {
		t.Errorf("column type = %+v", c)
	}
	if len(tr.Unrelated) != 2 || tr.unrelated(methodBoth).Returned.Max != 0 || tr.unrelated(methodBoth).Queries != cfg.unrelated {
		t.Errorf("unrelated = %+v, want family A and both, finding nothing", tr.Unrelated)
	}
	if len(res.Check) != 3 || res.Check[0].Requests == 0 || res.Check[1].Clients != 4 || res.Check[2].Corpus != corpusSoup {
		t.Errorf("check = %+v", res.Check)
	} else {
		if res.Check[0].Statuses["near_duplicate"] == 0 {
			t.Errorf("no check of a repost found its original: %v", res.Check[0].Statuses)
		}
		if res.Check[2].Statuses["unique"] != res.Check[2].Requests {
			t.Errorf("word soup checks: %v, want all unique", res.Check[2].Statuses)
		}
	}
	if len(res.Ingest) != 4 { // two corpora, 1 and 2 clients
		t.Fatalf("ingest = %+v", res.Ingest)
	}
	for _, in := range res.Ingest {
		if in.Statuses["error"] != 0 || in.PerSecond <= 0 {
			t.Errorf("ingest with %d clients: %+v", in.Clients, in)
		}
		total := 0
		for _, n := range in.Statuses {
			total += n
		}
		if total != 200 {
			t.Errorf("ingest with %d clients gave %d verdicts, want 200", in.Clients, total)
		}
		if in.WordsMean < 10 {
			t.Errorf("ingest of %s: %v words per article", in.Corpus, in.WordsMean)
		}
	}
	if soup, novel := res.Ingest[2], res.Ingest[0]; soup.Corpus != corpusSoup || soup.NeighboursMean >= novel.NeighboursMean {
		t.Errorf("word soup has %v neighbours per article, 围城 %v: want fewer", soup.NeighboursMean, novel.NeighboursMean)
	}
	if res.Fingerprint.MBPerSec <= 0 {
		t.Errorf("fingerprint = %+v", res.Fingerprint)
	}
	if len(res.Goals) == 0 {
		t.Error("no goals")
	}
	if n := res.NewsIngest; n == nil || n.Source != newsSourceNovel || n.Articles != 20 {
		t.Errorf("real-news section = %+v, want 20 围城 articles", n)
	}
	if n := res.NewsCheck; n == nil || n.Skipped == "" || len(n.Runs) != 0 {
		t.Errorf("check-on-real-news section = %+v, want it skipped without the corpora", n)
	}
	if s := res.SentenceLookup; s == nil || s.Loaded != cfg.sentenceRows || s.Queries != cfg.sentenceQueries {
		t.Errorf("sentence-lookup section = %+v, want %d rows and %d queries", s, cfg.sentenceRows, cfg.sentenceQueries)
	}
	if c := res.Corrections; c == nil || len(c.Runs) != 2*len(correctionOps) || c.run(opDelete, 5) == nil || c.run(opDelete, 5).MS.N != 1 {
		t.Errorf("corrections section = %+v, want each operation at 0 and 5 dependants, once", c)
	}

	md, err := os.ReadFile(filepath.Join(cfg.out, reportFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Benchmarks", "## Goals", plotFile, "## Column type", "/v1/check", "2,000 rows", "## " + newsSectionTitle, "## " + newsCheckSectionTitle, "## " + sentenceSectionTitle, "## " + correctionsSectionTitle} {
		if !strings.Contains(string(md), want) {
			t.Errorf("%s does not mention %q", reportFile, want)
		}
	}
	var back Results
	data, err := os.ReadFile(filepath.Join(cfg.out, jsonFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &back); err != nil || len(back.Tiers) != 1 {
		t.Errorf("%s does not read back: %v", jsonFile, err)
	}
	png, err := os.ReadFile(filepath.Join(cfg.out, plotFile))
	if err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
		t.Errorf("%s is not a PNG: %v", plotFile, err)
	}

	// The run dropped every database it made.
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var left int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_database WHERE datname LIKE $1", cfg.dbPrefix+"%").Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d databases named %s* are left", left, cfg.dbPrefix)
	}
}

// testWriter sends progress lines to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
