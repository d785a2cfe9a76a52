package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// copiesStored is how many edited copies of each original are stored with
// it; groupSize is the rows of one group.
const (
	copiesStored = 3
	groupSize    = 1 + copiesStored
)

// realArticle is a 围城 article and its fingerprint.
type realArticle struct {
	corpus.Article
	FP fingerprint.Fingerprint
}

// realSet is the real articles every tier shares, fingerprinted once.
type realSet struct {
	// Stored are the articles stored in the tables, in groups of
	// groupSize: an original (300–3000 runes) then copiesStored edited
	// copies of it. A tier stores a prefix of whole groups.
	Stored []realArticle
	// Reposts holds one more edited copy of each original, never stored:
	// Reposts[g] is a copy of Stored[g*groupSize].
	Reposts []realArticle
	// FingerprintTime is how long fingerprinting them took, on every core.
	FingerprintTime time.Duration
}

// buildRealSet cuts groups originals from the novel, makes the copies and
// fingerprints everything on every core.
func buildRealSet(ctx context.Context, novel *corpus.Novel, alg fingerprint.Algorithm, groups int) (*realSet, error) {
	rng := rand.New(rand.NewPCG(20260501, 1))
	originals := novel.Overlapping(rng, groups, 300, 3000)
	if len(originals) < groups {
		return nil, fmt.Errorf("the novel gave %d articles of 300–3000 runes, want %d", len(originals), groups)
	}
	stored := make([]realArticle, 0, groups*groupSize)
	reposts := make([]realArticle, 0, groups)
	for _, o := range originals {
		stored = append(stored, realArticle{Article: o})
		for _, e := range pickEdits(rng, copiesStored+1)[:copiesStored] {
			stored = append(stored, realArticle{Article: novel.Apply(rng, o, e)})
		}
	}
	for _, o := range originals {
		reposts = append(reposts, realArticle{Article: novel.Apply(rng, o, corpus.AllEdits[rng.IntN(len(corpus.AllEdits))])})
	}
	start := time.Now()
	if err := fingerprintAll(ctx, alg, stored); err != nil {
		return nil, err
	}
	if err := fingerprintAll(ctx, alg, reposts); err != nil {
		return nil, err
	}
	return &realSet{Stored: stored, Reposts: reposts, FingerprintTime: time.Since(start)}, nil
}

// pickEdits returns n distinct edits in random order.
func pickEdits(rng *rand.Rand, n int) []corpus.Edit {
	edits := append([]corpus.Edit(nil), corpus.AllEdits...)
	rng.Shuffle(len(edits), func(i, j int) { edits[i], edits[j] = edits[j], edits[i] })
	return edits[:min(n, len(edits))]
}

// fingerprintAll fills in the fingerprints of articles on every core.
func fingerprintAll(ctx context.Context, alg fingerprint.Algorithm, articles []realArticle) error {
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				a := &articles[i]
				fp, err := alg.Fingerprint(context.Background(), fingerprint.Document{Title: a.Title, Body: a.Body})
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("fingerprint article %d (%q): %w", i, a.Title, err)
					}
					mu.Unlock()
					continue
				}
				a.FP = fp
			}
		})
	}
	for i := range articles {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// simhashes returns the fingerprints of articles.
func simhashes(articles []realArticle) []uint64 {
	out := make([]uint64, len(articles))
	for i, a := range articles {
		out[i] = a.FP.Simhash
	}
	return out
}

// realPublished is when stored real article i was published: one every 17
// minutes from the start of 2026, so that a group's copies fall within the
// service's default window of each other and other groups' mostly do not.
func realPublished(i int) time.Time {
	return publishBase.Add(time.Duration(i) * 17 * time.Minute)
}

// publishBase is the earliest publication time of the benchmark's rows.
var publishBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Query kinds.
const (
	queryStored    = "stored"    // a stored real fingerprint: finds itself and its copies
	queryRepost    = "repost"    // an unstored edited copy of a stored original
	queryFlipped   = "flipped"   // a stored real fingerprint with 1–3 bits flipped
	queryUnrelated = "unrelated" // a uniformly random fingerprint: near nothing stored
)

// unrelatedQueries returns n uniformly random fingerprints. They match
// nothing, so a lookup's time is the index's alone: the eight B-tree
// probes, the bitmaps and the few unrelated rows that share blocks.
func unrelatedQueries(n int, seed uint64) []lookupQuery {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]lookupQuery, n)
	for i := range out {
		out[i] = lookupQuery{Kind: queryUnrelated, Simhash: rng.Uint64(), Group: -1}
	}
	return out
}

// lookupQuery is one query fingerprint, with the text it came from when it
// is a repost.
type lookupQuery struct {
	Kind    string
	Simhash uint64
	Group   int // the group of the stored original it is near
	Body    string
}

// makeQueries returns n query fingerprints near the first realRows stored
// rows, the three kinds in turn.
func makeQueries(rs *realSet, realRows, n int, seed uint64) []lookupQuery {
	rng := rand.New(rand.NewPCG(seed, 2))
	groups := realRows / groupSize
	out := make([]lookupQuery, 0, n)
	for i := range n {
		switch i % 3 {
		case 0:
			j := rng.IntN(realRows)
			out = append(out, lookupQuery{Kind: queryStored, Simhash: rs.Stored[j].FP.Simhash, Group: j / groupSize})
		case 1:
			g := rng.IntN(groups)
			r := rs.Reposts[g]
			out = append(out, lookupQuery{Kind: queryRepost, Simhash: r.FP.Simhash, Group: g, Body: r.Body})
		case 2:
			j := rng.IntN(realRows)
			out = append(out, lookupQuery{Kind: queryFlipped, Simhash: flipBits(rng, rs.Stored[j].FP.Simhash, 1+rng.IntN(3)), Group: j / groupSize})
		}
	}
	return out
}
