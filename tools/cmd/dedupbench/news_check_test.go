package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

// testNewsItems are n items of generated text (word soup, not real news),
// published a minute apart.
func testNewsItems(t *testing.T, n int) []newsItem {
	t.Helper()
	soup, err := wordSoup(n)
	if err != nil {
		t.Fatal(err)
	}
	items := make([]newsItem, n)
	for i, a := range soup {
		items[i] = newsItem{ExternalID: fmt.Sprintf("sina-%d", i), Title: a.Title, Body: a.Body,
			Published: newscorpus.SinaStart.Add(time.Duration(i) * time.Minute)}
	}
	return items
}

// The held-out articles are never among the stored ones, the stored keep
// the corpora's order, and the split is the same every run.
func TestSplitHeldOut(t *testing.T) {
	items := make([]newsItem, 500)
	for i := range items {
		items[i] = newsItem{ExternalID: fmt.Sprintf("a-%03d", i)}
	}
	ids := func(its []newsItem) []string {
		out := make([]string, len(its))
		for i, it := range its {
			out[i] = it.ExternalID
		}
		return out
	}
	stored, held := splitHeldOut(items, 100, 0)
	if len(stored) != 400 || len(held) != 100 {
		t.Fatalf("%d stored, %d held out; want 400 and 100", len(stored), len(held))
	}
	storedIDs := ids(stored)
	for _, id := range ids(held) {
		if slices.Contains(storedIDs, id) {
			t.Errorf("%s is both held out and stored", id)
		}
	}
	if !slices.IsSorted(storedIDs) {
		t.Error("the stored articles are not in the corpora's order")
	}
	if slices.IsSorted(ids(held)) {
		t.Error("the held-out articles are not drawn at random")
	}
	again, heldAgain := splitHeldOut(items, 100, 0)
	if !slices.Equal(ids(again), storedIDs) || !slices.Equal(ids(heldAgain), ids(held)) {
		t.Error("the split differs from one run to the next")
	}
	capped, heldCapped := splitHeldOut(items, 100, 50)
	if len(capped) != 50 || !slices.Equal(ids(heldCapped), ids(held)) || !slices.IsSorted(ids(capped)) {
		t.Errorf("with a limit of 50: %d stored, held out the same %v", len(capped), slices.Equal(ids(heldCapped), ids(held)))
	}
	for _, id := range ids(capped) {
		if !slices.Contains(storedIDs, id) {
			t.Errorf("with a limit, %s is stored though it is not without one", id)
		}
	}
}

// A repost is an edited copy of a stored article, published an hour after
// it; the check bodies carry title, body and publication time only.
func TestNewsRepostsAndBodies(t *testing.T) {
	novel, err := corpus.LoadNovel()
	if err != nil {
		t.Fatal(err)
	}
	stored := testNewsItems(t, 40)
	byID := map[string]newsItem{}
	for _, it := range stored {
		byID[it.ExternalID] = it
	}
	reposts := newsReposts(novel, stored, 15)
	if len(reposts) != 15 {
		t.Fatalf("%d reposts, want 15", len(reposts))
	}
	seen, changed := map[string]bool{}, 0
	for _, r := range reposts {
		o, ok := byID[strings.TrimPrefix(r.ExternalID, "repost-")]
		if !ok || seen[o.ExternalID] {
			t.Fatalf("repost %s is not of a stored article drawn once", r.ExternalID)
		}
		seen[o.ExternalID] = true
		if !r.Published.Equal(o.Published.Add(time.Hour)) {
			t.Errorf("repost of %s published %v, want an hour after %v", o.ExternalID, r.Published, o.Published)
		}
		if r.Title != o.Title || r.Body != o.Body {
			changed++
		}
	}
	if changed < 10 {
		t.Errorf("only %d of 15 reposts differ from their originals", changed)
	}
	if again := newsReposts(novel, stored, 15); !slices.Equal(again, reposts) {
		t.Error("the reposts differ from one run to the next")
	}
	if n := len(newsReposts(novel, stored[:5], 15)); n != 5 {
		t.Errorf("%d reposts of 5 stored articles", n)
	}

	bodies, err := newsCheckBodies(reposts[:2])
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(bodies[1], &got); err != nil {
		t.Fatal(err)
	}
	if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, []string{"body", "published_at", "title"}) {
		t.Errorf("a check body has the keys %v", keys)
	}
	if got["title"] != reposts[1].Title || got["body"] != reposts[1].Body || got["published_at"] != reposts[1].Published.Format(time.RFC3339) {
		t.Errorf("the body is not the repost's: %.80v", got)
	}
}

