package service

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// wordlessAlgorithm counts and holds fingerprints as countingAlgorithm
// does, then finds no words: the check ends there, before any statement.
type wordlessAlgorithm struct{ countingAlgorithm }

func (a *wordlessAlgorithm) Fingerprint(ctx context.Context, doc fingerprint.Document) (fingerprint.Fingerprint, error) {
	a.countingAlgorithm.Fingerprint(ctx, doc)
	return fingerprint.Fingerprint{}, fingerprint.ErrNoWords
}

// TestCheckTurns checks that however many checks arrive at once, at most
// the service's check turns are in progress together (with more
// fingerprinting slots than turns, so that the turns are what holds them
// back), that a check waiting for a turn gives up when its deadline
// passes, and that an invalid request is refused at once, turn or none.
func TestCheckTurns(t *testing.T) {
	alg := &wordlessAlgorithm{countingAlgorithm{release: make(chan struct{})}}
	s, err := New(nil, alg, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	s.workers, s.slots, s.checkTurns = 8, make(chan struct{}, 8), make(chan struct{}, 3)
	article := ArticleInput{Text: Text{Body: "新闻"}}

	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() {
			if _, err := s.Check(context.Background(), article, DefaultOptions); !errors.Is(err, ErrInvalid) {
				t.Errorf("Check of a text without words = %v, want ErrInvalid", err)
			}
		})
	}
	for alg.running.Load() < 3 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	_, err = s.Check(ctx, article, DefaultOptions)
	cancel()
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("Check while every turn is taken, deadline passed = %v, want ErrUnavailable", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	invalid := article
	invalid.ExternalID = strings.Repeat("x", MaxExternalIDLength+1)
	_, err = s.Check(ctx, invalid, DefaultOptions)
	cancel()
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("Check of an invalid request while every turn is taken = %v, want ErrInvalid", err)
	}
	close(alg.release)
	wg.Wait()
	if most := alg.most.Load(); most != 3 {
		t.Errorf("at most %d checks fingerprinting at once, want 3 (the turns)", most)
	}
}
