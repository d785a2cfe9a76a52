package main

import (
	"math/bits"
	"sync"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// nearPair is two articles whose fingerprints are within the index's
// distance: every pair the block index returns for the verifier to judge.
type nearPair struct {
	A, B     int32
	Distance int8
}

// nearPairs compares every pair of signatures (a popcount each: a few
// seconds for 28,000 articles) and returns those within
// fingerprint.MaxIndexedDistance bits, and how many pairs had a
// fingerprint on both sides.
func nearPairs(sigs []signature, workers int) (pairs []nearPair, compared int) {
	const k = fingerprint.MaxIndexedDistance
	workers = max(1, workers)
	parts := make([][]nearPair, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var local []nearPair
			for i := w; i < len(sigs); i += workers {
				if !sigs[i].OK {
					continue
				}
				h := sigs[i].Simhash
				for j := i + 1; j < len(sigs); j++ {
					if d := bits.OnesCount64(h ^ sigs[j].Simhash); d <= k && sigs[j].OK {
						local = append(local, nearPair{A: int32(i), B: int32(j), Distance: int8(d)})
					}
				}
			}
			parts[w] = local
		})
	}
	wg.Wait()
	ok := 0
	for _, s := range sigs {
		if s.OK {
			ok++
		}
	}
	for _, p := range parts {
		pairs = append(pairs, p...)
	}
	return pairs, ok * (ok - 1) / 2
}
