package main

import (
	"fmt"
	"strings"
)

// writeNewsPeer writes the side-by-side with the peer (news_peer.go): each
// batch measurement's rate and CPU time an article over the peer's in the
// same repetition, medians of those ratios, and issue 50's goals.
func writeNewsPeer(b *strings.Builder, r *NewsIngestResult) {
	peer := r.mode(newsPeer, false, 0)
	if peer == nil || len(peer.Runs) == 0 {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("### Against the in-memory peer\n\n")
	w("The peer is `github.com/ekzhu/minhash-lsh` as datasketch users build one: %d permutations, character %d-grams (white space dropped), threshold %.1f, each candidate verified by the exact Jaccard similarity and containment of the two articles' gram sets; one goroutine, in memory, nothing durable, indexed once a batch of %d as newsdedup is sent them (the library's Index sorts every band table again; an article's own batch is searched by the same band rule) (`tools/cmd/dedupbench/news_peer.go`). It ran in each repetition between fingerprint-only and the batch runs, on the same articles in the same order. *Ratio* is the batch run's articles/s over the peer's of the same repetition (above 1 is faster than the peer); *CPU ratio* its CPU time an article over the peer's. newsdedup's *this process* is the in-process service with its HTTP clients (dedupd's own CPU plus the clients' JSON encoding); PostgreSQL's is its processes' from `/proc`.\n\n",
		peerPermutations, peerGram, peerThreshold, r.BatchSize)
	w("| system | sentence index | clients | articles/s: median | min–max | CPU ms an article: this process | PostgreSQL | total | ratio to the peer: rate | CPU | verdicts (all runs) |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	peerRates, peerCPU := runRates(peer), runCPUTotals(peer)
	row := func(name string, m *NewsMode, ratios bool) {
		proc, server, total := "—", "—", "—"
		if m.CPU != nil {
			proc, total = fmt.Sprintf("%.2f", m.CPU.Process.Median), fmt.Sprintf("%.2f", m.CPU.Total.Median)
			if m.CPU.Server != nil {
				server = fmt.Sprintf("%.2f", m.CPU.Server.Median)
			}
		}
		rate, cpu := "1", "1"
		if ratios {
			rate = ratioCell(pairwise(runRates(m), peerRates, func(x, y float64) float64 { return x / y }))
			cpu = ratioCell(pairwise(runCPUTotals(m), peerCPU, func(x, y float64) float64 { return x / y }))
		}
		sentences := onOff(m.Sentences)
		if m.Kind == newsPeer {
			sentences = "—"
		}
		w("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, sentences, m.Clients, num0(m.PerSecond.Median), spread(m.PerSecond),
			proc, server, total, rate, cpu, counts(sumStatuses(m.Runs)))
	}
	row(fmt.Sprintf("peer (threshold %.1f)", peerThreshold), peer, false)
	for _, m := range r.modesOf(newsBatch) {
		row("newsdedup, batches of "+num(r.BatchSize), &m, true)
	}
	w("\nIssue 50's goals, in this run: with the sentence index off, at least 1.0× the peer's rate; dedupd's own CPU at most 0.6 ms an article; with the index on, at least 0.7× the peer (with the partitioned layout). *This process* overstates dedupd's own CPU by its clients' share (they encode each batch's JSON and decode the answers).\n\n")
}

// runRates is a measurement's articles/s, run by run.
func runRates(m *NewsMode) []float64 {
	out := make([]float64, len(m.Runs))
	for i, run := range m.Runs {
		out[i] = run.PerSecond
	}
	return out
}

// runCPUTotals is a measurement's total CPU ms an article, run by run; nil
// when a run did not measure it.
func runCPUTotals(m *NewsMode) []float64 {
	var out []float64
	for _, run := range m.Runs {
		if run.CPU == nil {
			return nil
		}
		_, _, total := run.CPU.msPer(run.Sent)
		out = append(out, total)
	}
	return out
}

// ratioCell is the median of ratios and their spread, "—" when there are
// none.
func ratioCell(xs []float64) string {
	if len(xs) == 0 {
		return "—"
	}
	s := summarize(xs)
	return fmt.Sprintf("%.2f× (%.2f–%.2f)", s.Median, s.Min, s.Max)
}
