package main

import (
	"fmt"
	"strings"

	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

// newsCheckSectionTitle is the heading of the check-on-real-news section
// in benchmarks.md.
const newsCheckSectionTitle = "/v1/check on real news"

// writeNewsCheck writes the check-on-real-news section; with goals, the
// section's goals too (for -only, whose output stands alone; the full
// report has them in its Goals table).
func writeNewsCheck(b *strings.Builder, r *NewsCheckResult, goals bool) {
	if r == nil {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("## %s\n\n", newsCheckSectionTitle)
	w("Issue 11's goal for `/v1/check` — p99 ≤ %.0f ms for one client, ≤ %.0f ms for 16, with 1,000,000 stored articles — measured on real news, not on the %s tier's cuts of 围城 above, a crowded corpus where each check finds hundreds of near duplicates. ",
		goalCheckP99MS, goalCheckP99ConcurrentMS, tierLabel(goalTier))
	w("Measured %s by `DATABASE_URL=… %s`, source at `%s`, in %s; load average (1 min) %s (the machine is shared: a load above its %d cores, which client, service and PostgreSQL share, slows every figure here). `make bench` runs it after the tiers; `-only %s` runs it alone.\n\n",
		r.Date.Format("2006-01-02 15:04 MST"), strings.TrimSpace(r.Command), orDash(r.Commit), duration(r.TotalSeconds), loadSpan(r.Load), r.Cores, onlyNewsCheck)
	if r.Skipped != "" {
		w("**The real corpora were MISSING** (%s): this section measured nothing, and its goals are not measured. Run it where `../shared/corpora` is (or pass `-corpora DIR`).\n\n", r.Skipped)
		writeNewsCheckGoals(b, r, goals)
		return
	}
	writeNewsCheckDatabase(b, r)
	writeNewsCheckRequests(b, r)
	writeNewsCheckTable(b, r)
	writeNewsCheckGoals(b, r, goals)
}

// writeNewsCheckDatabase says what the section's database holds and how
// it was built.
func writeNewsCheckDatabase(b *strings.Builder, r *NewsCheckResult) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	t := r.Build
	w("### The database\n\n")
	w("`%s`, **%s rows**", r.Database, num(r.Loaded))
	if r.Loaded != r.Rows {
		w(" (%s asked)", num(r.Rows))
	}
	w(":\n\n")
	w("- **%s real news articles**: %s Sina and %s CCTV (`%s.xz` and `%s.xz` in `%s`; third parties' text, read at run time and never copied into the repository): every article of both corpora with a body (%s with a blank body left out) but the %s held out below",
		num(r.News), num(r.Sina), num(r.CCTV), newscorpus.Files[newscorpus.Sina], newscorpus.Files[newscorpus.CCTV], r.CorporaDir, num(r.Blank), num(r.HeldOut))
	if r.Unstored > 0 {
		w(" and %s more that `-news-check-articles` left out (a trial run: not every article)", num(r.Unstored))
	}
	w(", published as `make eval` publishes them (Sina spread over five days from 1 November 2018, CCTV on its broadcast dates). They were stored **through the service** — in-process, `POST /v1/articles/batch`, batches of %d, %d clients, in %s (%s articles/s), with the random rows already in the table — so they carry word sets, shingles, clusters and the sentence index's rows (%s of them) as in production. Ingest verdicts: %s.\n",
		r.BatchSize, r.IngestClients, duration(t.IngestSeconds), num0(r.Ingest.PerSecond), num(r.SentenceRows), counts(r.Ingest.Statuses))
	w("- **%s random fingerprints**, COPY'd before the news (%s; the eight block indexes and the content hash's dropped during the COPY and built again after it, %s; then `VACUUM (ANALYZE)`): uniformly random 64-bit fingerprints of the service's fingerprint version, published at random over the news's years, with no text and no word set, as the tiers' random rows: the bulk of an archive, unrelated to any query.\n\n",
		num(r.Random), duration(t.CopySeconds), duration(t.IndexSeconds))
	w("After the ingest, `VACUUM (ANALYZE)` of `articles` and `sentences` (%s of VACUUM in all), a `CHECKPOINT`, and the block indexes of both tables prewarmed (`pg_prewarm`), as steady traffic keeps them. The service's repo pool has %d connections.\n\n",
		duration(t.VacuumSeconds), r.PoolSize)
	w("**These figures include the sentence index**: the service as it ships (`service.New` without settings). A check that finds no near duplicate — a new story — looks its sentences up in the sentence index, for partial duplicates; one that finds one only counts, in the same index, the stored sentences matching each of its own (`repo` `sentenceHoldersSQL`), to tell whether boilerplate alone joins them.\n\n")
}

// writeNewsCheckRequests says what was checked, and how.
func writeNewsCheckRequests(b *strings.Builder, r *NewsCheckResult) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("### The checks\n\n")
	w("Each body is `{\"title\", \"body\", \"published_at\"}`, with no key. Two kinds:\n\n")
	w("- **%s**: %s stored articles drawn at random, each changed by an edit of `corpus.AllEdits` drawn at random, as the 围城 reposts are (a byline and half-width punctuation, a sentence dropped or added, a paragraph moved, a fifth rewritten, boilerplate, a new headline; 围城 gives the sentences some edits add), never stored, published an hour after its original so that the service's window (168 h) holds it. An edit that cannot apply (a paragraph moved in a one-paragraph story) leaves an exact copy.\n",
		newsCheckReposts, num(r.requestsOf(newsCheckReposts)))
	w("- **%s**: the %s held-out articles, never stored: most checks in a newsroom are of stories it does not have yet. A few find a near duplicate all the same: the corpora hold natural duplicates (Sina the same article under two headlines or scraped twice, CCTV recurring items).\n\n", newsCheckNew, num(r.HeldOut))
	w("For each kind, %s of uncounted requests from %d clients first (the pool's connections, their prepared statements, the pages the kind reads), then one client for %s and %d clients for %s, each client sending its next request when its last is answered: the runs of the %s tier's `/v1/check`. *Candidates* is the mean, over the run's checks, of the stored articles the service's near-duplicate query returned through the block indexes (within 3 bits and the window; its `newsdedup_index_candidates` histogram; at most %d): an exact copy is found by its content hash, and a story reworked beyond 3 bits by the sentence index, not among them.\n\n",
		duration(r.WarmupSeconds), r.CheckClients, duration(r.SeqSeconds), r.CheckClients, duration(r.CheckSeconds), tierLabel(goalTier), candidateCap)
	if r.Reps > 1 {
		w("All of it ran %d times, in turn (each kind's runs, then the next kind's, then again), so that the passing load of a shared machine falls on every run alike. The table gives each run's **median repetition by p99** — the figure the goals judge — with the spread (min–max) of the p99 and of the requests a second over the %d repetitions; the other columns are the median repetition's. Every repetition is in benchmarks.json.\n\n", r.Reps, r.Reps)
	}
}

