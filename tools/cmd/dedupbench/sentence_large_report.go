package main

import (
	"fmt"
	"strings"
)

// writeSentenceLarge writes the larger tier of the sentence-lookup
// section: the same index grown (first is the first tier), its storage and
// the memory its lookups need, the same lookups, and what ingest adds an
// article to it.
func writeSentenceLarge(b *strings.Builder, first, r *SentenceLookupResult) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("### At %s sentences\n\n", num(r.Loaded))
	l := r.Load
	w("The same index grown to **%s rows** (issue 38's tier, about %s articles' worth at %.1f sentences an article): %s more synthetic rows on as many synthetic articles as before, in the same way (the indexes dropped during the COPY and built again after it), measured %s; load average (1 min) %s. Bulk COPY %s, indexes %s, VACUUM (ANALYZE) %s.\n\n",
		num(r.Loaded), num(int(float64(r.Loaded)/max(r.RowsPerArticle, 1))), r.RowsPerArticle, num(r.Loaded-first.Loaded),
		r.Date.Format("2006-01-02 15:04 MST"), loadSpan(r.LoadAvg), duration(l.CopySeconds), duration(l.IndexSeconds), duration(l.VacuumSeconds))
	writeSentenceStorage(b, r, "#### Storage")
	indexes := r.Sizes.BlockTotal + sumValues(r.Sizes.OtherIndexes)
	w("**Memory.** A lookup probes the sentence indexes of each of its sentences and reads its matches' rows: the indexes are what must stay in memory (%s in all: the block keys' %s, the text hash's %s), the heap (%s) only where rows match. A lookup touched %.0f buffers at the median and %.0f at the 99th percentile (%s and %s). The server had shared_buffers of %s on a %s machine: the indexes were read into memory (`pg_prewarm`) before the lookups, and what shared_buffers could not hold the kernel's page cache did.\n\n",
		humanBytes(indexes), humanBytes(r.Sizes.OtherIndexes[sentenceBlockKeys]), humanBytes(r.Sizes.OtherIndexes["sentences_text_hash_idx"]), humanBytes(r.Sizes.Heap),
		r.Buffers.Median, r.Buffers.P99, humanBytes(int64(r.Buffers.Median)*8192), humanBytes(int64(r.Buffers.P99)*8192),
		orDash(r.SharedBuffers), fmt.Sprintf("%.0f GiB", r.MemoryGiB))
	writeSentenceLookups(b, r, "#### Lookups")
	if g := r.Growth; g != nil {
		w("#### What ingest adds\n\n")
		if g.ServerMS > 0 {
			w("**CPU.** Storing them took PostgreSQL **%.2f ms of CPU an article** and this process (the service in-process, fingerprinting included) %.2f ms, one batch of %d at a time: at this size the writers' sentence search is most of PostgreSQL's part (the real-news section measures the same on fresh, nearly empty databases).\n\n",
				g.ServerMS, g.ProcessMS, sentenceIngestBatch)
		}
		w("Then %s more Sina articles (the ones after the held-back ones) were stored through the service's own write path, as the real part was, into the index as it stood (%s refused as invalid), in %s: %s sentence rows, %.1f an article. With no VACUUM after, the table `sentences` and its indexes grew by **%s an article** (%.0f B a sentence row): the table %s an article, the indexes %s. The indexes were freshly built, their leaf pages 90 %% full (B-tree's fillfactor): so few rows mostly fill that free space before any page splits, so their part here is less than what an index grown by ingest alone carries (the real-news section's fresh databases are that case: *Bytes per article*).\n\n",
			num(g.Articles+g.Refused), num(g.Refused), duration(g.Seconds), num(g.Rows), float64(g.Rows)/float64(max(g.Articles, 1)),
			humanBytes(int64(g.perArticle())), float64(g.Bytes)/float64(max(g.Rows, 1)),
			humanBytes(g.HeapBytes/int64(max(g.Articles, 1))), humanBytes((g.Bytes-g.HeapBytes)/int64(max(g.Articles, 1))))
	}
}