// fixedNewsCheck is a measured section with made-up figures: p99s of 8 ms
// and 60 ms for the reposts, 12 ms and 40 ms for the new stories.
func fixedNewsCheck(rows int) *NewsCheckResult {
	run := func(kind string, clients int, p99 float64) NewsCheckRun {
		return NewsCheckRun{Kind: kind, CandidatesMean: 1.5, LoadAtStart: 1.25, CheckResult: CheckResult{
			Corpus: "news", Clients: clients, Seconds: 10, Requests: 4_000, PerSecond: 400,
			LatencyMS: Summary{N: 4_000, Median: 2.5, P90: 4, P99: p99, Max: 90},
			Statuses:  map[string]int{"unique": 3_000, "near_duplicate": 1_000}, Database: "bench_news_check", DatabaseN: rows,
		}}
	}
	return &NewsCheckResult{
		Date: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC), Command: "go run ./cmd/dedupbench -only news-check", Commit: "abc123",
		CorporaDir: "/corpora", Database: "bench_news_check", Rows: rows, Loaded: rows,
		News: 26_890, Sina: 7_600, CCTV: 19_290, Random: rows - 26_890, Blank: 12, HeldOut: 1_000, Reposts: 1_000,
		SentenceRows: 400_000, Ingest: NewsRun{PerSecond: 250, Statuses: map[string]int{"unique": 26_000, "near_duplicate": 890}},
		IngestClients: 2, BatchSize: 200, PoolSize: 16, Cores: 2,
		Build:         NewsCheckTimings{CopySeconds: 20, IndexSeconds: 5, VacuumSeconds: 3, IngestSeconds: 107},
		WarmupSeconds: 2, SeqSeconds: 10, CheckSeconds: 30, CheckClients: 16,
		Runs: []NewsCheckRun{
			run(newsCheckReposts, 1, 8), run(newsCheckReposts, 16, 60),
			run(newsCheckNew, 1, 12), run(newsCheckNew, 16, 40),
		},
		FingerprintMS: map[string]Summary{newsCheckReposts: {N: 1_000, Median: 1.5, P99: 6}, newsCheckNew: {N: 1_000, Median: 1.25, P99: 9}},
		Load:          []LoadSample{{Load1: 1.5}, {Load1: 2.75}},
		TotalSeconds:  300,
	}
}

func TestNewsCheckGoals(t *testing.T) {
	goals := newsCheckGoals(fixedNewsCheck(goalTier))
	want := []struct {
		kind, who, status string
	}{
		{"reposts of stored news", "one client", statusMet},
		{"reposts of stored news", "16 clients", statusNotMet},
		{"new stories", "one client", statusNotMet},
		{"new stories", "16 clients", statusMet},
	}
	if len(goals) != len(want) {
		t.Fatalf("%d goals, want %d: %+v", len(goals), len(want), goals)
	}
	for i, w := range want {
		g := goals[i]
		if !strings.Contains(g.Goal, "at 1,000,000 rows on real news") || !strings.Contains(g.Goal, w.kind) || !strings.Contains(g.Goal, w.who) || g.Status != w.status {
			t.Errorf("goal %d = %+v, want %s, %s: %s", i, g, w.kind, w.who, w.status)
		}
	}
	if !strings.Contains(goals[1].Goal, "≤ 50 ms") || !strings.Contains(goals[0].Goal, "≤ 10 ms") || !strings.Contains(goals[1].Measured, "p99 60.0 ms") {
		t.Errorf("limits or figures: %+v", goals[:2])
	}

	for _, g := range newsCheckGoals(fixedNewsCheck(50_000)) {
		if g.Status != statusNotMeasured || !strings.Contains(g.Note, "50,000 rows") || g.Measured == "" {
			t.Errorf("at 50,000 rows: %+v, want the figure shown, not judged", g)
		}
	}
	capped := fixedNewsCheck(goalTier)
	capped.Unstored = 20_000
	for _, g := range newsCheckGoals(capped) {
		if g.Status != statusNotMeasured || !strings.Contains(g.Note, "-news-check-articles") {
			t.Errorf("with news left out: %+v", g)
		}
	}
	for _, r := range []*NewsCheckResult{nil, {Skipped: "the corpora folder \"/x\" does not exist"}} {
		if g := newsCheckGoals(r); len(g) != 1 || g[0].Status != statusNotMeasured || g[0].Note == "" {
			t.Errorf("newsCheckGoals(%+v) = %+v, want one goal not measured, and why", r, g)
		}
	}
	// The run's goals hold them, once.
	n := 0
	for _, g := range judgeGoals(&Results{NewsCheck: fixedNewsCheck(goalTier)}) {
		if strings.Contains(g.Goal, "on real news —") {
			n++
		}
	}
	if n != 4 {
		t.Errorf("judgeGoals gives %d check-on-real-news goals, want 4", n)
	}
}