// checkCPU formats a run's CPU time per check, in milliseconds: this
// process's (the service, its clients) and PostgreSQL's (cpu.go).
func checkCPU(c NewsCheckRun) string {
	if c.CPU == nil || c.Requests == 0 {
		return "—"
	}
	process, server, _ := c.CPU.msPer(c.Requests)
	out := fmt.Sprintf("%.2f / ", process)
	if server == nil {
		return out + "—"
	}
	return out + fmt.Sprintf("%.2f ms", *server)
}

// writeNewsCheckTable writes the runs' table: each run's median
// repetition, with the spread of the repetitions when there are several.
func writeNewsCheckTable(b *strings.Builder, r *NewsCheckResult) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("| requests | clients | duration | requests | requests/s | p50 | p90 | p99 | max | candidates (mean) | verdicts | load (1 min) at start | CPU a check: this process / PostgreSQL |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |\n")
	for _, kind := range []string{newsCheckReposts, newsCheckNew} {
		for _, clients := range r.clientCounts(kind) {
			c := r.run(kind, clients)
			p99, rate := r.spread(kind, clients)
			rateCell, p99Cell := fmt.Sprintf("%.0f", c.PerSecond), ms(c.LatencyMS.P99)+" ms"
			if p99.N > 1 {
				rateCell += fmt.Sprintf(" (%.0f–%.0f)", rate.Min, rate.Max)
				p99Cell += fmt.Sprintf(" (%s–%s)", ms(p99.Min), ms(p99.Max))
			}
			w("| %s | %d | %s | %s | %s | %s ms | %s ms | %s | %s ms | %s | %s | %.2f | %s |\n", c.Kind, c.Clients, duration(c.Seconds), num(c.Requests), rateCell,
				ms(c.LatencyMS.Median), ms(c.LatencyMS.P90), p99Cell, ms(c.LatencyMS.Max), sig(c.CandidatesMean), counts(c.Statuses), c.LoadAtStart, checkCPU(*c))
		}
	}
	if r.ServerCPU != "" {
		w("\nPostgreSQL's CPU time was not measured: %s.\n", r.ServerCPU)
	}
	if c := r.run(newsCheckNew, r.CheckClients); c != nil && c.PerSecond > 0 && c.Clients > 1 {
		w("\nWith %d clients on %d cores the machine is saturated: by Little's law the mean latency is the clients over the throughput (%d / %.0f per s = %.1f ms for the new stories), the queue's, not one request's; the latency of one request is the one-client figure.", c.Clients, r.Cores, c.Clients, c.PerSecond, float64(c.Clients)/c.PerSecond*1000)
	}
	writeCheckCPUFloor(w, r)
	writeFingerprintFloor(w, r)
	if r.Rows != goalTier {
		w("\n\n**Measured at %s rows, not at 1,000,000** (`-news-check-rows`): the goals are not judged on these figures.", num(r.Rows))
	}
	w("\n\n")
}

