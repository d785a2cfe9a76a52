package repo

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/newsdedup/newsdedup/service"
)

// A long article's sentence search, split over idle connections.
//
// The sentence search costs PostgreSQL about 30–50 µs a query sentence, on
// one backend and so one core: a long article's hundreds of sentences make
// the slowest checks. When the pool is idle, the Store sends such a search
// as a few statements at once, each with a contiguous part of the
// sentences, on connections of their own, so that the database's cores
// share it. The pool's connections in use stand for the database's busy
// cores: a search is split only into as many parts as there are cores
// (Options.SearchParts) left over by the connections already in use, so
// under load, when every core has work, nothing changes.
//
// Measured (BenchmarkSentenceSearch, six runs each, this shared 2-core
// machine): a 179-sentence query over 80 stored cuts of 围城 took
// 2.66–2.82 ms in one statement and 2.25–2.34 ms in two parts; on real news
// (40 stored articles of 60–400 sentences, 84 on average, looked up in a
// database of 1,000,000 articles and 441,882 sentence rows, a scratch
// program alternating the two), median 2.76 ms against 2.15, the 90th
// percentile 5.15 against 4.09. Less than half, because the other tenants
// of this machine's cores leave the second one rarely idle, and because
// each part plans its statement and reads the bodies of the articles it
// matches near (a search that reads many gains nothing). Through the
// service (dedupbench -only news-check on a kept database of 1,000,000
// articles, one client for 20 s, six runs of each build in turn, medians):
// the new stories 365 checks/s against 326 with one statement, p50 2.30 ms
// against 2.62; the reposts, and the 99th percentiles of both, within the
// noise (reposts p99 11.35 against 11.25 ms, new stories 9.75 against 9.5).
//
// The parts are contiguous. Dealing the sentences out instead (the part-th,
// then every n-th after it), so that a passage whose sentences match many
// stored ones would not fall on one part, was built and measured on
// 2026-11-27 and not kept: of the slowest checks, one new story of 116
// sentences searched in parts of 133 and 370 matches (5.5 and 11.2 ms);
// dealt, both parts can read the same articles and their texts.
// A scratch program (not kept) checked the 1,000 reposts and 1,000 new
// stories of dedupbench's news-check set three times each through the
// service, one client, on a kept real-news database (441,882 sentence
// rows), three runs of each build in turn: reposts p99 9.2, 10.1, 10.5 ms
// dealt against 10.2, 10.5, 9.3 contiguous; new stories 11.8, 8.8, 8.1
// against 11.5, 8.0, 10.0; the two slowest new stories' medians within the
// same spread — no difference beyond the noise.
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