func TestWriteNewsCheck(t *testing.T) {
	var b strings.Builder
	writeNewsCheck(&b, fixedNewsCheck(goalTier), true)
	md := b.String()
	for _, want := range []string{
		"## " + newsCheckSectionTitle,
		"**1,000,000 rows**", "**26,890 real news articles**: 7,600 Sina and 19,290 CCTV", "**973,110 random fingerprints**",
		"1,000 held out", "12 with a blank body left out", "400,000 of them", "**through the service**", "batches of 200, 2 clients",
		"**These figures include the sentence index**", "1.50 at the start, 2.75 at the end",
		"| reposts | 1 | 10.0 s | 4,000 | 400 | 2.50 ms | 4.00 ms | 8.00 ms | 90.0 ms | 1.50 | near_duplicate 1,000, unique 3,000 | 1.25 |",
		"| new stories | 16 |", "an hour after its original", "16 clients on 2 cores", "16 / 400 per s = 40.0 ms", "### Goals of this section", "**not met**",
		"/v1/check p99 ≤ 50 ms at 1,000,000 rows on real news — new stories (never stored), 16 clients",
		"Fingerprinting alone", "the reposts p50 1.50 ms, p99 6.00 ms (75 % of the one-client check's p99)",
		"the new stories p50 1.25 ms, p99 9.00 ms (75 % of the one-client check's p99)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the section does not say %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "MISSING") || strings.Contains(md, "not at 1,000,000") {
		t.Errorf("the section says the corpora were missing or the size was another:\n%s", md)
	}

	b.Reset()
	writeNewsCheck(&b, fixedNewsCheck(50_000), false)
	if md := b.String(); !strings.Contains(md, "**Measured at 50,000 rows, not at 1,000,000**") || strings.Contains(md, "Goals of this section") {
		t.Errorf("at 50,000 rows without goals:\n%s", md)
	}

	b.Reset()
	writeNewsCheck(&b, &NewsCheckResult{Skipped: "the corpora folder \"/x\" does not exist", Command: "x"}, true)
	if md := b.String(); !strings.Contains(md, "**The real corpora were MISSING**") || !strings.Contains(md, "/x") || strings.Contains(md, "| reposts |") {
		t.Errorf("without the corpora:\n%s", md)
	}

	// The full report puts the section after the real-news ingest.
	report := renderReport(&Results{NewsIngest: &NewsIngestResult{}, NewsCheck: fixedNewsCheck(goalTier)})
	if i, j := strings.Index(report, "## "+newsSectionTitle), strings.Index(report, "## "+newsCheckSectionTitle); i < 0 || j < i {
		t.Errorf("the report has the real-news ingest at %d and the check on real news at %d", i, j)
	}
}

