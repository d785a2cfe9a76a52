package main

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"slices"
	"time"
	"unicode"

	minhashlsh "github.com/ekzhu/minhash-lsh"

	"github.com/newsdedup/newsdedup/tools/internal/proccpu"
)

// The peer: what a newsroom would build instead of running newsdedup, an
// in-memory MinHash LSH as datasketch users build one
// (github.com/ekzhu/minhash-lsh), measured in the same run on the same
// articles, in turn with newsdedup's runs, so that the ratios are the
// project's own. Each article, in feed order: its character 5-grams
// (white space dropped) into a 128-permutation MinHash, the LSH queried
// for candidates, each candidate verified by the exact Jaccard similarity
// and containment of the two articles' 5-gram sets, then the article
// added. It keeps nothing on disk and no history: the comparison is per
// core, not per feature.

const (
	peerPermutations = 128
	peerGram         = 5
	peerThreshold    = 0.5
	peerSeed         = 1
)

// peerIngest runs the peer over items and returns the run as the batch
// runs are reported: articles/s, the statuses (duplicate when a verified
// candidate reaches the threshold by Jaccard or containment, unique
// otherwise), and this process's CPU time.
//
// Like newsdedup it takes the feed in batches of batchSize: the library
// makes added keys searchable only by Index, which sorts every band table
// again, so a user indexes once a batch (once an article, 8,014 articles
// went at 53 a second). An article's candidates are the indexed articles
// Query finds and the earlier articles of its own batch that share a band
// with it, the same rule Query applies.
func peerIngest(ctx context.Context, items []newsItem, batchSize int) (NewsRun, error) {
	cpuStart := proccpu.Process()
	start := time.Now()
	lsh := minhashlsh.NewMinhashLSH64(peerPermutations, peerThreshold)
	k, l := lsh.Params()
	sets := make([][]uint64, 0, len(items)) // each article's sorted 5-gram hashes, by key
	var pending [][]uint64                  // the signatures of the batch's articles so far
	statuses := map[string]int{}
	var buf [8]byte
	for i, it := range items {
		if i%batchSize == 0 {
			if ctx.Err() != nil {
				return NewsRun{}, ctx.Err()
			}
			lsh.Index()
			pending = pending[:0]
		}
		grams := peerGrams(it.Title + "\n" + it.Body)
		mh := minhashlsh.NewMinhash(peerSeed, peerPermutations)
		for _, g := range grams {
			binary.LittleEndian.PutUint64(buf[:], g)
			mh.Push(buf[:])
		}
		sig := mh.Signature()
		candidates := lsh.Query(sig)
		for j, other := range pending {
			if shareBand(sig, other, k, l) {
				candidates = append(candidates, len(sets)-len(pending)+j)
			}
		}
		status := "unique"
		for _, key := range candidates {
			if j, c := overlap(grams, sets[key.(int)]); j >= peerThreshold || c >= peerThreshold {
				status = "duplicate"
				break
			}
		}
		statuses[status]++
		lsh.Add(len(sets), sig)
		sets = append(sets, grams)
		pending = append(pending, sig)
	}
	secs := time.Since(start).Seconds()
	cpu := RunCPU{ProcessSeconds: (proccpu.Process() - cpuStart).Seconds()}
	return NewsRun{Seconds: secs, PerSecond: float64(len(items)) / secs, Sent: len(items), Statuses: statuses, CPU: &cpu}, nil
}

// shareBand reports whether two signatures agree on every value of one of
// their l bands of k.
func shareBand(a, b []uint64, k, l int) bool {
	for band := range l {
		if slices.Equal(a[band*k:(band+1)*k], b[band*k:(band+1)*k]) {
			return true
		}
	}
	return false
}

// peerGrams is the sorted, distinct 64-bit FNV-1a hashes of a text's
// character 5-grams, white space dropped; a text shorter than five
// characters is its one gram.
func peerGrams(text string) []uint64 {
	runes := make([]rune, 0, len(text)/3)
	for _, r := range text {
		if !unicode.IsSpace(r) {
			runes = append(runes, r)
		}
	}
	n := max(len(runes)-peerGram+1, 1)
	out := make([]uint64, 0, n)
	h := fnv.New64a()
	for i := range n {
		h.Reset()
		_, _ = h.Write([]byte(string(runes[i:min(i+peerGram, len(runes))])))
		out = append(out, h.Sum64())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// overlap is the Jaccard similarity and the containment (shared over the
// smaller set) of two sorted sets.
func overlap(a, b []uint64) (jaccard, containment float64) {
	shared := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			shared++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	union := len(a) + len(b) - shared
	if union == 0 {
		return 0, 0
	}
	return float64(shared) / float64(union), float64(shared) / float64(max(min(len(a), len(b)), 1))
}
