package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// fingerprintOnly fingerprints every item once, as the service does at
// ingest, on runtime.GOMAXPROCS goroutines (the service fingerprints on as
// many), and returns the rate in articles/s.
//
// As the service does: its own fingerprinting step (Service.fingerprint,
// unexported) hands the algorithm a fingerprint.Document of the title and
// the body (plain text: the section sends no content_type) with
// SkipSentences set when the service keeps no sentence index; sentences
// says which. Validation and the wait for a fingerprinting slot are left
// out: they cost next to nothing. An article the algorithm refuses (no
// words after normalisation, too long) is counted as "error", as the
// service would refuse it.
func fingerprintOnly(ctx context.Context, alg fingerprint.Algorithm, items []newsItem, sentences bool) (NewsRun, error) {
	workers := runtime.GOMAXPROCS(0)
	runtime.GC()
	var (
		next    atomic.Int64
		refused atomic.Int64
		wg      sync.WaitGroup
	)
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(items) || ctx.Err() != nil {
					return
				}
				doc := fingerprint.Document{Title: items[i].Title, Body: items[i].Body, SkipSentences: !sentences}
				if _, err := alg.Fingerprint(ctx, doc); err != nil {
					refused.Add(1)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	if err := ctx.Err(); err != nil {
		return NewsRun{}, fmt.Errorf("fingerprint-only: %w", err)
	}
	statuses := map[string]int{"ok": len(items) - int(refused.Load())}
	if n := int(refused.Load()); n > 0 {
		statuses["error"] = n
	}
	return NewsRun{Seconds: elapsed, PerSecond: float64(len(items)) / elapsed, Sent: len(items), Statuses: statuses}, nil
}
