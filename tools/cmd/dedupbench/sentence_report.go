package main

import (
	"fmt"
	"slices"
	"strings"
)

// sentenceSectionTitle is the heading of the sentence-lookup section in
// benchmarks.md.
const sentenceSectionTitle = "Sentence lookup"

// writeSentenceLookup writes the sentence-lookup section; with goals, the
// section's goals too (for -only, whose output stands alone).
func writeSentenceLookup(b *strings.Builder, r, large *SentenceLookupResult, goals bool) {
	if r == nil {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("## %s\n\n", sentenceSectionTitle)
	w("All the indexed sentences of one article looked up at once, as the service looks them up when it checks or ingests an article (`repo` `sentenceMatchesSQL`, one statement per article: per sentence, the stored sentences with the same text hash and those within %d bits through the block keys' GIN index, a match needed in both families, at most %d), in a sentence index of **%s rows**. ",
		serviceSentenceMaxDistance, serviceSentencePerSentence, num(r.Loaded))
	w("Measured %s by `DATABASE_URL=… %s`, source at `%s`, in %s; load average (1 min) %s (the machine is shared).\n\n",
		r.Date.Format("2006-01-02 15:04 MST"), strings.TrimSpace(r.Command), orDash(r.Commit), duration(r.TotalSeconds), loadSpan(r.LoadAvg))

	w("### The index\n\n")
	if r.Fallback != "" {
		w("**The real corpora were MISSING** (%s): the real part is %s articles cut from 围城 instead, so its sentences are not news sentences. Run it where `../shared/corpora` is (or pass `-corpora DIR`).\n\n", r.Fallback, num(r.RealArticles))
	} else {
		w("The real part is the first %s articles of the Sina corpus (in `%s`; read at run time, never copied into the repository), ", num(r.RealArticles), r.CorporaDir)
	}
	w("stored through the service's own write path (`service.IngestBatch` on a `repo.Store`, in-process, batches of %d; %s refused as invalid, such as an empty body): %s sentence rows, **%.1f per article**, %.1f %% without a simhash (fewer than four content words, or under 20 characters). The next %s articles of the same source are held back, unstored, to query.\n\n",
		sentenceIngestBatch, num(r.RealRefused), num(r.RealRows), r.RowsPerArticle, 100*r.RealNoSimhash, num(r.UnstoredArticles))
	l := r.Load
	dropped := "the block keys' index and the text hash's"
	if l.ForeignKeySeconds > 0 { // a run from before migration 00013
		dropped += " and the foreign key to articles"
	}
	w("The bulk is %s synthetic sentence rows on %s synthetic articles (%d sentences each, the real mean, written together as the service writes an article's), with uniformly random simhashes and text hashes (the block columns left empty, as the service leaves them); each takes the length, word count and simhash-or-none of a real sentence drawn at random, so a row weighs what a real one weighs. Loaded with COPY, %s dropped during it and restored after it:\n\n",
		num(r.BulkRows), num(r.BulkArticles), r.BulkPerArticle, dropped)
	if l.ForeignKeySeconds > 0 {
		w("| real part through the service | bulk COPY | indexes | foreign key | VACUUM (ANALYZE) |\n| ---: | ---: | ---: | ---: | ---: |\n")
		w("| %s | %s | %s | %s | %s |\n\n", duration(l.RealIngestSeconds), duration(l.CopySeconds), duration(l.IndexSeconds), duration(l.ForeignKeySeconds), duration(l.VacuumSeconds))
	} else {
		w("| real part through the service | bulk COPY | indexes | VACUUM (ANALYZE) |\n| ---: | ---: | ---: | ---: |\n")
		w("| %s | %s | %s | %s |\n\n", duration(l.RealIngestSeconds), duration(l.CopySeconds), duration(l.IndexSeconds), duration(l.VacuumSeconds))
	}

	writeSentenceStorage(b, r, "### Storage")
	writeSentenceLookups(b, r, "### Lookups")
	if large != nil {
		writeSentenceLarge(b, r, large)
	}

	if goals {
		w("### Goals of this section\n\n| goal | measured | status |\n| --- | --- | --- |\n")
		for _, g := range sentenceGoals(r, large) {
			st := "**" + g.Status + "**"
			if g.Note != "" {
				st += " — " + g.Note
			}
			w("| %s | %s | %s |\n", g.Goal, orDash(g.Measured), st)
		}
		w("\n")
	}
}

// kindList lists the query kinds and their counts in a fixed order.
func kindList(kinds map[string]int) string {
	var parts []string
	for _, k := range sentenceKinds {
		if n := kinds[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	return strings.Join(parts, ", ")
}

// shapeList lists plan shapes, the most frequent first.
func shapeList(shapes map[string]int) string {
	keys := make([]string, 0, len(shapes))
	for k := range shapes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if shapes[a] != shapes[b] {
			return shapes[b] - shapes[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d× `%s`", shapes[k], k)
	}
	return strings.Join(parts, "; ")
}

// writeSentenceStorage writes the sizes of the index r measured, as built.
func writeSentenceStorage(b *strings.Builder, r *SentenceLookupResult, heading string) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("%s\n\n", heading)
	w("`pg_relation_size` of the table `sentences` and of each of its indexes as built (freshly loaded and vacuumed: a table written by ingest over months carries some more free space). Per article is per row times the real part's %.1f sentences an article.\n\n", r.RowsPerArticle)
	w("| relation | size | per sentence row | per stored article |\n| --- | ---: | ---: | ---: |\n")
	row := func(name string, size int64) {
		w("| %s | %s | %.0f B | %s |\n", name, humanBytes(size), r.perRow(size), humanBytes(int64(r.perArticle(size))))
	}
	s := r.Sizes
	row("heap", s.Heap)
	if s.Toast > 0 {
		row("TOAST", s.Toast)
	}
	row("the eight block B-trees (rows from before migration 00019)", s.BlockTotal)
	others := make([]string, 0, len(s.OtherIndexes))
	for name := range s.OtherIndexes {
		others = append(others, name)
	}
	slices.Sort(others)
	for _, name := range others {
		row("`"+name+"`", s.OtherIndexes[name])
	}
	row("**total** (table and indexes)", s.Total)
	w("\n")

}

// writeSentenceLookups writes the lookups r measured.
func writeSentenceLookups(b *strings.Builder, r *SentenceLookupResult, heading string) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("%s\n\n", heading)
	w("%d articles, %s, each fingerprinted as the service fingerprints it (`Weighted`, `DefaultWeightedParams`, sentences included); the statement and its arguments are read off a traced `repo.Store` asked `SentenceMatches` with the service's query (distance %d, at most %d per sentence, no article excluded). Each ran once under EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) — *in the database* is its Execution Time — and once as a plain query whose rows the client reads (*round trip*), after %d uncounted warm-up lookups and with the block keys' and the text hash's indexes prewarmed (`pg_prewarm`), as steady traffic keeps them.\n\n",
		r.Queries, kindList(r.QueryKinds), serviceSentenceMaxDistance, serviceSentencePerSentence, sentenceWarmups)
	w("| per article | median | p90 | p99 | max |\n| --- | ---: | ---: | ---: | ---: |\n")
	w("| in the database (ms) | %s | %s | %s | %s |\n", ms(r.DBMS.Median), ms(r.DBMS.P90), ms(r.DBMS.P99), ms(r.DBMS.Max))
	w("| planning (ms) | %s | %s | %s | %s |\n", ms(r.PlanningMS.Median), ms(r.PlanningMS.P90), ms(r.PlanningMS.P99), ms(r.PlanningMS.Max))
	w("| round trip (ms) | %s | %s | %s | %s |\n", ms(r.ClientMS.Median), ms(r.ClientMS.P90), ms(r.ClientMS.P99), ms(r.ClientMS.Max))
	if r.Buffers.N > 0 {
		w("| buffers touched (8 KiB pages) | %.0f | %.0f | %.0f | %.0f |\n", r.Buffers.Median, r.Buffers.P90, r.Buffers.P99, r.Buffers.Max)
	}
	w("| sentences looked up | %.0f | %.0f | %.0f | %.0f |\n", r.Sentences.Median, r.Sentences.P90, r.Sentences.P99, r.Sentences.Max)
	w("| rows returned | %.0f | %.0f | %.0f | %.0f |\n", r.Returned.Median, r.Returned.P90, r.Returned.P99, r.Returned.Max)
	w("| sentences found | %.0f | %.0f | %.0f | %.0f |\n\n", r.Found.Median, r.Found.P90, r.Found.P99, r.Found.Max)
	if r.BitmapAnd > 0 { // a run before migration 00019
		w("**Plan**: %d of %d lookups AND the bitmaps of the sentence block indexes (BitmapAnd).", r.BitmapAnd, r.Queries)
	} else {
		w("**Plan**: %d of %d lookups ask the block keys' GIN index for both families in one scan (`%s`).", r.BlockKeys, r.Queries, sentenceBlockKeys)
	}
	w(" Shapes: %s. Of the %d lookups of a stored article's own text, %d found every one of its sentences in it, and %d every one in it or, for a sentence many articles hold, the %d matches the limit lets through (which need not include the article's own).\n\n",
		shapeList(r.Shapes), r.StoredQueries, r.StoredAllFound, r.StoredAllFoundOrCapped, serviceSentencePerSentence)
	w("In the database by kind of article (ms):\n\n| kind | lookups | median | p90 | p99 | max |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, k := range sentenceKinds {
		if d, ok := r.DBMSByKind[k]; ok {
			w("| %s | %d | %s | %s | %s | %s |\n", k, d.N, ms(d.Median), ms(d.P90), ms(d.P99), ms(d.Max))
		}
	}
	w("\n")

}
