package service

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// countingAlgorithm records how many fingerprints are being made at once.
type countingAlgorithm struct {
	running, most atomic.Int32
	release       chan struct{}
}

func (a *countingAlgorithm) Version() fingerprint.Version { return fingerprint.VersionWeighted }

func (a *countingAlgorithm) Fingerprint(ctx context.Context, _ fingerprint.Document) (fingerprint.Fingerprint, error) {
	n := a.running.Add(1)
	for {
		m := a.most.Load()
		if n <= m || a.most.CompareAndSwap(m, n) {
			break
		}
	}
	<-a.release
	a.running.Add(-1)
	return fingerprint.Fingerprint{Simhash: 1, Version: fingerprint.VersionWeighted}, nil
}

// TestFingerprintSlots checks that however many requests fingerprint at
// once, at most the service's workers do so together, and that a request
// waiting for a slot gives up when its deadline passes.
func TestFingerprintSlots(t *testing.T) {
	alg := &countingAlgorithm{release: make(chan struct{})}
	s, err := New(nil, alg, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	s.workers, s.slots = 3, make(chan struct{}, 3)

	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() {
			if _, err := s.Fingerprint(context.Background(), Text{Body: "新闻"}); err != nil {
				t.Error(err)
			}
		})
	}
	for alg.running.Load() < 3 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	_, err = s.Fingerprint(ctx, Text{Body: "新闻"})
	cancel()
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("Fingerprint while every slot is taken, deadline passed = %v, want ErrUnavailable", err)
	}
	close(alg.release)
	wg.Wait()
	if most := alg.most.Load(); most != 3 {
		t.Errorf("at most %d fingerprints at once, want 3 (the workers)", most)
	}
}
