package main

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

func TestPercentile(t *testing.T) {
	t.Parallel()
	ms := func(vs ...int) []time.Duration {
		var out []time.Duration
		for _, v := range vs {
			out = append(out, time.Duration(v)*time.Millisecond)
		}
		return out
	}
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Millisecond
	}
	tests := []struct {
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{nil, 50, 0},
		{ms(7), 50, 7 * time.Millisecond},
		{ms(7), 99, 7 * time.Millisecond},
		{ms(1, 2), 50, 1 * time.Millisecond},
		{ms(1, 2), 51, 2 * time.Millisecond},
		{ms(1, 2, 3, 4), 50, 2 * time.Millisecond},
		{ms(1, 2, 3, 4), 75, 3 * time.Millisecond},
		{ms(1, 2, 3, 4), 100, 4 * time.Millisecond},
		{ms(1, 2, 3, 4), 0, 1 * time.Millisecond}, // clamped to the first
		{hundred, 50, 50 * time.Millisecond},
		{hundred, 95, 95 * time.Millisecond},
		{hundred, 99, 99 * time.Millisecond},
		{hundred, 99.5, 100 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := percentile(tt.sorted, tt.p); got != tt.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", tt.sorted, tt.p, got, tt.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	var l latencies
	for i := 1000; i >= 1; i-- { // unsorted: summarize sorts
		l = append(l, time.Duration(i)*time.Microsecond)
	}
	got := l.summarize()
	want := summary{Count: 1000, P50: 500 * time.Microsecond, P95: 950 * time.Microsecond, P99: 990 * time.Microsecond, Max: time.Millisecond}
	if got != want {
		t.Errorf("summarize(1..1000 µs) = %+v, want %+v", got, want)
	}
	if got := latencies(nil).summarize(); got != (summary{}) {
		t.Errorf("summarize(nil) = %+v, want zero", got)
	}
}

func TestGrowth(t *testing.T) {
	t.Parallel()
	tests := []struct{ first, last, want float64 }{
		{100, 110, 0.10},
		{100, 90, -0.10},
		{100, 100, 0},
		{0, 0, 0},
		{0, 5, math.Inf(1)},
	}
	for _, tt := range tests {
		if got := growth(tt.first, tt.last); math.Abs(got-tt.want) > 1e-12 && !(math.IsInf(got, 1) && math.IsInf(tt.want, 1)) {
			t.Errorf("growth(%v, %v) = %v, want %v", tt.first, tt.last, got, tt.want)
		}
	}
}

// metricsText is a trimmed /metrics of dedupd.
const metricsText = `# HELP go_memstats_heap_inuse_bytes Number of heap bytes that are in use.
# TYPE go_memstats_heap_inuse_bytes gauge
go_memstats_heap_inuse_bytes 2.9769728e+07
go_gc_heap_live_bytes 2.1111792e+07
# HELP go_gc_duration_seconds A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.
# TYPE go_gc_duration_seconds summary
go_gc_duration_seconds{quantile="0"} 2.3e-05
go_gc_duration_seconds_sum 0.012
# HELP newsdedup_c_heap_bytes Bytes of the C heap in use.
# TYPE newsdedup_c_heap_bytes gauge
newsdedup_c_heap_bytes 1.35663872e+08
process_cpu_seconds_total 12.5
process_resident_memory_bytes 2.05852672e+08 1700000000000
http_requests_total{route="/v1/articles",status="201"} 4
newsdedup_weird{le="+Inf"} +Inf
`

func TestParseMetrics(t *testing.T) {
	t.Parallel()
	got, err := parseMetrics(strings.NewReader(metricsText), memoryMetrics...)
	if err != nil {
		t.Fatalf("parseMetrics error = %v", err)
	}
	want := map[string]float64{
		metricGoHeap: 29769728,
		metricGoLive: 21111792,
		metricCHeap:  135663872,
		metricRSS:    205852672, // the timestamp is not the value
		metricCPU:    12.5,
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("parseMetrics()[%s] = %v, want %v", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("parseMetrics() = %v, want only %v", got, want)
	}

	// A labelled sample is not the unlabelled metric of its name.
	if _, err := parseMetrics(strings.NewReader(`go_gc_duration_seconds{quantile="0"} 1`+"\n"), "go_gc_duration_seconds"); err == nil {
		t.Error("parseMetrics found an unlabelled metric in a labelled sample")
	}
	if v, err := parseMetrics(strings.NewReader("x +Inf\ny NaN\n"), "x", "y"); err != nil || !math.IsInf(v["x"], 1) || !math.IsNaN(v["y"]) {
		t.Errorf("parseMetrics(+Inf, NaN) = %v, %v", v, err)
	}
	for _, bad := range []string{
		"go_memstats_heap_inuse_bytes\n",
		"go_memstats_heap_inuse_bytes lots\n",
		"go_memstats_heap_inuse_bytes 1 2 3\n",
		`go_memstats_heap_inuse_bytes{a="b" 1` + "\n",
	} {
		if _, err := parseMetrics(strings.NewReader(bad), metricGoHeap); err == nil {
			t.Errorf("parseMetrics(%q) error = nil, want one", bad)
		}
	}
	_, err = parseMetrics(strings.NewReader(metricsText), metricGoHeap, "not_there")
	if err == nil || !strings.Contains(err.Error(), "not_there") {
		t.Errorf("parseMetrics with a missing metric error = %v, want one naming it", err)
	}
}

func TestReadingTakesTheSmallestSample(t *testing.T) {
	t.Parallel()
	window := []memSample{
		{GoHeap: 30, GoLive: 12, RSS: 200, CHeap: 100, CPUSeconds: 1},
		{GoHeap: 20, GoLive: 11, RSS: 210, CHeap: 101, CPUSeconds: 2},
		{GoHeap: 40, GoLive: 13, RSS: 205, CHeap: 99, CPUSeconds: 3},
	}
	got := reading("x", window)
	want := memReading{Label: "x", GoHeapBytes: 20, GoLiveBytes: 11, RSSBytes: 200, CHeapBytes: 99, CPUSeconds: 3}
	if got != want {
		t.Errorf("reading() = %+v, want %+v", got, want)
	}
}

func TestJudgeMemory(t *testing.T) {
	t.Parallel()
	r := func(live, rss, c float64) memReading {
		return memReading{GoHeapBytes: 2 * live, GoLiveBytes: live, RSSBytes: rss, CHeapBytes: c}
	}
	swing := r(100, 100, 100)
	swing.GoHeapBytes *= 1.5 // the heap in use does not count
	tests := []struct {
		readings []memReading
		flat     bool
	}{
		{[]memReading{r(100, 100, 100), r(200, 200, 200), r(105, 109, 90)}, true}, // the middle does not count
		{[]memReading{r(100, 100, 100), r(110, 100, 100)}, false},                 // 10% is not below 10%
		{[]memReading{r(100, 100, 100), r(100, 111, 100)}, false},                 // the RSS grew
		{[]memReading{r(100, 100, 100), r(100, 100, 130)}, false},                 // a C heap leak
		{[]memReading{r(100, 100, 100), swing}, true},
		{[]memReading{r(100, 100, 100), r(50, 50, 50)}, true},
		{[]memReading{r(100, 100, 100)}, false}, // cannot judge
	}
	for _, tt := range tests {
		if got := judgeMemory(tt.readings); got.Flat != tt.flat {
			t.Errorf("judgeMemory(%v) = %+v, want flat %v", tt.readings, got, tt.flat)
		}
	}
}

func TestIsError(t *testing.T) {
	t.Parallel()
	for status, want := range map[string]bool{
		"200": false, "201": false, "404": false,
		"400": true, "422": true, "500": true, "503": true, "transport": true, "x": true,
	} {
		if got := isError(status); got != want {
			t.Errorf("isError(%q) = %v, want %v", status, got, want)
		}
	}
}

func TestParseFlags(t *testing.T) {
	t.Parallel()
	s, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatalf("parseFlags() error = %v", err)
	}
	if s.Clients != 50 || s.Duration != time.Minute || s.MinRequests != 100_000 || s.MaxDuration != 8*time.Minute || s.Pool != 16 || s.Reps != 3 {
		t.Errorf("parseFlags() defaults = %+v, want 50 clients, 60 s, 100000 requests, 8 min cap, pool 16, 3 runs", s)
	}
	// Real news, all of it, from ../shared/corpora beside the repository.
	if s.Corpus != corpusNews || s.Articles != 0 || filepath.Base(s.Corpora) != "corpora" || filepath.Base(filepath.Dir(s.Corpora)) != "shared" {
		t.Errorf("parseFlags() defaults: corpus %q, articles %d, corpora %q; want news, 0 (all), …/shared/corpora", s.Corpus, s.Articles, s.Corpora)
	}
	s, err = parseFlags([]string{"-corpus", "novel", "-corpora", "/x/y", "-articles", "300"}, io.Discard)
	if err != nil || s.Corpus != corpusNovel || s.Corpora != "/x/y" || s.Articles != 300 {
		t.Errorf("parseFlags(-corpus novel -corpora /x/y -articles 300) = %+v, %v", s, err)
	}
	for _, args := range [][]string{{"-clients", "0"}, {"-duration", "10m"}, {"extra"}, {"-nope"}, {"-corpus", "sina"}, {"-articles", "-1"}, {"-reps", "0"}} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) error = nil, want one", args)
		}
	}
}

