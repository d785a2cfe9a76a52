package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/newsdedup/newsdedup/service"
)

// refingerprintChunk is how many articles one read of the articles to
// upgrade returns; each article is then upgraded in a transaction of its
// own, so the service keeps serving.
const refingerprintChunk = 500

// refingerprintStats counts what a refingerprint run did.
type refingerprintStats struct {
	start              time.Time
	outdated           int64 // articles of older versions when the run began
	done, skipped      int64 // re-fingerprinted; already upgraded or gone
	ingested, relinked int64 // articles ingested during the run and judged again; of them, now linked
	version            int16
}

func (s *refingerprintStats) progressLine() string {
	rate := float64(s.done+s.skipped) / max(time.Since(s.start).Seconds(), 1e-9)
	return fmt.Sprintf("%d of %d articles fingerprinted again as version %d, %.1f articles/s", s.done+s.skipped, s.outdated, s.version, rate)
}

// refingerprint brings every stored article of an older fingerprint version
// to the service's, earliest ingested first, then judges again the unique
// articles ingested meanwhile (see service/upgrade.go). It is resumable: an
// article already upgraded is never read again, so a run that was stopped
// picks up where it was.
func (a *app) refingerprint(ctx context.Context, cfg Config, log *slog.Logger) error {
	b, err := a.openBackend(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer b.close(log)
	if err := b.svc.Ready(ctx); err != nil {
		return fmt.Errorf("refingerprint: %w", err)
	}
	stats := &refingerprintStats{start: time.Now(), version: b.svc.Version()}
	if stats.outdated, err = b.svc.CountOutdated(ctx); err != nil {
		return fmt.Errorf("refingerprint: %w", err)
	}
	prog := a.newProgress(stats.outdated, "refingerprint", false)
	since := time.Now() // articles ingested from now on were judged without the old ones not yet done

	var after service.ArticlePosition
	for {
		chunk, err := b.svc.OutdatedArticles(ctx, after, refingerprintChunk)
		if err != nil {
			return a.refingerprintStopped(stats, err)
		}
		if len(chunk) == 0 {
			break
		}
		for _, p := range chunk {
			done, err := b.svc.Refingerprint(ctx, p.ID)
			if err != nil {
				return a.refingerprintStopped(stats, err)
			}
			if done {
				stats.done++
			} else {
				stats.skipped++
			}
			prog.update(stats.done+stats.skipped, stats.progressLine())
		}
		after = chunk[len(chunk)-1]
	}
	prog.finish(stats.done+stats.skipped, stats.progressLine())

	after = service.ArticlePosition{}
	for {
		chunk, err := b.svc.UniqueSince(ctx, since, after, refingerprintChunk)
		if err != nil {
			return a.refingerprintStopped(stats, err)
		}
		if len(chunk) == 0 {
			break
		}
		for _, p := range chunk {
			linked, err := b.svc.Rejudge(ctx, p.ID)
			if err != nil {
				return a.refingerprintStopped(stats, err)
			}
			stats.ingested++
			if linked {
				stats.relinked++
			}
		}
		after = chunk[len(chunk)-1]
	}
	a.printRefingerprintSummary(stats)
	return nil
}

func (a *app) refingerprintStopped(s *refingerprintStats, err error) error {
	a.printRefingerprintSummary(s)
	return fmt.Errorf("refingerprint stopped after %d articles: %w; running it again is safe: it goes on with the articles not yet upgraded", s.done, err)
}

func (a *app) printRefingerprintSummary(s *refingerprintStats) {
	w := a.stdout
	fmt.Fprintf(w, "refingerprint: version %d, %s\n", s.version, time.Since(s.start).Round(time.Millisecond))
	row := func(label string, n int64) { fmt.Fprintf(w, "  %-42s %8d\n", label, n) }
	row("articles of older versions at the start", s.outdated)
	row("fingerprinted and judged again", s.done)
	row("skipped (upgraded meanwhile or gone)", s.skipped)
	row("ingested during the run and judged again", s.ingested)
	row("of them now linked to an older article", s.relinked)
}
