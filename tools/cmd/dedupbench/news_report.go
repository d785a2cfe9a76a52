package main

import (
	"fmt"
	"strings"
)

// newsSectionTitle is the heading of the real-news section in
// benchmarks.md.
const newsSectionTitle = "Ingest on real news"

// writeNewsIngest writes the real-news section; with goals, the section's
// goals too (for -only, whose output stands alone; the full report has
// them in its Goals table).
func writeNewsIngest(b *strings.Builder, r *NewsIngestResult, goals bool) {
	if r == nil {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("## %s\n\n", newsSectionTitle)
	if r.Fallback != "" {
		w("**The real corpora were MISSING** (%s): this section ingested %s articles cut from 围城 (`corpus.Overlapping`, 500–3000 runes) instead, so its figures are **not** figures on real news, and its goals are judged on the novel. Run it where `../shared/corpora` is (or pass `-corpora DIR`).\n\n", r.Fallback, num(r.Articles))
	} else {
		w("The first %s articles of the Sina corpus (`sina2018-dev.jsonl.xz` in `%s`; third parties' text, read at run time and never copied into the repository), %.0f body characters on average (white space not counted), %.1f MB of title and body in all, published as `make eval` publishes them: spread in file order over five days from 1 November 2018, all within the service's window.\n\n", num(r.Articles), r.CorporaDir, r.MeanChars, float64(r.TextBytes)/1e6)
	}
	w("Measured %s, source at `%s`, in %s; load average (1 min) %s (the machine is shared: a load above its %d cores slows every figure here, the fingerprint-only ones too). Each measurement ran %s, in turn within each repetition (fingerprint-only, then the batch runs, then the single-article runs), so that a repetition's batch rate is put over its own fingerprint-only rate; the tables give the median run and the spread (min–max) over the repetitions.\n\n",
		r.Date.Format("2006-01-02 15:04 MST"), orDash(r.Commit), duration(r.TotalSeconds), loadSpan(r.Load), r.Workers, times(r.Reps))
	w("**Which figures include the sentence index**: the rows marked *on* — the service as it ships (`service.New` without settings): ingest also cuts each article into sentences, fingerprints them and stores them (the partial-duplicate index). The rows marked *off* run `service.WithoutSentenceIndex()`: no sentence work at all. Fingerprint-only *on* computes the sentences' fingerprints as ingest does (`fingerprint.Document.SkipSentences` false), *off* skips them.\n\n")

	w("### Fingerprint only\n\n")
	w("The articles fingerprinted as the service fingerprints at ingest (its unexported `Service.fingerprint`: `Weighted` with `DefaultWeightedParams` on a `fingerprint.Document` of the title and the body, `SkipSentences` set when the service keeps no sentence index), on %d goroutines (runtime.GOMAXPROCS; the service fingerprints on as many), each taking the next article; no HTTP, no database. This is the ceiling of ingest on this machine: the service fingerprints every article before it stores it.\n\n", r.Workers)
	w("| sentence index | goroutines | articles/s: median | min–max | text MB/s (median) | refused |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, m := range r.modesOf(newsFingerprint) {
		w("| %s | %d | %s | %s | %.2f | %s |\n", onOff(m.Sentences), m.Clients, num0(m.PerSecond.Median), spread(m.PerSecond),
			float64(r.TextBytes)/float64(max(r.Articles, 1))*m.PerSecond.Median/1e6, num(sumStatuses(m.Runs)["error"]))
	}
	w("\n")

	w("### Batch ingest through /v1/articles/batch\n\n")
	w("The in-process service (see [Through the service](#through-the-service); repo pool %d connections), a fresh migrated database for each run, batches of %d, each client sending its next batch when its last is answered. *Ratio* is the run's rate over the fingerprint-only rate with the same sentence work in the same repetition. *Stored* counts the database's rows after each run; every run sends every article once.\n\n", r.PoolSize, r.BatchSize)
	writeNewsTable(b, r, newsBatch)
	writeNewsPeer(b, r)
	writeNewsStatements(b, r)

	w("### Single articles through POST /v1/articles\n\n")
	w("The same articles, one request each, from %d clients, each posting its next article when its last is answered, into a fresh database for each run. The service stores concurrent single ingests together, a group to a transaction (`service/combine.go`); the figure is what a CMS that posts one article at a time gets.\n\n", r.singleClients())
	writeNewsTable(b, r, newsSingle)
	writeNewsWhy(b, r)
	writeNewsCPU(b, r)
	writeNewsBytes(b, r)
	writeNewsSessions(b, r)

	if goals {
		w("### Goals of this section\n\n| goal | measured | status |\n| --- | --- | --- |\n")
		for _, g := range append(newsGoals(r), sentenceCostGoals(r)...) {
			st := "**" + g.Status + "**"
			if g.Note != "" {
				st += " — " + g.Note
			}
			w("| %s | %s | %s |\n", g.Goal, orDash(g.Measured), st)
		}
		w("\n")
	}
}

// writeNewsTable writes the table of the batch or single-article runs;
// the batch table puts each rate over fingerprint-only's.
func writeNewsTable(b *strings.Builder, r *NewsIngestResult, kind string) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	unit, ratioHead, ratioRule := "batch", " ratio to fingerprint-only: median | min–max |", " ---: | ---: |"
	if kind == newsSingle {
		unit, ratioHead, ratioRule = "request", "", ""
	}
	w("| clients | sentence index | articles/s: median | min–max |%s %s p50 | %s p99 | sent / stored (all runs) | verdicts (all runs) | non-2xx responses |\n| ---: | --- | ---: | ---: |%s ---: | ---: | ---: | --- | --- |\n",
		ratioHead, unit, unit, ratioRule)
	for _, m := range r.modesOf(kind) {
		ratio := ""
		if kind == newsBatch {
			ratio = " — | — |"
			if m.Ratio != nil {
				ratio = fmt.Sprintf(" %.0f %% | %.0f–%.0f %% |", 100*m.Ratio.Median, 100*m.Ratio.Min, 100*m.Ratio.Max)
			}
		}
		sent, stored := 0, 0
		httpErrs := map[string]int{}
		for _, run := range m.Runs {
			sent += run.Sent
			stored += run.Stored
			for k, v := range run.HTTPErrors {
				httpErrs[k] += v
			}
		}
		med := medianRun(m)
		w("| %d | %s | %s | %s |%s %s ms | %s ms | %s / %s | %s | %s |\n", m.Clients, onOff(m.Sentences), num0(m.PerSecond.Median), spread(m.PerSecond),
			ratio, ms(med.RequestMS.Median), ms(med.RequestMS.P99), num(sent), num(stored), counts(sumStatuses(m.Runs)), orDash(counts(httpErrs)))
	}
	w("\nLatencies are those of the median run.")
	on, off := r.mode(newsFingerprint, true, 0), r.mode(newsFingerprint, false, 0)
	if on != nil && off != nil {
		w(" Fingerprint-only medians for reference: %s articles/s with sentences, %s without.", num0(on.PerSecond.Median), num0(off.PerSecond.Median))
	}
	w("\n\n")
}

