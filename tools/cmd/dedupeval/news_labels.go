package main

import (
	"crypto/sha256"
	"runtime"
	"slices"
	"sync"
)

// The natural pairs of the corpora: every two articles whose bodies share
// at least a third of the shorter one's 5-grams, and what they are.

// Label thresholds on the 5-grams of two bodies.
const (
	// unrelatedBelow: bodies sharing less than this of the shorter one's
	// 5-grams are unrelated; a link between them is one no reader wants.
	unrelatedBelow = 0.3
	// nearIdenticalFrom: a Jaccard index from this on is a near-identical
	// pair, the same text with small changes.
	nearIdenticalFrom = 0.8
	// partialFrom: one body holding this much of the other's 5-grams (but
	// the pair not near-identical) is a partial copy.
	partialFrom = 0.8
)

// pairKind is what a labelled pair of articles is.
type pairKind int

const (
	kindRelated       pairKind = iota // shares 30–80 %: same story retold, or a template
	kindPartial                       // one holds ≥ 80 % of the other, Jaccard < 0.8
	kindNearIdentical                 // Jaccard ≥ 0.8, bodies not identical
	kindIdentical                     // identical bodies once normalised
)

// labelledPair is two articles, A < B, whose bodies share at least
// unrelatedBelow of the shorter one's 5-grams.
type labelledPair struct {
	A, B int
	likeness
	// Identical is true when the compact bodies are equal; SameTitle when
	// their compact titles are too (then the service sees an exact copy).
	Identical, SameTitle bool
}

func (p labelledPair) kind() pairKind {
	switch {
	case p.Identical:
		return kindIdentical
	case p.Jaccard >= nearIdenticalFrom:
		return kindNearIdentical
	case p.Containment >= partialFrom:
		return kindPartial
	}
	return kindRelated
}

// pairKey names an unordered pair of article indexes.
type pairKey struct{ A, B int32 }

func keyOf(i, j int) pairKey {
	if i > j {
		i, j = j, i
	}
	return pairKey{int32(i), int32(j)}
}

// labels are the labelled pairs of a set of articles.
type labels struct {
	Pairs []labelledPair
	index map[pairKey]int
}

// of returns the labelled pair of articles i and j, if they share at least
// unrelatedBelow.
func (l *labels) of(i, j int) (labelledPair, bool) {
	k, ok := l.index[keyOf(i, j)]
	if !ok {
		return labelledPair{}, false
	}
	return l.Pairs[k], true
}

// Finding the pairs. Comparing every pair exactly would take hours; an
// inverted index over a sample of the 5-grams (those whose hash is 0
// modulo labelSample) proposes the pairs worth comparing: those whose
// samples share at least candidateShare of the smaller sample. Grams in
// more than maxPosting articles (the boilerplate every CCTV story ends
// with) propose nothing. Identical bodies are grouped directly by hash.
const (
	labelSample    = 4
	candidateShare = 0.2
	maxPosting     = 2000
)

// buildLabels labels every pair of articles whose 5-gram sets (grams[i] of
// article i) share at least unrelatedBelow of the smaller one. compactBodies
// and compactTitles find identical bodies and titles.
func buildLabels(grams []gramSet, compactBodies, compactTitles []string, workers int) *labels {
	samples := make([][]uint64, len(grams))
	postings := make(map[uint64][]int32)
	for i, g := range grams {
		for _, h := range g {
			if h%labelSample == 0 {
				samples[i] = append(samples[i], h)
			}
		}
		if len(samples[i]) == 0 && len(g) > 0 {
			samples[i] = []uint64{g[0]} // a short text: its smallest gram
		}
		for _, h := range samples[i] {
			postings[h] = append(postings[h], int32(i))
		}
	}

	found := make(map[pairKey]labelledPair)
	var mu sync.Mutex
	var wg sync.WaitGroup
	workers = max(1, min(workers, runtime.GOMAXPROCS(0)))
	for w := range workers {
		wg.Go(func() {
			counts := make([]int32, len(grams))
			var touched []int32
			local := make(map[pairKey]labelledPair)
			for i := w; i < len(grams); i += workers {
				touched = touched[:0]
				for _, h := range samples[i] {
					p := postings[h]
					if len(p) > maxPosting {
						continue
					}
					for _, j := range p {
						if int(j) <= i {
							continue
						}
						if counts[j] == 0 {
							touched = append(touched, j)
						}
						counts[j]++
					}
				}
				for _, j := range touched {
					c := counts[j]
					counts[j] = 0
					if float64(c) < candidateShare*float64(min(len(samples[i]), len(samples[j]))) {
						continue
					}
					if lk := likenessOf(grams[i], grams[j]); lk.Containment >= unrelatedBelow {
						local[keyOf(i, int(j))] = labelledPair{A: i, B: int(j), likeness: lk}
					}
				}
			}
			mu.Lock()
			for k, v := range local {
				found[k] = v
			}
			mu.Unlock()
		})
	}
	wg.Wait()

	// Identical bodies, whatever the index proposed.
	byBody := make(map[[sha256.Size]byte][]int)
	for i, b := range compactBodies {
		if b != "" {
			h := sha256.Sum256([]byte(b))
			byBody[h] = append(byBody[h], i)
		}
	}
	for _, group := range byBody {
		for x, i := range group {
			for _, j := range group[x+1:] {
				found[keyOf(i, j)] = labelledPair{A: i, B: j, likeness: likeness{Jaccard: 1, Containment: 1}}
			}
		}
	}

	l := &labels{index: make(map[pairKey]int, len(found))}
	for _, p := range found {
		p.Identical = compactBodies[p.A] == compactBodies[p.B]
		p.SameTitle = p.Identical && compactTitles[p.A] == compactTitles[p.B]
		l.Pairs = append(l.Pairs, p)
	}
	slices.SortFunc(l.Pairs, func(a, b labelledPair) int {
		if a.A != b.A {
			return a.A - b.A
		}
		return a.B - b.B
	})
	for k, p := range l.Pairs {
		l.index[keyOf(p.A, p.B)] = k
	}
	return l
}
