package main

import (
	"fmt"
	"strings"
)

// writeNewsCPU writes the CPU time per article of every measurement
// (cpu.go), and what it means for the ratio goal: a run that costs T ms of
// CPU an article goes no faster than cores × 1000 / T articles a second,
// however its waits are arranged. It writes nothing for runs measured
// before CPU time was.
func writeNewsCPU(b *strings.Builder, r *NewsIngestResult) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	for _, m := range r.Modes {
		if m.CPU == nil {
			return
		}
	}
	w("### CPU time per article\n\n")
	w("Where each run's work was done: the CPU time of this process (the in-process service, its HTTP clients, the Go runtime) and of PostgreSQL's processes (every backend, autovacuum, the WAL writer and the checkpointer; read from `/proc`, the server being on this machine) during the run, over the articles sent; medians of the runs. *Cores busy* is the run's CPU time over its wall time: what it kept busy of the %d cores. CPU time rises, as the rates fall, when other work crowds the machine: compare the measurements of one run with each other rather than with another day's. ", r.Workers)
	if r.ServerCPU != "" {
		w("**PostgreSQL's CPU time was not measured**: %s; the totals count this process alone.", r.ServerCPU)
	}
	w("\n\n| measurement | sentence index | clients | this process (ms) | PostgreSQL (ms) | total (ms) | cores busy | CPU ceiling on %d cores |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n", r.Workers)
	for _, m := range r.Modes {
		server := "—"
		if m.CPU.Server != nil {
			server = fmt.Sprintf("%.2f", m.CPU.Server.Median)
		}
		w("| %s | %s | %d | %.2f | %s | %.2f | %.2f | %s articles/s |\n", m.Kind, onOff(m.Sentences), m.Clients,
			m.CPU.Process.Median, server, m.CPU.Total.Median, m.CPU.Cores.Median, num0(cpuCeiling(r.Workers, m.CPU.Total.Median)))
	}
	w("\n*CPU ceiling*: the cores over the total, the rate the run would reach with every core busy on it and no wait at all.")
	fp, batch := r.mode(newsFingerprint, true, 0), r.bestBatch(true)
	if fp != nil && batch != nil && r.ServerCPU == "" && batch.CPU.Total.Median > 0 {
		w(" With the sentence index, fingerprinting alone costs %.2f ms of CPU an article and batch ingest (%d clients) %.2f ms: were both to keep every core busy, with no wait at all and on any number of cores, batch ingest would keep %.0f %% of the fingerprint-only rate (the goal asks %.0f %%). The rest of the gap to its measured %s is time its cores were not all busy: waits for locks and commits, and the machine's other work.",
			fp.CPU.Total.Median, batch.Clients, batch.CPU.Total.Median, 100*fp.CPU.Total.Median/batch.CPU.Total.Median, 100*goalNewsBatchRatio, ratioText(batch))
	}
	w("\n\n")
}

// cpuCeiling is the rate, in items (articles, checks) a second, that cores
// allow at msPerItem of CPU an item; 0 when the CPU time is unknown.
func cpuCeiling(cores int, msPerItem float64) float64 {
	if msPerItem <= 0 {
		return 0
	}
	return float64(cores) * 1000 / msPerItem
}

// ratioText is a batch measurement's median ratio to fingerprint-only.
func ratioText(m *NewsMode) string {
	if m.Ratio == nil {
		return "ratio"
	}
	return fmt.Sprintf("%.0f %%", 100*m.Ratio.Median)
}
