package repo

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/newsdedup/newsdedup/service"
)

// A long article's sentence search, split over idle connections.
//
// The sentence search runs on one backend and so one core: a long
// article's hundreds of sentences make the slowest checks. When the pool is
// idle, the Store sends such a search as a few statements at once, each
// with a contiguous part of the sentences, on connections of their own, so
// that the database's cores share it. The pool's connections in use stand
// for the database's busy cores: a search is split only into as many parts
// as there are cores (Options.SearchParts) left over by the connections
// already in use, so under load, when every core has work, nothing
// changes. What it gains, and why the parts are contiguous rather than
// dealt: docs/design-notes.md, "A long article's sentence search in parts".
//
// Only the Store's own SentenceMatches and SentenceHolders split; a
// transaction's (storeTx, the writers' search) is one statement, inside its
// snapshot. Outside a transaction every read of a check is already its own
// statement with its own snapshot, so parts taken at slightly different
// moments change nothing the check could rely on.

// minSentencesPerPart: a part shorter than this is not worth its round trip
// and its own plan.
const minSentencesPerPart = 32

// SentenceMatches returns the stored sentences that match q's sentences,
// searched in parts at once when the pool has idle connections for them
// (sentenceSearchParts).
func (s *Store) SentenceMatches(ctx context.Context, q service.SentenceQuery) ([]service.SentenceMatch, error) {
	return searchInParts(ctx, s, q, s.queries.SentenceMatches, func(found []service.SentenceMatch, from int) {
		for k := range found {
			found[k].Query += from
		}
	})
}

// SentenceHolders counts the stored sentences that match each of q's
// sentences, in parts as SentenceMatches searches.
func (s *Store) SentenceHolders(ctx context.Context, q service.SentenceQuery) ([]service.Holders, error) {
	return searchInParts(ctx, s, q, s.queries.SentenceHolders, func([]service.Holders, int) {})
}

// searchInParts runs search for q, in as many parts as sentenceSearchParts
// allows, each on contiguous sentences and a connection of its own, and
// returns the parts' answers in order, each first told by renumber the
// position of its first sentence in q.
func searchInParts[T any](ctx context.Context, s *Store, q service.SentenceQuery,
	search func(context.Context, service.SentenceQuery) ([]T, error), renumber func(part []T, from int)) ([]T, error) {
	n := sentenceSearchParts(len(q.Sentences), s.searchParts, int(s.pool.Stat().AcquiredConns()))
	if n < 2 {
		return search(ctx, q)
	}
	parts := make([][]T, n)
	g, gctx := errgroup.WithContext(ctx)
	for i := range n {
		from, to := i*len(q.Sentences)/n, (i+1)*len(q.Sentences)/n
		part := q
		part.Sentences = q.Sentences[from:to]
		g.Go(func() error {
			found, err := search(gctx, part)
			renumber(found, from)
			parts[i] = found
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var all []T
	for _, p := range parts {
		all = append(all, p...)
	}
	return all, nil
}

// sentenceSearchParts is how many statements a search of sentences query
// sentences is sent as: the cores (cores, at most) that the connections in
// use (busy) leave idle, each part at least minSentencesPerPart long; 1 for
// one statement.
func sentenceSearchParts(sentences, cores, busy int) int {
	return max(1, min(cores-busy, sentences/minSentencesPerPart))
}
