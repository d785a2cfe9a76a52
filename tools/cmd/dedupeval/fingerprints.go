package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// signature is the part of a fingerprint the verdict reads: the simhash and the
// word set. OK is false when the text has no words; such a text matches
// nothing.
type signature struct {
	Simhash uint64
	Words   fingerprint.WordSet
	OK      bool
}

// fingerprintAll returns alg's signature of every document, made by workers
// goroutines (fingerprinting is nearly all of the run's CPU time). Each
// result lands at its document's index, so the order of the work does not
// matter.
func fingerprintAll(ctx context.Context, alg fingerprint.Algorithm, docs []fingerprint.Document, workers int) ([]signature, error) {
	out := make([]signature, len(docs))
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for i := range next {
				fp, err := alg.Fingerprint(context.Background(), docs[i])
				switch {
				case errors.Is(err, fingerprint.ErrNoWords):
				case err != nil:
					errs <- fmt.Errorf("fingerprint document %d: %w", i, err)
					return
				default:
					out[i] = signature{Simhash: fp.Simhash, Words: fp.Words, OK: true}
				}
			}
		})
	}
	var err error
feed:
	for i := range docs {
		select {
		case next <- i:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return out, err
}