// modesOf returns the section's measurements of kind, in order.
func (r *NewsIngestResult) modesOf(kind string) []NewsMode {
	var out []NewsMode
	for _, m := range r.Modes {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// singleClients returns the clients of the single-article runs.
func (r *NewsIngestResult) singleClients() int {
	if s := r.modesOf(newsSingle); len(s) > 0 {
		return s[0].Clients
	}
	return 0
}

// medianRun returns the run whose rate is the mode's median.
func medianRun(m NewsMode) NewsRun {
	for _, run := range m.Runs {
		if run.PerSecond == m.PerSecond.Median {
			return run
		}
	}
	return NewsRun{}
}

// sumStatuses adds up the runs' statuses.
func sumStatuses(runs []NewsRun) map[string]int {
	out := map[string]int{}
	for _, run := range runs {
		for k, v := range run.Statuses {
			out[k] += v
		}
	}
	return out
}

// times says how many times something ran: once, twice, 3 times.
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// spread formats a summary's min–max as whole numbers.
func spread(s Summary) string { return num0(s.Min) + "–" + num0(s.Max) }

// loadSpan formats the load averages sampled during the section.
func loadSpan(samples []LoadSample) string {
	if len(samples) == 0 {
		return "not sampled"
	}
	return fmt.Sprintf("%.2f at the start, %.2f at the end", samples[0].Load1, samples[len(samples)-1].Load1)
}
