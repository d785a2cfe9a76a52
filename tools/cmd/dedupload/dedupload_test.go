package main

import (
	"bytes"
	"io"
	"math"
	"strings"
	"testing"
	"time"
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
		{At: 1 * time.Second, GoHeap: 30, GoLive: 12, RSS: 200, CHeap: 100, CPUSeconds: 1},
		{At: 2 * time.Second, GoHeap: 20, GoLive: 11, RSS: 210, CHeap: 101, CPUSeconds: 2},
		{At: 3 * time.Second, GoHeap: 40, GoLive: 13, RSS: 205, CHeap: 99, CPUSeconds: 3},
	}
	got := reading("x", window)
	want := memReading{Label: "x", AtSeconds: 3, Samples: 3, GoHeapBytes: 20, GoLiveBytes: 11, RSSBytes: 200, CHeapBytes: 99, CPUSeconds: 3}
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
	if s.Clients != 50 || s.Duration != time.Minute || s.MinRequests != 100_000 || s.MaxDuration != 8*time.Minute || s.Pool != 16 {
		t.Errorf("parseFlags() defaults = %+v, want 50 clients, 60 s, 100000 requests, 8 min cap, pool 16", s)
	}
	for _, args := range [][]string{{"-clients", "0"}, {"-duration", "10m"}, {"extra"}, {"-nope"}} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) error = nil, want one", args)
		}
	}
}

func TestMarkdownAndVerdict(t *testing.T) {
	t.Parallel()
	s, _ := parseFlags(nil, io.Discard)
	r := &report{Settings: s, CPUs: 2, Elapsed: 10 * time.Second,
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
	for _, want := range []string{"## Load test", "| POST /v1/articles | 3 | 1 | 10.0 | 20.0 | 20.0 | 20.0 |", "503 × 1", "| start | 30.0 MiB | 20.0 MiB | 200.0 MiB | 130.0 MiB |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, b.String())
		}
	}
}
