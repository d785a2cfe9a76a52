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
	start         time.Time
	outdated      int64 // articles of older versions when the run began
	done, skipped int64 // re-fingerprinted; already upgraded or gone
	// from and horizon bound the unique articles judged again: ingested
	// after position from (the mark the last run left) and before horizon.
	from              service.ArticlePosition
	horizon           time.Time
	rejudged, linked  int64 // unique articles judged again; of them, now linked
	remaining         int64 // articles of older versions left at the end
	version           int16
	rejudging, closed bool
}

func (s *refingerprintStats) progressLine() string {
	rate := float64(s.done+s.skipped) / max(time.Since(s.start).Seconds(), 1e-9)
	return fmt.Sprintf("%d of %d articles fingerprinted again as version %d, %.1f articles/s", s.done+s.skipped, s.outdated, s.version, rate)
}

func (s *refingerprintStats) rejudgeLine() string {
	return fmt.Sprintf("%d unique articles of version %d judged again, %d now linked", s.rejudged, s.version, s.linked)
}

// refingerprint brings every stored article of an older fingerprint version
// to the service's, earliest ingested first; then it judges again every
// unique article of the service's version that was ingested while older
// rows were still there — before the run, during it, during runs that were
// stopped — from the mark the last run left in the database up to the
// horizon before which every row is of the new version (see
// service/upgrade.go). It is resumable: an article already upgraded is
// never read again, and the mark moves on as articles are judged again, so
// a run that was stopped picks up where it was.
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
	// Read (the first time, set) the mark before upgrading anything: the
	// articles upgraded would otherwise count as ingested as the new version.
	if stats.from, err = b.svc.RejudgeMark(ctx); err != nil {
		return fmt.Errorf("refingerprint: %w", err)
	}
	prog := a.newProgress(stats.outdated, "refingerprint", false)

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

	if err := a.rejudge(ctx, b.svc, stats); err != nil {
		return a.refingerprintStopped(stats, err)
	}
	if stats.remaining, err = b.svc.CountOutdated(ctx); err != nil {
		return a.refingerprintStopped(stats, err)
	}
	stats.closed = true
	a.printRefingerprintSummary(stats)
	return nil
}

// rejudge judges again the unique articles of the service's version from
// the mark (stats.from) up to the horizon, moving the mark on after each
// chunk.
func (a *app) rejudge(ctx context.Context, svc *service.Service, stats *refingerprintStats) error {
	stats.rejudging = true
	var err error
	if stats.horizon, err = svc.RejudgeHorizon(ctx); err != nil {
		return err
	}
	prog := a.newProgress(-1, "refingerprint", false)
	after := stats.from
	for {
		chunk, err := svc.UniqueBefore(ctx, stats.horizon, after, refingerprintChunk)
		if err != nil {
			return err
		}
		if len(chunk) == 0 {
			break
		}
		for _, p := range chunk {
			linked, err := svc.Rejudge(ctx, p.ID)
			if err != nil {
				return err
			}
			stats.rejudged++
			if linked {
				stats.linked++
			}
			prog.update(stats.rejudged, stats.rejudgeLine())
		}
		after = chunk[len(chunk)-1]
		if err := svc.MarkRejudged(ctx, after); err != nil {
			return err
		}
	}
	prog.finish(stats.rejudged, stats.rejudgeLine())
	// Every unique article ingested before the horizon is done, whatever
	// the position of the last one.
	return svc.MarkRejudged(ctx, service.ArticlePosition{IngestedAt: stats.horizon})
}

func (a *app) refingerprintStopped(s *refingerprintStats, err error) error {
	a.printRefingerprintSummary(s)
	return fmt.Errorf("refingerprint stopped after %d articles fingerprinted and %d judged again: %w; running it again is safe: it goes on where this run stopped", s.done, s.rejudged, err)
}

func (a *app) printRefingerprintSummary(s *refingerprintStats) {
	w := a.stdout
	fmt.Fprintf(w, "refingerprint: version %d, %s\n", s.version, time.Since(s.start).Round(time.Millisecond))
	row := func(label string, n int64) { fmt.Fprintf(w, "  %-46s %8d\n", label, n) }
	row("articles of older versions at the start", s.outdated)
	row("fingerprinted and judged again", s.done)
	row("skipped (upgraded meanwhile or gone)", s.skipped)
	row("unique articles of this version judged again", s.rejudged)
	row("of them now linked to an older article", s.linked)
	if !s.rejudging || s.horizon.IsZero() {
		return
	}
	fmt.Fprintf(w, "  judged again: the unique articles of version %d ingested after %s (the mark the last run left, or the first of them) and before %s (every row ingested before it is of version %d)\n",
		s.version, s.from.IngestedAt.UTC().Format(time.RFC3339Nano), s.horizon.UTC().Format(time.RFC3339Nano), s.version)
	switch {
	case !s.closed:
	case s.remaining > 0:
		fmt.Fprintf(w, "  %d articles of older versions are left (an older dedupd still writing?): run refingerprint again once none writes\n", s.remaining)
	default:
		fmt.Fprintf(w, "  every article is of version %d; the next run goes on from here\n", s.version)
	}
}
