package main

import "fmt"

// The goal issue 10 (point 5) sets for the sentence lookup.
const (
	goalSentenceLookupMS = 5.0        // median in the database, one article's sentences at once
	goalSentenceRows     = 10_000_000 // stored sentences
)

// sentenceGoals judges the sentence-lookup section: the latency goal at
// 10,000,000 rows, and the storage it asks to be stated.
func sentenceGoals(r *SentenceLookupResult) []Goal {
	if r == nil {
		return []Goal{{Goal: "sentence lookup of one article against 10,000,000 stored sentences ≤ 5 ms median in the database; storage per stored article stated",
			Status: statusNotMeasured, Note: "this run has no sentence-lookup section (-sentence-rows 0)"}}
	}
	note := ""
	if r.Fallback != "" {
		note = "the real part is 围城 articles, not real news: " + r.Fallback
	}
	latency := Goal{
		Goal: fmt.Sprintf("sentence lookup of one article against %s stored sentences ≤ 5 ms median in the database", num(r.Loaded)),
		Measured: fmt.Sprintf("median %s ms, p99 %s ms (%d articles, median %.0f sentences each; round trip median %s ms)",
			ms(r.DBMS.Median), ms(r.DBMS.P99), r.Queries, r.Sentences.Median, ms(r.ClientMS.Median)),
		Status: status(r.DBMS.Median <= goalSentenceLookupMS),
		Note:   note,
	}
	if r.Loaded != goalSentenceRows {
		latency.Status = statusNotMeasured
		latency.Note = joinNotes(fmt.Sprintf("measured at %s rows, not at 10,000,000 (-sentence-rows)", num(r.Loaded)), note)
	}
	storage := Goal{
		Goal: "storage of the sentence index per stored article stated (table and indexes)",
		Measured: fmt.Sprintf("%s per article (%.1f sentences an article; %s per sentence: heap %s, indexes %s)",
			humanBytes(int64(r.perArticle(r.Sizes.Total))), r.RowsPerArticle, humanBytes(int64(r.perRow(r.Sizes.Total))),
			humanBytes(int64(r.perRow(r.Sizes.Heap))), humanBytes(int64(r.perRow(r.Sizes.BlockTotal+sumValues(r.Sizes.OtherIndexes))))),
		Status: statusMet,
		Note:   note,
	}
	return []Goal{latency, storage}
}

// joinNotes joins the notes that are not empty.
func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