// TestNewsCheckRepetitions holds the section's figures to the median
// repetition by p99: the run shown, the goal judged, the spread written.
func TestNewsCheckRepetitions(t *testing.T) {
	r := fixedNewsCheck(goalTier)
	r.Reps = 3
	first := slices.Clone(r.Runs)
	for i := range r.Runs {
		r.Runs[i].Rep = 1
	}
	// The reposts with 16 clients: p99 60 ms, then 45 and 48 ms (and 300,
	// 500 and 450 requests/s); the median repetition is the third, within
	// the goal, though the first was not.
	for rep, p99 := range []float64{45, 48} {
		for _, run := range first {
			run.Rep = rep + 2
			if run.Kind == newsCheckReposts && run.Clients == 16 {
				run.LatencyMS.P99, run.PerSecond = p99, []float64{500, 450}[rep]
			}
			r.Runs = append(r.Runs, run)
		}
	}
	r.Runs[1].PerSecond = 300

	run := r.run(newsCheckReposts, 16)
	if run == nil || run.Rep != 3 || run.LatencyMS.P99 != 48 {
		t.Fatalf("the median run of the reposts with 16 clients is %+v, want the third repetition's (p99 48 ms)", run)
	}
	if got := len(r.runsOf(newsCheckNew, 1)); got != 3 {
		t.Errorf("%d repetitions of the new stories with one client, want 3", got)
	}
	if p99, rate := r.spread(newsCheckReposts, 16); p99.Min != 45 || p99.Max != 60 || rate.Min != 300 || rate.Max != 500 {
		t.Errorf("spread: p99 %v–%v, requests/s %v–%v; want 45–60 and 300–500", p99.Min, p99.Max, rate.Min, rate.Max)
	}
	for _, g := range newsCheckGoals(r) {
		if strings.Contains(g.Goal, "reposts") && strings.Contains(g.Goal, "16 clients") {
			if g.Status != statusMet || !strings.Contains(g.Measured, "p99 48.0 ms (median of 3 runs; 45.0–60.0)") || !strings.Contains(g.Measured, "450 requests/s (300–500)") {
				t.Errorf("the reposts' 16-client goal: %+v", g)
			}
		}
	}
	var b strings.Builder
	writeNewsCheck(&b, r, false)
	md := b.String()
	for _, want := range []string{
		"All of it ran 3 times, in turn", "**median repetition by p99**",
		"| reposts | 16 | 10.0 s | 4,000 | 450 (300–500) | 2.50 ms | 4.00 ms | 48.0 ms (45.0–60.0) | 90.0 ms |",
		"| new stories | 1 | 10.0 s | 4,000 | 400 (400–400) | 2.50 ms | 4.00 ms | 12.0 ms (12.0–12.0) |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the section does not say %q:\n%s", want, md)
		}
	}
	if strings.Count(md, "| reposts | 16 |") != 1 {
		t.Errorf("the table has a row for each repetition, want one a run:\n%s", md)
	}
}

func TestNewsCheckFlags(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://nowhere/x")
	cfg, err := parseFlags([]string{"-only", onlyNewsCheck, "-news-check-rows", "50000", "-news-check-articles", "3000"}, &strings.Builder{})
	if err != nil || cfg.only != onlyNewsCheck || cfg.newsCheckRows != 50_000 || cfg.newsCheckArticles != 3_000 || cfg.newsCheckQueries != 1_000 {
		t.Errorf("parseFlags() = %+v, %v", cfg, err)
	}
	if _, err := parseFlags([]string{"-only", onlyNewsCheck, "-news-check-rows", "0"}, &strings.Builder{}); err == nil {
		t.Error("-only news-check with -news-check-rows 0 was accepted")
	}
	if cfg, err := parseFlags(nil, &strings.Builder{}); err != nil || cfg.newsCheckRows != 1_000_000 || cfg.newsCheckArticles != 0 || cfg.newsCheckReps != 3 {
		t.Errorf("defaults: -news-check-rows %d, -news-check-articles %d, -news-check-reps %d, %v", cfg.newsCheckRows, cfg.newsCheckArticles, cfg.newsCheckReps, err)
	}
	if cfg, err := parseFlags([]string{"-news-check-reps", "5"}, &strings.Builder{}); err != nil || cfg.newsCheckReps != 5 {
		t.Errorf("-news-check-reps 5: %d, %v", cfg.newsCheckReps, err)
	}
	if _, err := parseFlags([]string{"-news-check-reps", "0"}, &strings.Builder{}); err == nil {
		t.Error("-news-check-reps 0 was accepted")
	}
}

