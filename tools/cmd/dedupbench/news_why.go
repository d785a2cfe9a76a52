package main

import (
	"fmt"
	"strings"
)

// writeNewsWhy says, from the section's own figures, what bounds ingest on
// this machine: the fingerprint-only ceiling, and what the sentence index
// and single requests cost on top of it. It writes nothing for a run
// without fingerprint-only figures.
func writeNewsWhy(b *strings.Builder, r *NewsIngestResult) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	fpOn, fpOff := r.mode(newsFingerprint, true, 0), r.mode(newsFingerprint, false, 0)
	if fpOn == nil || fpOff == nil {
		return
	}
	w("### What bounds these figures\n\n")
	if fpOff.PerSecond.Median < goalNewsBatchPerSec {
		w("- **The ceiling.** Every article is fingerprinted before it is stored, on the same %d cores as PostgreSQL and the clients: the fingerprint-only rate, %s articles/s without sentence work, is what ingest could reach with a storage that cost nothing. The goal of %s articles/s is above it on this machine whatever the storage does; the ratio to fingerprint-only is the goal that travels between machines.\n",
			r.Workers, num0(fpOff.PerSecond.Median), num0(goalNewsBatchPerSec))
	}
	if on, off := r.bestBatch(true), r.bestBatch(false); on != nil && off != nil && on.Ratio != nil && off.Ratio != nil {
		w("- **The sentence index.** %s, and storing costs more than fingerprinting: each indexed sentence is a row with nine B-tree entries (eight block values, the text hash) and its place in a BRIN range of its article, one advisory lock per distinct sentence that is not known boilerplate, and a lookup against every stored sentence (the *Sentence lookup* section measures the rows per article). Batch ingest keeps %.0f %% of the fingerprint-only rate with it (%d clients) against %.0f %% without it (%d clients): the index's write cost, not the fingerprint, is what the sentence-index goal waits on.\n",
			sentenceFingerprintCost(fpOn.PerSecond.Median, fpOff.PerSecond.Median), on.Ratio.Median*100, on.Clients, off.Ratio.Median*100, off.Clients)
	}
	if single, batch := r.mode(newsSingle, false, 0), r.bestBatch(false); single != nil && batch != nil {
		w("- **Single requests.** One request per article pays its HTTP round trip and JSON on the shared cores, and concurrent requests are stored in groups only as large as the requests waiting at the moment (%d clients): %s articles/s against %s in batches of %d, without the sentence index.\n",
			single.Clients, num0(single.PerSecond.Median), num0(batch.PerSecond.Median), r.BatchSize)
	}
	w("\n")
}

// bestBatch returns the batch measurement with the highest median rate,
// with or without the sentence index; nil when there is none.
func (r *NewsIngestResult) bestBatch(sentences bool) *NewsMode {
	var best *NewsMode
	for i := range r.Modes {
		m := &r.Modes[i]
		if m.Kind == newsBatch && m.Sentences == sentences && (best == nil || m.PerSecond.Median > best.PerSecond.Median) {
			best = m
		}
	}
	return best
}

// sentenceFingerprintCost says what fingerprinting each sentence cost, from
// the fingerprint-only medians with (on) and without it (off): on a shared
// machine the run with more work can come out faster, and the sentence then
// says so rather than that fingerprinting slowed to a higher rate.
func sentenceFingerprintCost(on, off float64) string {
	if on < off {
		return fmt.Sprintf("Fingerprinting slows from %s to %s articles/s once each sentence gets its own simhash", num0(off), num0(on))
	}
	return fmt.Sprintf("Fingerprinting with each sentence's own simhash ran at %s articles/s against %s without it: the sentences' fingerprints cost less than this shared machine's noise", num0(on), num0(off))
}
