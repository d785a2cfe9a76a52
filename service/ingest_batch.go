package service

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

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
// verdict but can give it the larger id (locks_held.go). An article that
// is invalid gets its own error and the others are stored; so does one that
// fails in its group for another reason, after the group's others are
// stored one by one.
//
// A batch that cannot finish by its context's deadline stops storing a
// little before it (batchReserve), and answers: the articles of the groups
// it committed have their verdicts, the others ErrNotReached (KindUnavailable
// each), so that the client knows what is stored and sends the rest again.
//
// The batch as a whole fails with KindInvalid when it is empty, KindTooLarge
// beyond MaxBatch, and KindUnavailable (or the context's error) when the
// database cannot be reached or the context ends (the client left, or no
// time was left even to answer): articles stored before that stay stored,
// and a retry of the batch returns their stored verdicts.
func (s *Service) IngestBatch(ctx context.Context, items []BatchItem) ([]BatchResult, error) {
	if err := CheckBatchSize(len(items)); err != nil {
		return nil, err
	}
	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	if deadline, ok := outer.Deadline(); ok {
		ctx, cancel = context.WithDeadline(outer, deadline.Add(-batchReserve(time.Until(deadline))))
	}
	stored, err := s.storedKeys(ctx, items)
	if err != nil {
		cancel()
		return nil, err
	}
	// The articles whose keys are stored already go last: answering one
	// again judges it again, as long as storing it did, so a batch sent
	// again after its deadline would otherwise spend its time on the same
	// articles. Their verdicts do not depend on the articles stored after
	// them (a stored article is judged against those before it).
	order := make([]int, 0, len(items))
	for pass := range 2 {
		for i := range items {
			if stored[items[i].key()] == (pass == 1) {
				order = append(order, i)
			}
		}
	}
	items = permute(items, order)
	ready, wait := s.prepareAll(ctx, items)
	defer func() {
		cancel()
		wait() // no fingerprinting outlives the call: the dictionary may be freed after it
	}()

	results := make([]BatchResult, len(items))
	answered := make([]bool, len(items))
	// stopped answers the articles not stored when the batch's time ran
	// out: the batch succeeds with what it committed. It fails as a whole
	// for any other error, and when its context is over with nothing
	// stored (a client that left, or no time even to begin).
	stopped := func(err error) ([]BatchResult, error) {
		if ctx.Err() == nil {
			return nil, err
		}
		if outer.Err() != nil && !slices.Contains(answered, true) {
			return nil, deadlineError(ctx)
		}
		for i := range results {
			if !answered[i] {
				results[i] = BatchResult{Err: ErrNotReached}
			}
		}
		return unpermute(results, order), nil
	}
	position := make(map[*arrival]int, len(items))
	group := groupBuilder{budget: s.groupLockBudget(), limit: 1}
	// store stores the group collected so far, while the articles after it
	// are still being fingerprinted; those it sets aside around the other
	// groups being stored start the next group (locks_held.go).
	//
	// While more articles are to come, a group whose every article waits
	// for a lock another group in flight holds is not stored yet: it would
	// wait with nothing to store meanwhile (the batch's first groups are
	// small), so its articles are left to the end, set aside as the held
	// locks' rule sets them (locks_held.go), and the next articles
	// go on.
	var deferred []*arrival
	store := func(more bool) error {
		if more && s.held.blocks(group.items) {
			for _, it := range group.take() {
				it.setAside = true
				deferred = append(deferred, it)
			}
			return nil
		}
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
				answered[position[it]] = true
			}
		}
		return nil
	}
	for i := range items {
		var p prepared
		select {
		case p = <-ready[i]:
		case <-ctx.Done():
			return stopped(deadlineError(ctx))
		}
		if p.err != nil {
			if ctx.Err() != nil {
				// The batch's deadline, met while fingerprinting this
				// article: the request's, not the article's, as when the
				// select above sees it first.
				return stopped(deadlineError(ctx))
			}
			results[i].Err = p.err
			answered[i] = true
			continue
		}
		it := &arrival{in: &items[i].Article, fp: p.fp, opts: items[i].Options}
		it.stored = stored[it.key()]
		position[it] = i
		for !group.fits(it) { // twice when the first store sets articles aside
			if err := store(true); err != nil {
				return stopped(err)
			}
		}
		group.add(it)
	}
	for _, it := range deferred {
		for !group.fits(it) {
			if err := store(false); err != nil {
				return stopped(err)
			}
		}
		group.add(it)
	}
	for len(group.items) > 0 {
		if err := store(false); err != nil {
			return stopped(err)
		}
	}
	return unpermute(results, order), nil
}

// storedKeys returns the keys of items that hold an article already.
func (s *Service) storedKeys(ctx context.Context, items []BatchItem) (map[ArticleKey]bool, error) {
	keys := make([]ArticleKey, len(items))
	for i := range items {
		keys[i] = items[i].key()
	}
	found, err := s.store.ArticlesByKeys(ctx, keys)
	if err != nil {
		return nil, err
	}
	stored := make(map[ArticleKey]bool, len(found))
	for _, a := range found {
		stored[ArticleKey{Source: a.Source, ExternalID: a.ExternalID}] = true
	}
	return stored, nil
}

func (it *BatchItem) key() ArticleKey {
	return ArticleKey{Source: it.Article.Source, ExternalID: it.Article.ExternalID}
}

// permute returns items in order: the i-th is items[order[i]].
func permute(items []BatchItem, order []int) []BatchItem {
	out := make([]BatchItem, len(items))
	for i, o := range order {
		out[i] = items[o]
	}
	return out
}

// unpermute puts results, of the items permute put in order, back in the
// batch's order.
func unpermute(results []BatchResult, order []int) []BatchResult {
	out := make([]BatchResult, len(results))
	for i, o := range order {
		out[o] = results[i]
	}
	return out
}

// ErrNotReached is the result of an article of a batch that stopped at its
// deadline before storing it: not stored, to be sent again.
var ErrNotReached = &Error{Kind: KindUnavailable, Field: "articles",
	Message: "not stored: the batch reached its deadline first; send this article again (the articles answered with a verdict are stored)"}

// batchReserve is the part of a batch's time, before its context's
// deadline, kept to answer: a tenth of it, at most a second. A group being
// stored when the batch's own deadline comes is rolled back within it.
func batchReserve(left time.Duration) time.Duration {
	return min(left/10, time.Second)
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
