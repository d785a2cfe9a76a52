package fingerprint_test

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// rss returns the resident set size of the process in bytes, read from
// /proc/self/statm after a full collection has returned what it can to the
// operating system.
func rss(tb testing.TB) int64 {
	tb.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		tb.Skipf("no /proc/self/statm: %v", err)
	}
	fields := bytes.Fields(data)
	if len(fields) < 2 {
		tb.Fatalf("/proc/self/statm = %q", data)
	}
	pages, err := strconv.ParseInt(string(fields[1]), 10, 64)
	if err != nil {
		tb.Fatalf("/proc/self/statm = %q: %v", data, err)
	}
	return pages * int64(os.Getpagesize())
}

// TestNoCMemoryGrowth checks that fingerprinting frees the C memory gojieba
// allocates for every call: 100,000 fingerprints of short texts must not grow
// the process by more than 64 MiB. A leak of a few hundred bytes per call
// (one segmentation result) would exceed that; the Go heap is collected
// before each reading, so only C memory can grow.
func TestNoCMemoryGrowth(t *testing.T) {
	const (
		warmUp   = 10_000
		calls    = 100_000
		maxGrown = 64 << 20
	)
	var docs []fingerprint.Document
	for _, a := range mustNovel(t).Overlapping(newRand(61), 1000, 35, 100) {
		docs = append(docs, fingerprint.Document{Title: a.Title, Body: a.Body})
	}
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	run := func(from, n int) {
		for i := from; i < from+n; i++ {
			if _, err := alg.Fingerprint(context.Background(), docs[i%len(docs)]); err != nil {
				t.Fatalf("Fingerprint(%q) = %v", docs[i%len(docs)].Body, err)
			}
		}
	}
	size := 0
	for _, d := range docs {
		size += len(d.Title) + len(d.Body)
	}
	t.Logf("%d distinct texts of %d bytes on average", len(docs), size/len(docs))

	run(0, warmUp)
	before := rss(t)
	run(warmUp, calls)
	after := rss(t)
	t.Logf("RSS after %d warm-up calls: %.1f MiB; after %d more: %.1f MiB (%+.1f MiB)",
		warmUp, float64(before)/(1<<20), calls, float64(after)/(1<<20), float64(after-before)/(1<<20))
	if after-before > maxGrown {
		t.Errorf("RSS grew by %.1f MiB over %d fingerprints, want at most %d MiB", float64(after-before)/(1<<20), calls, maxGrown>>20)
	}
}