// testNovel loads the novel once for the tests that cut from it.
var testNovel = sync.OnceValues(corpus.LoadNovel)

// writeCorpus writes lines as corpus name's file in dir
// (newscorpus.WriteLines). The text is the test's own.
func writeCorpus(t *testing.T, dir, name string, lines []map[string]any) {
	t.Helper()
	if err := newscorpus.WriteLines(dir, name, lines); err != nil {
		t.Fatal(err)
	}
}

func TestLoadArticlesReadsBothCorporaShuffled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeCorpus(t, dir, newscorpus.Sina, []map[string]any{
		{"id": 1, "title": "新浪一", "text": "第一篇的正文。"},
		{"id": 2, "title": "新浪二", "text": "  \n "}, // blank: the service would refuse it
		{"id": 3, "title": "新浪三", "text": "第三篇的正文。"},
	})
	writeCorpus(t, dir, newscorpus.CCTV, []map[string]any{
		{"id": "a", "date": "2023-05-06", "title": "央视一", "text": "央视第一篇。"},
		{"id": "b", "date": "2023-05-06", "title": "央视二", "text": "央视第二篇。"},
	})
	s := settings{Corpus: corpusNews, Corpora: dir, Seed: 1}
	src, got, err := loadArticles(t.Context(), s, nil) // the news needs no novel
	if err != nil {
		t.Fatalf("loadArticles() error: %v", err)
	}
	want := articleSource{Source: corpusNews, Dir: dir, Sina: 2, CCTV: 2, Blank: 1, Texts: 4}
	if src != want {
		t.Errorf("loadArticles() source = %+v, want %+v", src, want)
	}
	var titles []string
	for _, a := range got {
		titles = append(titles, a.Title)
	}
	if sorted := slices.Sorted(slices.Values(titles)); !slices.Equal(sorted, []string{"央视一", "央视二", "新浪一", "新浪三"}) {
		t.Errorf("loadArticles() titles = %q, want both corpora's without the blank body", titles)
	}
	if slices.Equal(titles, []string{"新浪一", "新浪三", "央视一", "央视二"}) {
		t.Errorf("loadArticles() titles = %q: in the files' order, not shuffled", titles)
	}

	// The same seed, the same order; -articles keeps the first so many.
	s.Articles = 3
	src, capped, err := loadArticles(t.Context(), s, nil)
	if err != nil || len(capped) != 3 || src.Texts != 3 || src.Sina+src.CCTV != 3 || !slices.Equal(capped, got[:3]) {
		t.Errorf("loadArticles(-articles 3) = %+v, %v, %v; want the first 3 of %v", src, capped, err, got)
	}
	if desc := src.description(); !strings.Contains(desc, "from real news (") || !strings.Contains(desc, "CCTV articles from `"+dir+"`, shuffled)") {
		t.Errorf("description() = %q", desc)
	}
}

