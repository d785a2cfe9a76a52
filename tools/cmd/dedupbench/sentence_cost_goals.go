package main

import "fmt"

// The goals issue 38 sets for what the sentence index costs ingest, each
// measured as the runs with the sentence index over the runs without it of
// the same repetitions (batch ingest, 2 clients).
const (
	goalCostServerCPU = 3.0  // PostgreSQL's CPU time an article, with over without
	goalCostRate      = 0.70 // batch ingest rate, with over without
	goalCostBytes     = 2048 // database growth an article, with minus without
	goalCostClients   = 2
)

// sentenceCostGoals judges the real-news section by issue 38's goals:
// PostgreSQL's CPU an article, the batch rate and the bytes an article,
// with the sentence index against without it. Each is the median of the
// repetitions' ratios (or differences), the spread beside it.
func sentenceCostGoals(r *NewsIngestResult) []Goal {
	cpuGoal := Goal{Goal: fmt.Sprintf("PostgreSQL's CPU time an article with the sentence index ≤ %.0f× that without it — batch ingest, %d clients", goalCostServerCPU, goalCostClients), Status: statusNotMeasured}
	rateGoal := Goal{Goal: fmt.Sprintf("batch ingest with the sentence index ≥ %.0f %% of the rate without it — %d clients", 100*goalCostRate, goalCostClients), Status: statusNotMeasured}
	bytesGoal := Goal{Goal: fmt.Sprintf("the sentence index ≤ 2 KiB an article as ingest grows it — the database's growth with it minus without it, batch ingest, %d clients, fresh databases", goalCostClients), Status: statusNotMeasured}
	if r == nil {
		for _, g := range []*Goal{&cpuGoal, &rateGoal, &bytesGoal} {
			g.Note = "this run has no real-news section"
		}
		return []Goal{cpuGoal, rateGoal, bytesGoal}
	}
	on, off := r.mode(newsBatch, true, goalCostClients), r.mode(newsBatch, false, goalCostClients)
	if on == nil || off == nil || len(on.Runs) == 0 || len(off.Runs) == 0 {
		return []Goal{cpuGoal, rateGoal, bytesGoal}
	}
	note := ""
	if r.Fallback != "" {
		note = "measured on 围城 articles, not real news: " + r.Fallback
	}
	cpuGoal.Note, rateGoal.Note, bytesGoal.Note = note, note, note

	if onCPU, offCPU := serverMSPerArticle(on.Runs), serverMSPerArticle(off.Runs); onCPU != nil && offCPU != nil {
		ratio := summarize(pairwise(onCPU, offCPU, func(a, b float64) float64 { return a / b }))
		cpuGoal.Measured = fmt.Sprintf("%.1f× (median of %d; %.1f–%.1f×): %.2f ms against %.2f ms (medians)",
			ratio.Median, ratio.N, ratio.Min, ratio.Max, summarize(onCPU).Median, summarize(offCPU).Median)
		cpuGoal.Status = status(ratio.Median <= goalCostServerCPU)
	}
	rates := func(m *NewsMode) []float64 {
		out := make([]float64, len(m.Runs))
		for i, run := range m.Runs {
			out[i] = run.PerSecond
		}
		return out
	}
	ratio := summarize(pairwise(rates(on), rates(off), func(a, b float64) float64 { return a / b }))
	rateGoal.Measured = fmt.Sprintf("%.0f %% (median of %d; %.0f–%.0f %%): %s against %s articles/s (medians)",
		100*ratio.Median, ratio.N, 100*ratio.Min, 100*ratio.Max, num0(on.PerSecond.Median), num0(off.PerSecond.Median))
	rateGoal.Status = status(ratio.Median >= goalCostRate)

	for _, row := range r.bytesRows() {
		if row.kind == newsBatch && row.clients == goalCostClients && row.sentences && row.diff.N > 0 {
			bytesGoal.Measured = fmt.Sprintf("%s an article (median of %d; %s–%s); the table sentences and its indexes %s an article",
				humanBytes(int64(row.diff.Median)), row.diff.N, humanBytes(int64(row.diff.Min)), humanBytes(int64(row.diff.Max)), humanBytes(int64(row.sentenceIndex.Median)))
			bytesGoal.Status = status(row.diff.Median <= goalCostBytes)
		}
	}
	return []Goal{cpuGoal, rateGoal, bytesGoal}
}

// serverMSPerArticle is, for each run, PostgreSQL's CPU milliseconds per
// article sent; nil when a run did not measure it.
func serverMSPerArticle(runs []NewsRun) []float64 {
	var out []float64
	for _, run := range runs {
		if run.CPU == nil || run.CPU.ServerSeconds == nil || run.Sent == 0 {
			return nil
		}
		out = append(out, *run.CPU.ServerSeconds*1000/float64(run.Sent))
	}
	return out
}
