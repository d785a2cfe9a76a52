package main

import "fmt"

// newsCheckGoals judges /v1/check on real news against issue 11's goals
// (goalCheckP99MS for one client, goalCheckP99ConcurrentMS for more), for
// each kind of request. They are set at goalTier stored articles: at
// another size the figures are shown but not judged.
func newsCheckGoals(r *NewsCheckResult) []Goal {
	const what = "/v1/check p99 ≤ 10 ms (one client) and ≤ 50 ms (16 clients) at 1,000,000 rows on real news"
	switch {
	case r == nil:
		return []Goal{{Goal: what, Status: statusNotMeasured, Note: "this run has no check-on-real-news section (-news-check-rows 0, or a run from before the section)"}}
	case r.Skipped != "":
		return []Goal{{Goal: what, Status: statusNotMeasured, Note: "the real corpora were missing: " + r.Skipped}}
	}
	note := ""
	if r.Rows != goalTier {
		note = fmt.Sprintf("measured at %s rows, not at 1,000,000 (-news-check-rows)", num(r.Rows))
	}
	if r.Unstored > 0 {
		note = joinNotes(note, fmt.Sprintf("only %s real articles stored (-news-check-articles), not every one", num(r.News)))
	}
	var goals []Goal
	for _, kind := range []string{newsCheckReposts, newsCheckNew} {
		for _, many := range []bool{false, true} {
			goals = append(goals, newsCheckGoal(r, kind, many, note))
		}
	}
	return goals
}

// newsCheckGoal judges the run of kind with one client or, with many, the
// run with more: its median run by p99 when it was repeated.
func newsCheckGoal(r *NewsCheckResult, kind string, many bool, note string) Goal {
	limit, who := goalCheckP99MS, "one client"
	var run *NewsCheckRun
	for _, clients := range r.clientCounts(kind) {
		if (clients > 1) == many {
			run = r.run(kind, clients)
		}
	}
	if many {
		limit, who = goalCheckP99ConcurrentMS, "16 clients"
		if run != nil {
			who = fmt.Sprintf("%d clients", run.Clients)
		}
	}
	g := Goal{Goal: fmt.Sprintf("/v1/check p99 ≤ %.0f ms at 1,000,000 rows on real news — %s, %s", limit, newsCheckKindLabel(kind), who),
		Status: statusNotMeasured, Note: note}
	if run == nil {
		return g
	}
	p99, rate := r.spread(kind, run.Clients)
	if p99.N > 1 {
		g.Measured = fmt.Sprintf("p99 %s ms (median of %d runs; %s–%s), p50 %s ms, %.0f requests/s (%.0f–%.0f) (%s rows)",
			ms(run.LatencyMS.P99), p99.N, ms(p99.Min), ms(p99.Max), ms(run.LatencyMS.Median), run.PerSecond, rate.Min, rate.Max, num(r.Loaded))
	} else {
		g.Measured = fmt.Sprintf("p99 %s ms, p50 %s ms, %.0f requests/s (%s rows)", ms(run.LatencyMS.P99), ms(run.LatencyMS.Median), run.PerSecond, num(r.Loaded))
	}
	if r.Rows == goalTier && r.Unstored == 0 {
		g.Status = status(run.LatencyMS.P99 <= limit)
	}
	return g
}

// newsCheckKindLabel says what a kind of request is, in goals and tables.
func newsCheckKindLabel(kind string) string {
	switch kind {
	case newsCheckReposts:
		return "reposts of stored news"
	case newsCheckNew:
		return "new stories (never stored)"
	}
	return kind
}