func TestLoadArticlesFallsBackToTheNovel(t *testing.T) {
	t.Parallel()
	novel, err := testNovel()
	if err != nil {
		t.Fatal(err)
	}
	onlySina := t.TempDir()
	writeCorpus(t, onlySina, newscorpus.Sina, []map[string]any{{"id": 1, "title": "新浪一", "text": "正文。"}})
	for _, tt := range []struct {
		dir, why string
	}{
		{filepath.Join(t.TempDir(), "nowhere"), "does not exist"},
		{onlySina, newscorpus.Files[newscorpus.CCTV]}, // both corpora or neither
	} {
		src, got, err := loadArticles(t.Context(), settings{Corpus: corpusNews, Corpora: tt.dir, Articles: 25, Seed: 1}, novel)
		if err != nil {
			t.Fatalf("loadArticles(%s) error: %v", tt.dir, err)
		}
		if src.Source != corpusNovel || !strings.Contains(src.Fallback, tt.why) || src.Texts != 25 || len(got) != 25 || src.Sina != 0 {
			t.Errorf("loadArticles(%s) = %+v with %d articles; want 25 of the novel's and a fallback naming %q", tt.dir, src, len(got), tt.why)
		}
		if !novel.Contains(corpus.SplitSentences(got[0].Body)[0]) {
			t.Errorf("loadArticles(%s) article 0 is not the novel's: %.40q", tt.dir, got[0].Body)
		}
	}

	// Asked for, the novel says no fallback, and -articles 0 is its 20,000.
	src, got, err := loadArticles(t.Context(), settings{Corpus: corpusNovel, Corpora: onlySina, Seed: 1}, novel)
	if err != nil || src.Source != corpusNovel || src.Fallback != "" || len(got) != novelArticles {
		t.Errorf("loadArticles(-corpus novel) = %+v with %d articles, %v", src, len(got), err)
	}
}

