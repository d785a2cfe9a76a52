package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// signature is the part of a fingerprint the sweep reads.
type signature struct {
	Simhash uint64
	OK      bool // false when the text has no words: it matches nothing
}

// texts are what the fingerprints do not change between settings: the
// sampled shingles and the content hash of every document.
type texts struct {
	Shingles []fingerprint.ShingleSet
	Content  [][sha256.Size]byte
}

// fingerprintAll returns alg's signature of every document (and, when keep
// is not nil, fills in its shingles and content hashes), on workers
// goroutines.
func fingerprintAll(ctx context.Context, alg fingerprint.Algorithm, docs []fingerprint.Document, workers int, keep *texts) ([]signature, error) {
	out := make([]signature, len(docs))
	if keep != nil {
		keep.Shingles = make([]fingerprint.ShingleSet, len(docs))
		keep.Content = make([][sha256.Size]byte, len(docs))
	}
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for i := range next {
				fp, err := alg.Fingerprint(ctx, docs[i])
				switch {
				case errors.Is(err, fingerprint.ErrNoWords):
				case err != nil:
					errs <- fmt.Errorf("fingerprint document %d: %w", i, err)
					return
				default:
					out[i] = signature{Simhash: fp.Simhash, OK: true}
					if keep != nil {
						keep.Shingles[i], keep.Content[i] = fp.Shingles, fp.ContentHash
					}
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

// overlap is the service's measure of shared text: the share of the
// smaller shingle set found in the other.
func overlap(a, b fingerprint.ShingleSet) float64 {
	x, y := fingerprint.Coverage(a, b)
	return max(x, y)
}
