package ui

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service"
)

// TestGlanceCache: the day at a glance is counted once while fresh, again
// when older, and a failed count is not kept; while one request counts, the
// others show the figures before.
func TestGlanceCache(t *testing.T) {
	var g glanceCache
	counts := 0
	count := func(context.Context) (service.Overview, error) {
		counts++
		return service.Overview{Now: time.Unix(int64(counts), 0)}, nil
	}
	ctx := context.Background()
	for range 3 {
		if o, err := g.get(ctx, count); err != nil || o.Now.Unix() != 1 {
			t.Fatalf("get = %v, %v; want the first count", o.Now.Unix(), err)
		}
	}
	if counts != 1 {
		t.Errorf("counted %d times while fresh, want 1", counts)
	}
	g.counted = g.counted.Add(-glanceFresh - time.Second)
	if o, _ := g.get(ctx, count); o.Now.Unix() != 2 || counts != 2 {
		t.Errorf("after %s: got count %d (%d counts), want a new one", glanceFresh, o.Now.Unix(), counts)
	}

	// A failed count is not kept: the next request counts again.
	g.counted = g.counted.Add(-glanceFresh - time.Second)
	if _, err := g.get(ctx, func(context.Context) (service.Overview, error) { return service.Overview{}, errors.New("down") }); err == nil {
		t.Error("a failed count: nil error")
	}
	if o, _ := g.get(ctx, count); o.Now.Unix() != 3 {
		t.Errorf("after a failed count: got count %d, want a new one", o.Now.Unix())
	}

	// While one request counts, another shows the figures before.
	g.counted = g.counted.Add(-glanceFresh - time.Second)
	started, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = g.get(ctx, func(context.Context) (service.Overview, error) {
			close(started)
			<-release
			return service.Overview{Now: time.Unix(4, 0)}, nil
		})
	}()
	<-started
	if o, err := g.get(ctx, count); err != nil || o.Now.Unix() != 3 || counts != 3 {
		t.Errorf("while another counts: got count %d (%d counts), %v; want the one before", o.Now.Unix(), counts, err)
	}
	close(release)
	wg.Wait()
	if o, _ := g.get(ctx, count); o.Now.Unix() != 4 {
		t.Errorf("after the other count: got %d, want 4", o.Now.Unix())
	}
}