func TestLoadArticlesBrokenCorpus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, newscorpus.Files[newscorpus.Sina]), []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A broken file is an error, not a reason to measure something else.
	novel, err := testNovel()
	if err != nil {
		t.Fatal(err)
	}
	if src, _, err := loadArticles(t.Context(), settings{Corpus: corpusNews, Corpora: dir, Seed: 1}, novel); err == nil || errors.Is(err, newscorpus.ErrMissing) || src.Fallback != "" {
		t.Errorf("loadArticles(broken Sina) = %+v, error %v; want an error", src, err)
	}
}

func TestMarkdownAndVerdict(t *testing.T) {
	t.Parallel()
	s, _ := parseFlags(nil, io.Discard)
	r := &report{Settings: s, CPUs: 2, Elapsed: 10 * time.Second,
		Articles: articleSource{Source: corpusNews, Dir: "/c", Sina: 7, CCTV: 9, Blank: 2, Texts: 16},
		Memory: []memReading{
			{Label: "start", GoHeapBytes: 30 << 20, GoLiveBytes: 20 << 20, RSSBytes: 200 << 20, CHeapBytes: 130 << 20},
			{Label: "end", GoHeapBytes: 40 << 20, GoLiveBytes: 21 << 20, RSSBytes: 201 << 20, CHeapBytes: 130 << 20},
		}}
	stats := newClientStats()
	stats.latency[kindIngest] = latencies{10 * time.Millisecond, 20 * time.Millisecond}
	stats.statuses[kindIngest] = map[string]int{"201": 2, "503": 1}
	stats.verdicts[kindIngest] = map[string]int{"unique": 2}
	r.fill(stats)
	if r.Requests != 3 || r.Errors["503"] != 1 || r.Kinds[kindIngest].Errors != 1 || r.Throughput != 0.3 {
		t.Errorf("fill: requests %d, errors %v, throughput %v; want 3, 503×1, 0.3/s", r.Requests, r.Errors, r.Throughput)
	}
	if line := r.verdictLine(); !strings.HasPrefix(line, "VERDICT: memory FLAT") || !strings.Contains(line, "live Go heap +5.0%") || !strings.Contains(line, "in use +33.3%") {
		t.Errorf("verdictLine() = %q", line)
	}
	var b bytes.Buffer
	r.markdown(&b)
	for _, want := range []string{"## Load test (`make loadtest`, ", "| POST /v1/articles | 3 | 1 | 10.0 | 20.0 | 20.0 | 20.0 |", "503 × 1", "| start | 30.0 MiB | 20.0 MiB | 200.0 MiB | 130.0 MiB |",
		"(new articles from real news (7 Sina and 9 CCTV articles from `/c`, shuffled), and 30% of them light reposts",
		"2 articles with a blank body"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "MISSING") || strings.Contains(b.String(), "围城") {
		t.Errorf("markdown of a news run speaks of the novel:\n%s", b.String())
	}
}

