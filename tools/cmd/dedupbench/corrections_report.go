package main

import (
	"fmt"
	"strings"
)

// correctionsSectionTitle is the corrections section's heading (its anchor
// #corrections-and-deletions is linked from docs/reporting.md).
const correctionsSectionTitle = "Corrections and deletions"

// The goals issue 32 sets for the section: the time of an operation on an
// article with 1,000 and 10,000 dependants, p99, and its median's ratio to
// the same operation's with none, at 1,000.
const (
	goalCorrection1kMS   = 300.0
	goalCorrection10kMS  = 3000.0
	goalCorrectionRatio  = 20.0
	goalCorrectionSmall  = 1_000
	goalCorrectionLarger = 10_000
)

// writeCorrections writes the corrections section, with its goals when
// goals is set (a section run alone).
func writeCorrections(b *strings.Builder, r *CorrectionsResult, goals bool) {
	if r == nil {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("## %s\n\n", correctionsSectionTitle)
	w("What a correction of a much-copied original costs, and its deletion (issue 32): one wire story (a 围城 article of 1,500–2,500 runes) stored through the API with %s exact copies of it linking to it, then one request, timed as the client sees it: a new **headline** (POST under the original's key), a **correction line** appended to its body, **another story** under its key, or **delete** (DELETE /v1/articles/{id}). The in-process service as elsewhere here (repo pool %d connections). ",
		dependantsList(r.Dependants), r.PoolSize)
	w("Each size's database is built once — the original and one copy stored through the API, the copy's row and sentences cloned in SQL to the number of dependants (every copy's row is the same but its key), `VACUUM (ANALYZE)` — and each measurement runs on a fresh copy of it (`CREATE DATABASE … TEMPLATE`) with a service of its own, warmed up by a `/v1/check` of the story. After each request a check: did it do what it should (a corrected original still heads its cluster and every copy still links to it; without it, the copies stay together in one cluster)? *Wrong* counts the requests that did not. ")
	w("Every operation at every size ran %s, in turn within each repetition. Measured %s, source at `%s`, in %s (%s of it building the databases); load average (1 min) %s.\n\n",
		times(r.Reps), r.Date.Format("2006-01-02 15:04 MST"), orDash(r.Commit), duration(r.TotalSeconds), duration(r.SetupSeconds), loadSpan(r.LoadAvg))
	w("*Ratio* is the median over the median of the same operation on an article no other links to.\n\n")
	w("| operation | dependants | median | p90 | p99 | max | ratio | wrong |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, run := range r.Runs {
		wrong := "0"
		switch {
		case run.Refused > 0 && run.Refused == run.Wrong:
			wrong = fmt.Sprintf("%d refused (503)", run.Refused)
		case run.Wrong > 0:
			wrong = fmt.Sprintf("%d: %s", run.Wrong, run.Why)
		}
		w("| %s | %s | %s ms | %s ms | %s ms | %s ms | %s× | %s |\n", run.Operation, num(run.Dependants),
			ms(run.MS.Median), ms(run.MS.P90), ms(run.MS.P99), ms(run.MS.Max), sig(run.Ratio), wrong)
	}
	w("\n")
	w("**Before** — the service at `8e03eb2`, which judged every dependant again, one full judgement each, inside the writer's transaction — measured by this section on 2026-11-27 at 15:17 UTC (load average 8.5–9.7), once each, on a tree whose `service/`, `repo/` and `migrations/` were those of `8e03eb2` (`go run ./cmd/dedupbench -only corrections -corrections-dependants 0,100,300,1000 -corrections-reps 1`): with 100 copies 2.0–2.4 s (30–127× the same request with none), with 300 copies 18–24 s (291–1,413×), and at 1,000 copies no request ended within the bench's 2-minute deadline (the API's is 10 s). The cost grew with the square of the copies, each judgement reading the others as candidates. And a corrected original lost its place: after a new headline or a correction line it no longer headed its cluster, having become a near duplicate of its own first copy.\n\n")
	w("Where the time goes now: the number of statements does not grow with the dependants (`repo`'s `TestDependantsInBoundedStatements`), the rows written do. One `UPDATE` writes every dependant whose verdict changes — each copy's link when the original leaves; each copy's status when it is corrected, an exact copy of the old text being a near duplicate of the new — and PostgreSQL rewrites each such row whole, with an entry in each of the table's 15 indexes. Run alone in psql (`EXPLAIN (ANALYZE, WAL)`, 2026-11-27) it took 80 ms for 1,000 copies relinked to a new head: 54 ms writing the rows (17,328 WAL records, 3.2 MB), 16 ms checking their two foreign keys, 10 ms the cluster listing's trigger; and 1.24 s for 10,000 copies' new status (1.06 s writing, 32 MB of WAL, 0.17 s the trigger). The rest — the locks, reading the dependants (their word sets and shingles once for each text), the new content's own judgement, and when the article leaves the judgement of the earliest dependant — is 30–50 ms, whatever their number. On this shared machine the same request varies twofold from one repetition to the next: the p99 of 11 repetitions is their slowest.\n\n")
	if goals {
		w("### Goals of this section\n\n| goal | measured | status |\n| --- | --- | --- |\n")
		for _, g := range correctionGoals(r) {
			st := "**" + g.Status + "**"
			if g.Note != "" {
				st += " — " + g.Note
			}
			w("| %s | %s | %s |\n", g.Goal, orDash(g.Measured), st)
		}
		w("\n")
	}
}

// dependantsList is "0, 100, 1,000 and 10,000".
func dependantsList(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = num(n)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// correctionGoals judges the section's three goals, each over every
// operation.
func correctionGoals(r *CorrectionsResult) []Goal {
	goals := []Goal{
		{Goal: fmt.Sprintf("a correction, replacement or deletion of an article with %s dependants ≤ %.0f ms p99", num(goalCorrectionSmall), goalCorrection1kMS)},
		{Goal: fmt.Sprintf("the same with %s dependants ≤ %.0f s p99", num(goalCorrectionLarger), goalCorrection10kMS/1000)},
		{Goal: fmt.Sprintf("its median with %s dependants ≤ %.0f× the median with none", num(goalCorrectionSmall), goalCorrectionRatio)},
	}
	if r == nil {
		for i := range goals {
			goals[i].Status, goals[i].Note = statusNotMeasured, "this run has no corrections section"
		}
		return goals
	}
	judge := func(g *Goal, n int, value func(*CorrectionRun) float64, limit float64, unit func(float64) string) {
		met := true
		var parts []string
		for _, op := range correctionOps {
			run := r.run(op, n)
			if run == nil {
				g.Status, g.Note = statusNotMeasured, fmt.Sprintf("not measured at %s dependants (-corrections-dependants)", num(n))
				return
			}
			v := value(run)
			met = met && v <= limit && run.Wrong == 0
			part := op + " " + unit(v)
			if run.Wrong > 0 {
				part += fmt.Sprintf(" (%d of %d wrong)", run.Wrong, run.MS.N)
			}
			parts = append(parts, part)
		}
		g.Measured, g.Status = strings.Join(parts, "; "), status(met)
	}
	msUnit := func(v float64) string { return ms(v) + " ms" }
	judge(&goals[0], goalCorrectionSmall, func(c *CorrectionRun) float64 { return c.MS.P99 }, goalCorrection1kMS, msUnit)
	judge(&goals[1], goalCorrectionLarger, func(c *CorrectionRun) float64 { return c.MS.P99 }, goalCorrection10kMS, msUnit)
	judge(&goals[2], goalCorrectionSmall, func(c *CorrectionRun) float64 { return c.Ratio }, goalCorrectionRatio,
		func(v float64) string { return sig(v) + "×" })
	if goals[2].Status != statusNotMeasured && r.run(opHeadline, 0) == nil {
		goals[2].Status, goals[2].Measured, goals[2].Note = statusNotMeasured, "", "no run with 0 dependants to compare with"
	}
	return goals
}
