package main

import (
	"fmt"
	"strings"
)

// writeNewsBytes writes what each run grew its fresh database by, per
// article stored: in all, and the sentence index's part. Issue 38 asks the
// sentence index to grow the database by 2 KiB an article at most: the
// difference between the runs with and without it.
func writeNewsBytes(b *strings.Builder, r *NewsIngestResult) {
	rows := r.bytesRows()
	if len(rows) == 0 {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("### Bytes per article\n\n")
	w("What each run grew its fresh database by (`pg_database_size` before and after; no VACUUM after the run, so free space left by page splits counts, as an archive that ingest grows carries it), and the sentence index's part of it (`pg_total_relation_size('sentences')`: the table with its indexes), over the articles stored; medians of the runs, min–max beside them. *With − without* puts each run with the sentence index over the run without it of the same repetition: what the index costs an article.\n\n")
	w("| measurement | clients | sentence index | database grew: median | min–max | sentence index: median | with − without: median | min–max |\n| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, row := range rows {
		diff, diffSpread := "—", "—"
		if row.diff.N > 0 {
			diff, diffSpread = humanBytes(int64(row.diff.Median)), humanBytes(int64(row.diff.Min))+"–"+humanBytes(int64(row.diff.Max))
		}
		w("| %s | %d | %s | %s | %s–%s | %s | %s | %s |\n", row.kind, row.clients, onOff(row.sentences),
			humanBytes(int64(row.database.Median)), humanBytes(int64(row.database.Min)), humanBytes(int64(row.database.Max)),
			humanBytes(int64(row.sentenceIndex.Median)), diff, diffSpread)
	}
	w("\n")
}

// bytesRow is one measurement's bytes per article stored.
type bytesRow struct {
	kind                    string
	clients                 int
	sentences               bool
	database, sentenceIndex Summary
	diff                    Summary // with the index over the same repetition's run without it; empty for off
}

// bytesRows summarises the bytes of the batch and single-article runs
// measured with them.
func (r *NewsIngestResult) bytesRows() []bytesRow {
	var out []bytesRow
	for _, m := range r.Modes {
		if m.Kind == newsFingerprint {
			continue
		}
		db, idx := perStoredArticle(m.Runs, func(b *RunBytes) int64 { return b.Database }), perStoredArticle(m.Runs, func(b *RunBytes) int64 { return b.Sentences })
		if db == nil {
			continue
		}
		row := bytesRow{kind: m.Kind, clients: m.Clients, sentences: m.Sentences, database: summarize(db), sentenceIndex: summarize(idx)}
		if off := r.mode(m.Kind, false, m.Clients); m.Sentences && off != nil {
			if offDB := perStoredArticle(off.Runs, func(b *RunBytes) int64 { return b.Database }); offDB != nil {
				row.diff = summarize(pairwise(db, offDB, func(on, off float64) float64 { return on - off }))
			}
		}
		out = append(out, row)
	}
	return out
}

// perStoredArticle is, for each run, the bytes field picks over the
// articles it stored; nil when a run has no bytes (measured before they
// were).
func perStoredArticle(runs []NewsRun, field func(*RunBytes) int64) []float64 {
	var out []float64
	for _, run := range runs {
		if run.Bytes == nil || run.Stored == 0 {
			return nil
		}
		out = append(out, float64(field(run.Bytes))/float64(run.Stored))
	}
	return out
}

// pairwise applies f to the i-th values of a and b, as far as both go: two
// measurements' runs of the same repetitions.
func pairwise(a, b []float64, f func(x, y float64) float64) []float64 {
	out := make([]float64, 0, min(len(a), len(b)))
	for i := range min(len(a), len(b)) {
		out = append(out, f(a[i], b[i]))
	}
	return out
}
