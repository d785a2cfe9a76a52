package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// report is everything one run of the load test found.
type report struct {
	Settings     settings
	Started      time.Time
	CPUs         int
	LoadAvgStart [3]float64
	LoadAvgEnd   [3]float64
	Database     string

	Articles articleSource // which articles were sent

	Elapsed    time.Duration // of the measurement
	Requests   int
	Throughput float64
	Kinds      map[string]kindReport
	Errors     map[string]int // status (or "transport") → count, all kinds

	CPU *loadCPU // over the measurement; nil when not read

	Memory     []memReading
	MemVerdict memVerdict

	Shutdown       string
	DedupdWarnings int
	DedupdErrors   int
}

// kindReport is the figures of one kind of request. Latencies are of the
// answered requests (2xx and 404), in milliseconds.
type kindReport struct {
	Requests int
	Errors   int
	Verdicts map[string]int
	P50      float64
	P95      float64
	P99      float64
	Max      float64
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// fill computes the figures from the merged stats.
func (r *report) fill(s *clientStats) {
	r.Kinds = map[string]kindReport{}
	r.Errors = map[string]int{}
	var everything latencies
	for _, k := range kinds {
		sum := s.latency[k].summarize()
		everything = append(everything, s.latency[k]...)
		kr := kindReport{Verdicts: s.verdicts[k],
			P50: ms(sum.P50), P95: ms(sum.P95), P99: ms(sum.P99), Max: ms(sum.Max)}
		for st, n := range s.statuses[k] {
			kr.Requests += n
			if isError(st) {
				kr.Errors += n
				r.Errors[st] += n
			}
		}
		if len(kr.Verdicts) == 0 {
			kr.Verdicts = nil
		}
		r.Kinds[k] = kr
		r.Requests += kr.Requests
	}
	sum := everything.summarize()
	r.Kinds["all"] = kindReport{Requests: r.Requests, Errors: sumValues(r.Errors),
		P50: ms(sum.P50), P95: ms(sum.P95), P99: ms(sum.P99), Max: ms(sum.Max)}
	if r.Elapsed > 0 {
		r.Throughput = float64(r.Requests) / r.Elapsed.Seconds()
	}
	r.MemVerdict = judgeMemory(r.Memory)
}

func sumValues(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// verdictLine says in one line whether memory stayed flat.
func (r *report) verdictLine() string {
	if len(r.Memory) < 2 {
		return "VERDICT: memory not judged: fewer than two readings (the run was too short)"
	}
	v := r.MemVerdict
	word := "memory FLAT"
	if !v.Flat {
		word = "memory NOT FLAT"
	}
	return fmt.Sprintf("VERDICT: %s: from the first reading after warm-up to the last, live Go heap %s, RSS %s, C heap %s (flat: each below +%.0f%%); Go heap in use %s",
		word, pct(v.GoLiveGrowth), pct(v.RSSGrowth), pct(v.CHeapGrowth), flatLimit*100, pct(v.GoHeapGrowth))
}

func pct(f float64) string {
	if math.IsInf(f, 1) {
		return "+∞"
	}
	return fmt.Sprintf("%+.1f%%", f*100)
}

func mib(b float64) string { return fmt.Sprintf("%.1f MiB", b/(1<<20)) }

// markdown writes the section for docs/benchmarks.md.
func (r *report) markdown(w io.Writer) {
	fmt.Fprintf(w, "%s\n\n", r.heading())
	r.markdownBody(w)
}

// markdownBody writes the section without its heading: what ran, the
// figures, memory.
func (r *report) markdownBody(w io.Writer) {
	s := r.Settings
	if r.Articles.Fallback != "" {
		fmt.Fprintf(w, "**The real news corpora were MISSING** (%s): this load sent articles cut from 围城 instead, so its figures are **not** figures on real news. "+
			"Run it where `../shared/corpora` is (or pass `-corpora DIR`).\n\n", r.Articles.Fallback)
	}
	fmt.Fprintf(w, "The real `dedupd serve` (built from this tree, a pool of %d connections) on 127.0.0.1, "+
		"a fresh migrated database on the PostgreSQL at %s, and %d concurrent clients on the same machine "+
		"(%d CPUs; load average %.2f / %.2f / %.2f at the start, %.2f / %.2f / %.2f at the end). "+
		"The clients mix %d%% `POST /v1/articles` (new articles %s, and %d%% of them light reposts of articles ingested before: a byline and an editor's line added, punctuation made half-width), "+
		"%d%% `POST /v1/check` and %d%% `GET /v1/articles/{id}`.%s "+
		"After a %s warm-up, the measurement ran %s (asked: %s, and on until %d requests, at most %s).\n\n",
		s.Pool, r.Database, s.Clients, r.CPUs,
		r.LoadAvgStart[0], r.LoadAvgStart[1], r.LoadAvgStart[2], r.LoadAvgEnd[0], r.LoadAvgEnd[1], r.LoadAvgEnd[2],
		ingestShare, r.Articles.description(), repostShare, checkShare, 100-ingestShare-checkShare, r.articlesNote(),
		s.Warmup, r.Elapsed.Round(100*time.Millisecond), s.Duration, s.MinRequests, s.MaxDuration)

	fmt.Fprintf(w, "**%d requests, %.0f requests/s; %d errors.**\n\n", r.Requests, r.Throughput, r.Kinds["all"].Errors)
	fmt.Fprintln(w, "| request | requests | errors | p50 | p95 | p99 | max |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, k := range append(slices.Clone(kinds), "all") {
		kr := r.Kinds[k]
		name := kindRoute[k]
		if k == "all" {
			name = "**all**"
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %s |\n", name, kr.Requests, kr.Errors,
			fmtMS(kr.P50), fmtMS(kr.P95), fmtMS(kr.P99), fmtMS(kr.Max))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Latencies are of answered requests (2xx, and 404), measured by the clients, in milliseconds; an error is any other status or a failed connection.")
	fmt.Fprintln(w)
	if len(r.Errors) == 0 {
		fmt.Fprintln(w, "Errors by status: none.")
	} else {
		var parts []string
		for _, st := range slices.Sorted(maps.Keys(r.Errors)) {
			parts = append(parts, fmt.Sprintf("%s × %d", st, r.Errors[st]))
		}
		fmt.Fprintf(w, "Errors by status: %s.\n", strings.Join(parts, ", "))
	}
	for _, k := range []string{kindIngest, kindCheck} {
		if v := r.Kinds[k].Verdicts; len(v) > 0 {
			var parts []string
			for _, name := range slices.Sorted(maps.Keys(v)) {
				parts = append(parts, fmt.Sprintf("%s %d", name, v[name]))
			}
			fmt.Fprintf(w, "Verdicts of `%s`: %s.\n", kindRoute[k], strings.Join(parts, ", "))
		}
	}
	fmt.Fprintf(w, "dedupd logged %d warnings and %d errors; it %s.\n\n", r.DedupdWarnings, r.DedupdErrors, r.Shutdown)
	r.markdownCPU(w)

	fmt.Fprintln(w, "Memory of the dedupd process, read from its `/metrics` once a second; each reading is the smallest sample of its 10 s window. "+
		"Go heap in use (`go_memstats_heap_inuse_bytes`) and the live Go heap the last collection marked (`go_gc_heap_live_bytes`), "+
		"resident set (`process_resident_memory_bytes`), and the C heap where gojieba allocates (`newsdedup_c_heap_bytes`, glibc `mallinfo2`). "+
		"The verdict compares the last reading with the first by the live Go heap, the RSS and the C heap: the heap in use swings with the collector's cycle.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| reading | Go heap in use | Go heap live | RSS | C heap | dedupd CPU |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: |")
	for _, m := range r.Memory {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %.0f s |\n", m.Label, mib(m.GoHeapBytes), mib(m.GoLiveBytes), mib(m.RSSBytes), mib(m.CHeapBytes), m.CPUSeconds)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "**%s**\n", strings.TrimPrefix(r.verdictLine(), "VERDICT: "))
}

// heading is the section's: the news run is `make loadtest`'s (even when it
// fell back: the sentence under it says so), the novel's is another section.
func (r *report) heading() string {
	date := r.Started.UTC().Format("2006-01-02")
	if r.Settings.Corpus == corpusNovel {
		return fmt.Sprintf("## Load test on the crowded novel corpus (`make loadtest-crowded`, %s)", date)
	}
	return fmt.Sprintf("## Load test (`make loadtest`, %s)", date)
}

// articlesNote is what the mix's sentence adds about the articles: the
// news left out, and that the corpora are read, not copied. It starts with
// a space, or is "".
func (r *report) articlesNote() string {
	a := r.Articles
	if a.Source != corpusNews {
		return ""
	}
	note := " The news is third parties' text, read at run time and never copied into the repository"
	if a.Blank > 0 {
		note += fmt.Sprintf("; %d articles with a blank body, which the service refuses, were left out", a.Blank)
	}
	return note + "."
}

func fmtMS(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}
