package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// The load test runs several times (-reps), one run after the other, each
// on a fresh database with a fresh dedupd: on a shared machine one run's
// figures move with whatever else runs beside it, so the report gives
// every run's, and the run of median throughput in full.

// repeated is the runs of one load test.
type repeated struct {
	Runs []*report
	// Median is the index in Runs of the run of median throughput (the
	// lower of the middle two for an even count).
	Median int
}

func summarizeRuns(runs []*report) *repeated {
	order := make([]int, len(runs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(runs[a].Throughput, runs[b].Throughput) })
	r := &repeated{Runs: runs}
	if len(order) > 0 {
		r.Median = order[(len(order)-1)/2]
	}
	return r
}

// median is the run of median throughput.
func (r *repeated) median() *report { return r.Runs[r.Median] }

// verdictLine says in one line whether memory stayed flat: in every run,
// or in which it did not.
func (r *repeated) verdictLine() string {
	if len(r.Runs) == 1 {
		return r.Runs[0].verdictLine()
	}
	var notFlat []string
	for i, run := range r.Runs {
		if len(run.Memory) < 2 || !run.MemVerdict.Flat {
			notFlat = append(notFlat, fmt.Sprint(i+1))
		}
	}
	if len(notFlat) > 0 {
		return fmt.Sprintf("VERDICT: memory NOT FLAT (or not judged) in run %s of %d; the median run's %s",
			strings.Join(notFlat, ", "), len(r.Runs), strings.TrimPrefix(r.median().verdictLine(), "VERDICT: "))
	}
	return fmt.Sprintf("VERDICT: memory FLAT in all %d runs; the median run's %s", len(r.Runs), strings.TrimPrefix(r.median().verdictLine(), "VERDICT: "))
}

// markdown writes the section for docs/benchmarks.md: with one run, that
// run's; with more, every run's figures and then the median run in full.
func (r *repeated) markdown(w io.Writer) {
	m := r.median()
	if len(r.Runs) == 1 {
		m.markdown(w)
		return
	}
	fmt.Fprintf(w, "%s\n\n", m.heading())
	var rates, p99s []float64
	errs := 0
	for _, run := range r.Runs {
		rates, p99s = append(rates, run.Throughput), append(p99s, run.Kinds["all"].P99)
		errs += run.Kinds["all"].Errors
	}
	fmt.Fprintf(w, "The load test ran %d times, one run after the other, each on a fresh database with a fresh dedupd, the same articles and the same mix: on a shared machine a run's figures move with whatever else runs beside it. "+
		"**Median of the %d runs: %.0f requests/s (%.0f–%.0f); p99 of all requests %s ms (%s–%s); %d errors in all.** "+
		"Every run below, then the run of median throughput (run %d) in full.\n\n",
		len(r.Runs), len(r.Runs), m.Throughput, slices.Min(rates), slices.Max(rates),
		fmtMS(percentile(slices.Sorted(slices.Values(p99s)), 50)), fmtMS(slices.Min(p99s)), fmtMS(slices.Max(p99s)), errs, r.Median+1)
	fmt.Fprintln(w, "| run | started (UTC) | load average at the start | requests | requests/s | errors | p99 POST /v1/articles | p99 POST /v1/check | p99 GET /v1/articles/{id} | p99 all | CPU a request, ms: dedupd / PostgreSQL / clients | memory (live Go heap, RSS, C heap) |")
	fmt.Fprintln(w, "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
	for i, run := range r.Runs {
		mem := "not judged"
		if v := run.MemVerdict; len(run.Memory) >= 2 {
			word := "flat"
			if !v.Flat {
				word = "NOT FLAT"
			}
			mem = fmt.Sprintf("%s: %s, %s, %s", word, pct(v.GoLiveGrowth), pct(v.RSSGrowth), pct(v.CHeapGrowth))
		}
		fmt.Fprintf(w, "| %d | %s | %.2f | %d | %.0f | %d | %s | %s | %s | %s | %s | %s |\n", i+1, run.Started.UTC().Format("15:04"), run.LoadAvgStart[0],
			run.Requests, run.Throughput, run.Kinds["all"].Errors,
			fmtMS(run.Kinds[kindIngest].P99), fmtMS(run.Kinds[kindCheck].P99), fmtMS(run.Kinds[kindGet].P99), fmtMS(run.Kinds["all"].P99), run.cpuColumn(), mem)
	}
	fmt.Fprintf(w, "\nLatencies in milliseconds, as below. *CPU a request*: each side's CPU time over the measurement, over its requests (see the median run's paragraph below). *Memory* compares each run's last reading with its first (flat: each below +%.0f%%).\n\n", flatLimit*100)
	fmt.Fprintf(w, "### The median run (run %d)\n\n", r.Median+1)
	m.markdownBody(w)
}