// writeNewsCheckGoals writes the section's goals, when asked.
func writeNewsCheckGoals(b *strings.Builder, r *NewsCheckResult, goals bool) {
	if !goals {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("### Goals of this section\n\n| goal | measured | status |\n| --- | --- | --- |\n")
	for _, g := range newsCheckGoals(r) {
		st := "**" + g.Status + "**"
		if g.Note != "" {
			st += " — " + g.Note
		}
		w("| %s | %s | %s |\n", g.Goal, orDash(g.Measured), st)
	}
	w("\n")
}

// requestsOf returns the distinct requests of kind: the reposts made or
// the articles held out.
func (r *NewsCheckResult) requestsOf(kind string) int {
	if kind == newsCheckReposts {
		return r.Reposts
	}
	return r.HeldOut
}

// writeFingerprintFloor says how long fingerprinting the same bodies takes
// alone: the part of a check's latency no statement can save.
func writeFingerprintFloor(w func(string, ...any), r *NewsCheckResult) {
	var parts []string
	for _, kind := range []string{newsCheckReposts, newsCheckNew} {
		f, ok := r.FingerprintMS[kind]
		if !ok || f.N == 0 {
			continue
		}
		part := fmt.Sprintf("the %s p50 %s ms, p99 %s ms", kind, ms(f.Median), ms(f.P99))
		if c := r.run(kind, 1); c != nil && c.LatencyMS.P99 > 0 {
			part += fmt.Sprintf(" (%.0f %% of the one-client check's p99)", 100*f.P99/c.LatencyMS.P99)
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return
	}
	w("\n\nFingerprinting alone — the article and its sentences, as the service does for a check before any statement, each body once on one goroutine before the database was built: %s. It grows with the length of the text, at the rate of *Fingerprint throughput* above.", strings.Join(parts, "; "))
}

// writeCheckCPUFloor says, for each kind's run with many clients whose
// PostgreSQL CPU time was read, what its CPU time a check allows: the
// cores serve at most cores ÷ CPU checks a second, so the clients wait at
// least their number over that on average, whatever the code does between
// the statements; the p99 goal is then a bound on how far the slowest
// checks may stray above that floor.
func writeCheckCPUFloor(w func(string, ...any), r *NewsCheckResult) {
	var parts []string
	for _, kind := range []string{newsCheckReposts, newsCheckNew} {
		c := r.run(kind, r.CheckClients)
		if c == nil || c.Clients < 2 || c.CPU == nil || c.CPU.ServerSeconds == nil || c.Requests == 0 || r.Cores == 0 {
			continue
		}
		_, _, total := c.CPU.msPer(c.Requests)
		most := cpuCeiling(r.Cores, total)
		if most == 0 {
			continue
		}
		floor := float64(c.Clients) / most * 1000
		parts = append(parts, fmt.Sprintf("the %s %.2f ms, at most %.0f checks/s, a mean latency of at least %.1f ms with %d clients (the goal's p99 of %s ms is %.1f× that)",
			kind, total, most, floor, c.Clients, num0(goalCheckP99ConcurrentMS), goalCheckP99ConcurrentMS/floor))
	}
	if len(parts) == 0 {
		return
	}
	w("\n\nCPU time sets a floor under it: a check cost, in this process and PostgreSQL together, %s. With every core busy on checks and no wait at all, the %d cores could do no better.", strings.Join(parts, "; "), r.Cores)
}