// TestRepeatedRuns holds the report of several runs to the run of median
// throughput, and to every run's figures.
func TestRepeatedRuns(t *testing.T) {
	t.Parallel()
	s, _ := parseFlags(nil, io.Discard)
	run := func(requests int, p99 time.Duration, liveEnd float64) *report {
		r := &report{Settings: s, CPUs: 2, Elapsed: 100 * time.Second,
			Articles: articleSource{Source: corpusNews, Dir: "/c", Sina: 7, CCTV: 9, Texts: 16},
			Memory: []memReading{
				{Label: "start", GoLiveBytes: 20 << 20, RSSBytes: 200 << 20, CHeapBytes: 130 << 20},
				{Label: "end", GoLiveBytes: liveEnd, RSSBytes: 200 << 20, CHeapBytes: 130 << 20},
			}}
		stats := newClientStats()
		stats.latency[kindCheck] = latencies{p99}
		stats.statuses[kindCheck] = map[string]int{"200": requests}
		r.fill(stats)
		return r
	}
	// 500, 700 and 600 requests/s: the median run is the third.
	runs := []*report{run(50_000, 90*time.Millisecond, 20<<20), run(70_000, 60*time.Millisecond, 21<<20), run(60_000, 75*time.Millisecond, 20<<20)}
	r := summarizeRuns(runs)
	if r.Median != 2 {
		t.Fatalf("the median run is run %d, want 3", r.Median+1)
	}
	if line := r.verdictLine(); !strings.HasPrefix(line, "VERDICT: memory FLAT in all 3 runs; the median run's memory FLAT") {
		t.Errorf("verdictLine() = %q", line)
	}
	var b bytes.Buffer
	r.markdown(&b)
	md := b.String()
	for _, want := range []string{
		"## Load test (`make loadtest`, ", "The load test ran 3 times",
		"**Median of the 3 runs: 600 requests/s (500–700); p99 of all requests 75.0 ms (60.0–90.0); 0 errors in all.**",
		"| 2 | ", "| 70000 | 700 | 0 | 0.0 | 60.0 | 0.0 | 60.0 | not read | flat: +5.0%, +0.0%, +0.0% |",
		"### The median run (run 3)", "**60000 requests, 600 requests/s; 0 errors.**",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Count(md, "## Load test") != 1 {
		t.Errorf("markdown has more than one heading:\n%s", md)
	}

	// A run whose memory grew is named; one run alone is reported as before.
	runs[0] = run(50_000, 90*time.Millisecond, 30<<20)
	if line := summarizeRuns(runs).verdictLine(); !strings.HasPrefix(line, "VERDICT: memory NOT FLAT (or not judged) in run 1 of 3") {
		t.Errorf("verdictLine() with run 1 growing = %q", line)
	}
	one := summarizeRuns(runs[:1])
	b.Reset()
	one.markdown(&b)
	if one.verdictLine() != runs[0].verdictLine() || strings.Contains(b.String(), "The load test ran") || !strings.Contains(b.String(), "**50000 requests, 500 requests/s") {
		t.Errorf("one run: %q\n%s", one.verdictLine(), b.String())
	}
}

func TestMarkdownOfTheNovel(t *testing.T) {
	t.Parallel()
	s, _ := parseFlags(nil, io.Discard)
	fellBack := &report{Settings: s, Articles: articleSource{Source: corpusNovel, Fallback: `the corpora folder "/x" does not exist`, Texts: 20_000}}
	crowded := &report{Settings: s, Articles: articleSource{Source: corpusNovel, Texts: 20_000}}
	crowded.Settings.Corpus = corpusNovel
	for _, tt := range []struct {
		r         *report
		want, not []string
	}{
		{fellBack, []string{"## Load test (`make loadtest`, ", "**The real news corpora were MISSING** (the corpora folder \"/x\" does not exist)", "new articles cut from the novel 围城 by `internal/corpus` (20000 overlapping cuts"}, []string{"crowded novel corpus", "real news ("}},
		{crowded, []string{"## Load test on the crowded novel corpus (`make loadtest-crowded`, ", "a crowded corpus, most articles have near neighbours"}, []string{"MISSING", "real news ("}},
	} {
		var b bytes.Buffer
		tt.r.fill(newClientStats())
		tt.r.markdown(&b)
		for _, want := range tt.want {
			if !strings.Contains(b.String(), want) {
				t.Errorf("markdown lacks %q:\n%s", want, b.String())
			}
		}
		for _, not := range tt.not {
			if strings.Contains(b.String(), not) {
				t.Errorf("markdown has %q:\n%s", not, b.String())
			}
		}
	}
}