// writeTestCorpora writes a Sina and a CCTV file of generated text (word
// soup, not real news) into a folder, n articles each, and a blank one in
// each that the section must leave out.
func writeTestCorpora(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	soup, err := wordSoup(2 * n)
	if err != nil {
		t.Fatal(err)
	}
	for c, name := range []string{newscorpus.Sina, newscorpus.CCTV} {
		var lines []map[string]any
		for i := range n + 1 {
			line := map[string]any{"id": 1000 + i, "title": "空白", "text": " ", "title_matches_body": true}
			if i < n {
				a := soup[c*n+i]
				line["title"], line["text"] = a.Title, a.Body
			}
			if name == newscorpus.CCTV {
				line["id"], line["date"] = fmt.Sprintf("c%d", i), time.Date(2023, 1, 1+i/10, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
			}
			lines = append(lines, line)
		}
		if err := newscorpus.WriteLines(dir, name, lines); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestNewsCheckOnly runs -only news-check on a tiny database (3,000 rows,
// 40 generated articles of each corpus, 10 held out) into a folder holding
// docs/benchmarks.json, and checks the rows, that no held-out article was
// stored, the verdicts, the merge, and that the database is gone once
// dropped.
func TestNewsCheckOnly(t *testing.T) {
	cfg := newsTestConfig(t, writeTestCorpora(t, 40), 1)
	cfg.newsCheckRows = 3_000
	cfg.newsCheckQueries = 10
	cfg.batchSize = 20
	cfg.seqDuration = 300 * time.Millisecond
	cfg.checkDuration = 500 * time.Millisecond
	cfg.checkClients = 4
	cfg.newsCheckReps = 2
	cfg.keep = true // to look at the database; dropped below
	cfg.out = t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", jsonFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg.out, jsonFile), data, 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var stdout strings.Builder
	err = runNewsCheckOnly(ctx, cfg, &stdout)
	t.Cleanup(func() {
		if err := dropDatabase(context.Background(), cfg.serverURL, cfg.dbPrefix+"news_check"); err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatalf("runNewsCheckOnly() error: %v", err)
	}

	var after Results
	if data, err = os.ReadFile(filepath.Join(cfg.out, jsonFile)); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &after); err != nil || len(after.Tiers) == 0 {
		t.Fatalf("%s after the merge: %v, %d tiers", jsonFile, err, len(after.Tiers))
	}
	r := after.NewsCheck
	if r == nil || r.Skipped != "" {
		t.Fatalf("news check = %+v", r)
	}
	if r.Loaded != 3_000 || r.News != 70 || r.Sina+r.CCTV != 70 || r.Random != 2_930 || r.HeldOut != 10 || r.Reposts != 10 || r.Blank != 2 {
		t.Errorf("loaded %d rows: %d news (%d Sina, %d CCTV), %d random, %d held out, %d reposts, %d blank", r.Loaded, r.News, r.Sina, r.CCTV, r.Random, r.HeldOut, r.Reposts, r.Blank)
	}
	if r.SentenceRows == 0 || r.Ingest.Statuses["unique"] == 0 {
		t.Errorf("%d sentence rows, ingest verdicts %v", r.SentenceRows, r.Ingest.Statuses)
	}
	assertNothingHeldOutStored(ctx, t, cfg, r)
	if len(r.Runs) != 8 || r.Reps != 2 {
		t.Fatalf("%d runs in %d repetitions, want reposts and new stories with 1 and 4 clients, twice", len(r.Runs), r.Reps)
	}
	for i, run := range r.Runs {
		if want := 1 + i/4; run.Rep != want {
			t.Errorf("run %d (%s, %d clients) is of repetition %d, want %d", i, run.Kind, run.Clients, run.Rep, want)
		}
		if run.Requests == 0 || run.LatencyMS.P99 <= 0 || run.DatabaseN != 3_000 {
			t.Errorf("%s with %d clients: %+v", run.Kind, run.Clients, run)
		}
		if run.CPU == nil || run.CPU.ProcessSeconds <= 0 || (run.CPU.ServerSeconds != nil) != (r.ServerCPU == "") {
			t.Errorf("%s with %d clients: CPU time %+v, yet why the server's was not measured: %q", run.Kind, run.Clients, run.CPU, r.ServerCPU)
		}
	}
	// A repost finds its original; a new story is nobody's copy.
	if rp := r.run(newsCheckReposts, 1); rp.Statuses["unique"] == rp.Requests || rp.CandidatesMean <= 0 {
		t.Errorf("reposts: %v, %.2f candidates a check; want their originals found", rp.Statuses, rp.CandidatesMean)
	}
	if ns := r.run(newsCheckNew, 4); ns.Statuses["exact_duplicate"] != 0 || ns.Statuses["near_duplicate"] != 0 {
		t.Errorf("new stories: %v, want none a copy", ns.Statuses)
	}
	var goals int
	for _, g := range after.Goals {
		if strings.Contains(g.Goal, "on real news —") {
			goals++
			if g.Status != statusNotMeasured || !strings.Contains(g.Note, "3,000 rows") {
				t.Errorf("goal at 3,000 rows: %+v", g)
			}
		}
	}
	if goals != 4 {
		t.Errorf("%d check-on-real-news goals in the merged results, want 4", goals)
	}
	md, err := os.ReadFile(filepath.Join(cfg.out, reportFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{string(md), stdout.String()} {
		if !strings.Contains(text, "## "+newsCheckSectionTitle) || !strings.Contains(text, "**3,000 rows**") {
			t.Errorf("the section is not in:\n%.2000s", text)
		}
	}
}

// assertNothingHeldOutStored checks, in the kept database, that the
// stored news is the corpora's less the held-out articles.
func assertNothingHeldOutStored(ctx context.Context, t *testing.T, cfg *config, r *NewsCheckResult) {
	t.Helper()
	set, why, err := readNewsCheckSet(ctx, cfg.corpora, cfg.newsCheckQueries, cfg.newsCheckArticles)
	if err != nil || why != "" {
		t.Fatalf("readNewsCheckSet() = %q, %v", why, err)
	}
	dbURL, err := dbtest.DatabaseURL(cfg.serverURL, r.Database)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := openPool(ctx, dbURL, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	ids := make([]string, len(set.HeldOut))
	for i, it := range set.HeldOut {
		ids[i] = it.ExternalID
	}
	var stored, held int
	err = pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE NOT external_id LIKE 'random-%'), count(*) FILTER (WHERE external_id = ANY($1)) FROM articles`, ids).Scan(&stored, &held)
	if err != nil {
		t.Fatal(err)
	}
	if held != 0 || stored != len(set.Stored) {
		t.Errorf("%d held-out articles stored, %d news stored; want 0 and %d", held, stored, len(set.Stored))
	}
}

// The CPU floor is said for the runs with many clients whose PostgreSQL
// CPU was read, from their own figures, and not for the others.
func TestWriteCheckCPUFloor(t *testing.T) {
	r := fixedNewsCheck(goalTier)
	server := 24.0
	many := r.run(newsCheckNew, 16)
	many.Requests, many.CPU = 12_000, &RunCPU{ProcessSeconds: 24, ServerSeconds: &server} // 4 ms a check
	r.run(newsCheckReposts, 16).CPU = &RunCPU{ProcessSeconds: 24}                         // PostgreSQL unread
	r.run(newsCheckNew, 1).CPU = &RunCPU{ProcessSeconds: 1, ServerSeconds: &server}       // one client
	var b strings.Builder
	writeCheckCPUFloor(func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }, r)
	md := b.String()
	want := "the new stories 4.00 ms, at most 500 checks/s, a mean latency of at least 32.0 ms with 16 clients (the goal's p99 of 50 ms is 1.6× that)"
	if !strings.Contains(md, want) || strings.Contains(md, "the reposts") || strings.Count(md, "checks/s") != 1 {
		t.Errorf("the floor:\n%s\nwant it to say %q, and nothing of the reposts", md, want)
	}

	b.Reset()
	writeCheckCPUFloor(func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }, fixedNewsCheck(goalTier))
	if b.Len() > 0 {
		t.Errorf("without CPU figures: %q", b.String())
	}
}
