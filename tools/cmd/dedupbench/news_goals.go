package main

import "fmt"

// The goals issue 11 sets for ingest on real news.
const (
	goalNewsBatchPerSec          = 2000 // batch ingest, sentence index off, 2–4 clients
	goalNewsBatchRatio           = 0.70 // batch ingest over fingerprint-only, same run
	goalNewsSinglePerSec         = 600  // POST /v1/articles, 16 clients
	goalNewsBatchSentencesPerSec = 1000 // batch ingest, sentence index on
)

// newsGoals judges the real-news section's figures: each on the median of
// its repetitions, the spread shown beside it.
func newsGoals(r *NewsIngestResult) []Goal {
	if r == nil {
		return []Goal{{Goal: "ingest on real news (batch ≥ 2,000 articles/s; ≥ 70 % of fingerprint-only; single POST ≥ 600/s; ≥ 1,000/s with the sentence index)",
			Status: statusNotMeasured, Note: "this run has no real-news section"}}
	}
	note := ""
	what := "real news"
	if r.Fallback != "" {
		what = "围城 articles"
		note = "measured on 围城 articles, not real news: " + r.Fallback
	}
	rate := func(m *NewsMode) string {
		return fmt.Sprintf("%s articles/s (median of %d; %s–%s)", num0(m.PerSecond.Median), len(m.Runs), num0(m.PerSecond.Min), num0(m.PerSecond.Max))
	}
	var goals []Goal
	add := func(goal string, m *NewsMode, measured func(*NewsMode) string, ok func(*NewsMode) bool) {
		g := Goal{Goal: goal, Status: statusNotMeasured, Note: note}
		if m != nil && len(m.Runs) > 0 {
			g.Measured, g.Status = measured(m), status(ok(m))
		}
		goals = append(goals, g)
	}
	for _, c := range r.batchClients() {
		add(fmt.Sprintf("batch ingest of %s ≥ 2,000 articles/s — %d clients, sentence index off", what, c),
			r.mode(newsBatch, false, c), rate, func(m *NewsMode) bool { return m.PerSecond.Median >= goalNewsBatchPerSec })
	}
	for _, c := range r.batchClients() {
		for _, s := range []bool{false, true} {
			add(fmt.Sprintf("batch ingest ≥ 70 %% of the fingerprint-only rate of the same run — %d clients, sentence index %s", c, onOff(s)),
				r.mode(newsBatch, s, c),
				func(m *NewsMode) string {
					if m.Ratio == nil {
						return "no ratio"
					}
					fp := r.mode(newsFingerprint, s, 0)
					if fp == nil {
						return fmt.Sprintf("%.0f %% (median of %d; %.0f–%.0f %%)", 100*m.Ratio.Median, len(m.Runs), 100*m.Ratio.Min, 100*m.Ratio.Max)
					}
					return fmt.Sprintf("%.0f %% (median of %d; %.0f–%.0f %%): %s of %s fingerprint-only articles/s (medians)",
						100*m.Ratio.Median, len(m.Runs), 100*m.Ratio.Min, 100*m.Ratio.Max, num0(m.PerSecond.Median), num0(fp.PerSecond.Median))
				},
				func(m *NewsMode) bool { return m.Ratio != nil && m.Ratio.Median >= goalNewsBatchRatio })
		}
	}
	for _, c := range r.batchClients() {
		add(fmt.Sprintf("batch ingest of %s ≥ 1,000 articles/s with the sentence index on — %d clients", what, c),
			r.mode(newsBatch, true, c), rate, func(m *NewsMode) bool { return m.PerSecond.Median >= goalNewsBatchSentencesPerSec })
	}
	for _, s := range []bool{true, false} {
		m := r.mode(newsSingle, s, 0)
		clients := 0
		if m != nil {
			clients = m.Clients
		}
		add(fmt.Sprintf("single-article POST /v1/articles of %s ≥ 600 articles/s — %d clients, sentence index %s", what, clients, onOff(s)),
			m, rate, func(m *NewsMode) bool { return m.PerSecond.Median >= goalNewsSinglePerSec })
	}
	return goals
}

// batchClients lists the client counts of the batch measurements, in
// order.
func (r *NewsIngestResult) batchClients() []int {
	var out []int
	for _, m := range r.Modes {
		if m.Kind == newsBatch && m.Sentences {
			out = append(out, m.Clients)
		}
	}
	return out
}

// num0 formats a rate as a whole number with thousands separators.
func num0(x float64) string { return num(int(x + 0.5)) }
