package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The metrics of dedupd's /metrics the load test reads.
const (
	metricGoHeap = "go_memstats_heap_inuse_bytes"
	metricGoLive = "go_gc_heap_live_bytes"
	metricRSS    = "process_resident_memory_bytes"
	metricCHeap  = "newsdedup_c_heap_bytes"
	metricCPU    = "process_cpu_seconds_total"
)

var memoryMetrics = []string{metricGoHeap, metricGoLive, metricRSS, metricCHeap, metricCPU}

// parseMetrics reads the Prometheus text format and returns the values of
// the samples named, those without labels. A name asked for and missing is
// an error; so is a line that does not parse.
func parseMetrics(r io.Reader, names ...string) (map[string]float64, error) {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	got := make(map[string]float64, len(names))
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		// name[{labels}] value [timestamp]
		name, rest, labelled := text, "", false
		if i := strings.IndexAny(text, "{ \t"); i >= 0 {
			name, rest = text[:i], text[i:]
			if rest[0] == '{' {
				labelled = true
				j := strings.LastIndexByte(rest, '}')
				if j < 0 {
					return nil, fmt.Errorf("metrics line %d: unclosed labels: %q", line, text)
				}
				rest = rest[j+1:]
			}
		}
		if !want[name] || labelled {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) < 1 || len(fields) > 2 {
			return nil, fmt.Errorf("metrics line %d: want a name, a value and maybe a timestamp: %q", line, text)
		}
		v, err := parseValue(fields[0])
		if err != nil {
			return nil, fmt.Errorf("metrics line %d: value %q: %w", line, fields[0], err)
		}
		got[name] = v
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, n := range names {
		if _, ok := got[n]; !ok {
			return nil, fmt.Errorf("metric %s is missing", n)
		}
	}
	return got, nil
}

// parseValue parses a sample value: a Go float, or +Inf, -Inf, NaN.
func parseValue(s string) (float64, error) {
	switch s {
	case "+Inf":
		return math.Inf(1), nil
	case "-Inf":
		return math.Inf(-1), nil
	case "NaN":
		return math.NaN(), nil
	}
	return strconv.ParseFloat(s, 64)
}

// memSample is one reading of dedupd's memory.
type memSample struct {
	GoHeap     float64 // bytes in use
	GoLive     float64 // bytes marked live by the last collection
	RSS        float64 // bytes
	CHeap      float64 // bytes
	CPUSeconds float64
}

// scrape reads dedupd's memory from its /metrics.
func scrape(ctx context.Context, client *http.Client, base string) (memSample, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return memSample{}, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return memSample{}, fmt.Errorf("GET /metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return memSample{}, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	m, err := parseMetrics(resp.Body, memoryMetrics...)
	if err != nil {
		return memSample{}, fmt.Errorf("GET /metrics: %w", err)
	}
	return memSample{GoHeap: m[metricGoHeap], GoLive: m[metricGoLive], RSS: m[metricRSS], CHeap: m[metricCHeap], CPUSeconds: m[metricCPU]}, nil
}

// memReading is the memory over one window of samples: the smallest of
// each figure. The heap in use swings with the garbage collector's cycle (up
// to twice the live heap between collections), and every figure with the
// requests in flight; the smallest sample of a window is the nearest to
// what stays.
type memReading struct {
	Label       string
	GoHeapBytes float64
	GoLiveBytes float64
	RSSBytes    float64
	CHeapBytes  float64
	CPUSeconds  float64 // dedupd's CPU time at the end of the window
}

// reading returns the reading of a window of samples.
func reading(label string, window []memSample) memReading {
	r := memReading{Label: label}
	for i, s := range window {
		if i == 0 || s.GoHeap < r.GoHeapBytes {
			r.GoHeapBytes = s.GoHeap
		}
		if i == 0 || s.GoLive < r.GoLiveBytes {
			r.GoLiveBytes = s.GoLive
		}
		if i == 0 || s.RSS < r.RSSBytes {
			r.RSSBytes = s.RSS
		}
		if i == 0 || s.CHeap < r.CHeapBytes {
			r.CHeapBytes = s.CHeap
		}
		r.CPUSeconds = s.CPUSeconds
	}
	return r
}

// memVerdict compares the last reading with the first. The verdict goes by
// the live Go heap, the RSS and the C heap; the growth of the Go heap in
// use is shown, but it says more about when the collector last ran than
// about a leak.
type memVerdict struct {
	Flat         bool
	GoHeapGrowth float64
	GoLiveGrowth float64
	RSSGrowth    float64
	CHeapGrowth  float64
}

// flatLimit is the growth, first reading to last, below which memory counts
// as flat.
const flatLimit = 0.10

func judgeMemory(readings []memReading) memVerdict {
	if len(readings) < 2 {
		return memVerdict{}
	}
	first, last := readings[0], readings[len(readings)-1]
	v := memVerdict{
		GoHeapGrowth: growth(first.GoHeapBytes, last.GoHeapBytes),
		GoLiveGrowth: growth(first.GoLiveBytes, last.GoLiveBytes),
		RSSGrowth:    growth(first.RSSBytes, last.RSSBytes),
		CHeapGrowth:  growth(first.CHeapBytes, last.CHeapBytes),
	}
	v.Flat = v.GoLiveGrowth < flatLimit && v.RSSGrowth < flatLimit && v.CHeapGrowth < flatLimit
	return v
}
