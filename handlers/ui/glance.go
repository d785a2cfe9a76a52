package ui

import (
	"context"
	"sync"
	"time"

	"github.com/newsdedup/newsdedup/service"
)

// What the list costs at a million articles, bounded (docs/ui.md, "Usable
// at a thousand clusters a day"): counting a month's duplicates for the day
// at a glance reads some 100,000 index entries, the same for every editor,
// so it is kept for glanceFresh and shared; the list's total counts up to
// countUpTo clusters ("more than 10,000"), as exact counts of a common
// source's clusters cost tens of milliseconds on every load.
const (
	glanceFresh = 30 * time.Second
	countUpTo   = 10_000
)

// glanceCache is the day at a glance, counted at most once per
// glanceFresh: a request that finds it older counts it again while the
// others meanwhile show the one before. The page shows when it was counted
// (the last 24 hours' bounds).
type glanceCache struct {
	mu       sync.Mutex
	counted  time.Time
	overview service.Overview
	counting bool
}

func (g *glanceCache) get(ctx context.Context, count func(context.Context) (service.Overview, error)) (service.Overview, error) {
	g.mu.Lock()
	if !g.counted.IsZero() && (g.counting || time.Since(g.counted) < glanceFresh) {
		o := g.overview
		g.mu.Unlock()
		return o, nil
	}
	g.counting = true
	g.mu.Unlock()
	o, err := count(ctx)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.counting = false
	if err == nil {
		g.overview, g.counted = o, time.Now()
	}
	return o, err
}
