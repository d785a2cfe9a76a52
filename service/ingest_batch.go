package service

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// MaxBatch is the most articles one batch may hold.
const MaxBatch = 1000

// BatchItem is one article of a batch with its options.
type BatchItem struct {
	Article ArticleInput
	Options Options
}

// BatchResult is the outcome for one article of a batch: a verdict, or the
// error that article alone met.
type BatchResult struct {
	Verdict Verdict
	Err     error
}

// CheckBatchSize refuses a batch of n articles that IngestBatch would
// refuse: KindInvalid when it is empty, KindTooLarge beyond MaxBatch. A
// caller that reads a batch checks it before reading its articles.
func CheckBatchSize(n int) error {
	switch {
	case n == 0:
		return Invalid("articles", "must hold at least one article")
	case n > MaxBatch:
		return &Error{Kind: KindTooLarge, Field: "articles",
			Message: fmt.Sprintf("articles: a batch holds at most %d articles, not %d", MaxBatch, n)}
	}
	return nil
}

// IngestBatch ingests the articles of a batch in order, as Ingest would one
// by one: an article that duplicates an earlier one of the same batch is
// judged a duplicate of it. Articles are fingerprinted in parallel, and
// stored in groups of several to a transaction (ingest_group.go); an article may
// be stored after later ones it shares no lock with, which changes no
// verdict but can give it the larger id (ingest_group_held.go). An article that
// is invalid gets its own error and the others are stored; so does one that
// fails in its group for another reason, after the group's others are
// stored one by one.
//
// The batch as a whole fails with KindInvalid when it is empty, KindTooLarge
// beyond MaxBatch, and KindUnavailable (or the context's error) when the
// database cannot be reached: articles stored before that stay stored, and a
// retry of the batch returns their stored verdicts.
func (s *Service) IngestBatch(ctx context.Context, items []BatchItem) ([]BatchResult, error) {
	if err := CheckBatchSize(len(items)); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	ready, wait := s.prepareAll(ctx, items)
	defer func() {
		cancel()
		wait() // no fingerprinting outlives the call: the dictionary may be freed after it
	}()

	results := make([]BatchResult, len(items))
	position := make(map[*groupItem]int, len(items))
	group := groupBuilder{budget: s.groupLockBudget()}
	// store stores the group collected so far, while the articles after it
	// are still being fingerprinted; those it sets aside around the other
	// groups being stored start the next group (ingest_group_held.go).
	store := func() error {
		g := group.take()
		if len(g) == 0 {
			return nil
		}
		later, err := s.storeGroup(ctx, g)
		for _, it := range later {
			group.add(it)
		}
		if err != nil {
			return err
		}
		for _, it := range g {
			if !slices.Contains(later, it) {
				results[position[it]] = BatchResult{Verdict: it.verdict, Err: it.err}
			}
		}
		return nil
	}
	for i := range items {
		var p prepared
		select {
		case p = <-ready[i]:
		case <-ctx.Done():
			return nil, deadlineError(ctx)
		}
		if p.err != nil {
			if ctx.Err() != nil {
				// The batch's deadline, met while fingerprinting this
				// article: the request's failure, not the article's, as
				// when the select above sees it first.
				return nil, deadlineError(ctx)
			}
			results[i].Err = p.err
			continue
		}
		it := &groupItem{in: &items[i].Article, fp: p.fp, opts: items[i].Options}
		position[it] = i
		for !group.fits(it) { // twice when the first store sets articles aside
			if err := store(); err != nil {
				return nil, err
			}
		}
		group.add(it)
	}
	for len(group.items) > 0 {
		if err := store(); err != nil {
			return nil, err
		}
	}
	return results, nil
}

type prepared struct {
	fp  fingerprint.Fingerprint
	err error
}

// prepareAll validates and fingerprints items on s.workers goroutines and
// returns one channel per item that yields its result, so that the caller
// can store item i while later items are still being fingerprinted, and a
// function that waits for the goroutines to end. Once ctx is done no new item
// is started.
func (s *Service) prepareAll(ctx context.Context, items []BatchItem) ([]chan prepared, func()) {
	out := make([]chan prepared, len(items))
	for i := range out {
		out[i] = make(chan prepared, 1)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(s.workers, len(items)) {
		wg.Go(func() {
			for i := range next {
				fp, err := s.prepare(ctx, &items[i].Article, items[i].Options, true)
				out[i] <- prepared{fp: fp, err: err}
			}
		})
	}
	wg.Go(func() {
		defer close(next)
		for i := range items {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	})
	return out, wg.Wait
}
