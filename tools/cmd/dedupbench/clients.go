package main

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// fanOut runs jobs 0..n-1 on clients goroutines, each taking the next job
// when its last one is done, as the HTTP benchmarks' clients do. do runs a
// job; record is handed each job's result and error, one call at a time.
// It returns every job's latency in milliseconds, the seconds the run took
// and the first error do returned: a client stops at its first error, and
// none takes a job once ctx is done.
func fanOut[T any](ctx context.Context, clients, n int, do func(i int) (T, error), record func(r T, err error)) (lat []float64, seconds float64, firstErr error) {
	var (
		next atomic.Int64
		mu   sync.Mutex
		wg   sync.WaitGroup
	)
	start := time.Now()
	for range clients {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				t0 := time.Now()
				r, err := do(i)
				ms := time.Since(t0).Seconds() * 1000
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				lat = append(lat, ms)
				record(r, err)
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	return lat, time.Since(start).Seconds(), firstErr
}
