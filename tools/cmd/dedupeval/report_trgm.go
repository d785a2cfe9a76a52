package main

import (
	"fmt"
	"io"
	"time"
)

// writeTrgm writes the pg_trgm section: how it was measured, its sweep, its
// recall edit by edit against the recommended simhash setting, and its cost.
func writeTrgm(w io.Writer, ev *evaluation) {
	fmt.Fprintf(w, "### pg_trgm, the baseline\n\n")
	tr := ev.Trgm
	if tr == nil {
		fmt.Fprintf(w, "Not measured in this run (`-trgm=false`).\n\n")
		writeChartLink(w)
		return
	}
	fmt.Fprintf(w, "The bodies (pg_trgm compares text; titles are left out, so `headline_changed` is an identical body to it) are loaded into a scratch database with a GIN `gin_trgm_ops` index on the stored originals. ")
	fmt.Fprintf(w, "The database computes `similarity(stored.body, query.body)` for every pair the `%%` operator passes at threshold %.1f, through the index (one lateral lookup per query; %d queries took %v, %v a query); a pair it does not return is below every threshold. ",
		trgmThresholds[0], tr.Queries, tr.AllPairs.Round(time.Millisecond), (tr.AllPairs / time.Duration(max(tr.Queries, 1))).Round(10*time.Microsecond))
	fmt.Fprintf(w, "The scratch database uses LC_CTYPE `%s`: under `C`, the cluster's default here, pg_trgm counts no Chinese character as a letter, finds no trigram in Chinese text and rates every pair 0 — a trap for a team that tries it.\n\n", tr.Locale)

	t := newTable("threshold", "light ≥500 recall", "precision", "copies ≥500 recall", "precision", "F1", "copies <500 recall", "precision", "F1")
	best := bestTrgm(tr.Tallies)
	for i, th := range trgmThresholds {
		light, lc, sc := tr.Tallies.at(longEdit("light"), i), tr.Tallies.at(longCopies, i), tr.Tallies.at(shortCopies, i)
		label := fmt.Sprintf("%.1f", th)
		if i == best.Point {
			label = "**" + label + "** (chosen by the same rule)"
		}
		t.add(label, f3(light.Recall()), f3(light.Precision()), f3(lc.Recall()), f3(lc.Precision()), f3(lc.F1()), f3(sc.Recall()), f3(sc.Precision()), f3(sc.F1()))
	}
	t.write(w)

	rec := ev.recommended()
	rp := ev.Recommended.Score.Point
	fmt.Fprintf(w, "Recall edit by edit, the recommended simhash setting against pg_trgm at %.1f:\n\n", trgmThresholds[best.Point])
	t = newTable("edit", "simhash ≥500", "pg_trgm ≥500", "simhash <500", "pg_trgm <500")
	for _, e := range copyEdits() {
		t.add(editName(e),
			f3(rec.Tallies.at(longEdit(e), rp).Recall()), f3(tr.Tallies.at(longEdit(e), best.Point).Recall()),
			f3(rec.Tallies.at(shortEdit(e), rp).Recall()), f3(tr.Tallies.at(shortEdit(e), best.Point).Recall()))
	}
	t.add("**precision, every copy**",
		precisionOf(rec.Tallies.at(longCopies, rp)), precisionOf(tr.Tallies.at(longCopies, best.Point)),
		precisionOf(rec.Tallies.at(shortCopies, rp)), precisionOf(tr.Tallies.at(shortCopies, best.Point)))
	t.write(w)

	fmt.Fprintf(w, "**What it costs per query** (a side note). One lookup as a service built on pg_trgm would run it — `WHERE body %% $1 ORDER BY similarity DESC LIMIT 10` through the GIN index, at the chosen threshold, one per light copy — ")
	fmt.Fprintf(w, "first against the stored originals, then against them plus filler rows (articles of random sentences of the novel, 500–1,500 runes: they look like the corpus to a trigram index and duplicate no article):\n\n")
	t = newTable("rows in the table", "GIN index build", "median, queries ≥500 runes", "p90", "median, queries <500 runes", "p90")
	for _, lk := range tr.Lookups {
		build := "–"
		if lk.Index > 0 {
			build = lk.Index.Round(100 * time.Millisecond).String()
		}
		t.add(fmt.Sprint(lk.Rows), build,
			median(lk.Long).Round(10*time.Microsecond).String(), percentile(lk.Long, 90).Round(10*time.Microsecond).String(),
			median(lk.Short).Round(10*time.Microsecond).String(), percentile(lk.Short, 90).Round(10*time.Microsecond).String())
	}
	t.write(w)
	fmt.Fprintf(w, "The trigram lookup's cost grows with the table (a trigram's posting list holds every row that has it, and common trigrams are in most rows) and with the length of the query, and every candidate is re-checked by recomputing the similarity of two whole bodies. ")
	fmt.Fprintf(w, "The block index's lookup is eight B-tree probes on 16-bit values whatever the articles' length, and stores 8 bytes of fingerprint and a word set per article instead of the body and its trigram index.\n\n")
	writeChartLink(w)
}

// writeChartLink links the precision–recall chart.
func writeChartLink(w io.Writer) {
	fmt.Fprintf(w, "### Precision against recall\n\n")
	fmt.Fprintf(w, "Every copy but the exact ones, at max_distance 3 as min_word_ratio goes from 0 to 1 (pg_trgm: as the threshold goes from 0.1 to 0.9); long articles left, short right. The precision axis starts at %.1f: the points of the lowest ratios, where distance alone decides, lie below it.\n\n", chartMinPrecision)
	fmt.Fprintf(w, "![Precision against recall](%s)\n\n", chartFile)
}
