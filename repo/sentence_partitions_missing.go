package repo

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/service"
)

// A check's sentence search without the partitions that do not answer
// (service/check_incomplete.go). When the request carries a
// service.MissingPartitions, the search is sent as one statement per
// partition (sentence_proxy.search_on, RUN ON that partition), at once on
// connections of their own, each merged on the primary as the whole search
// is; a partition whose statement fails as unavailable (unreachable,
// PL/Proxy's query_timeout) or does not answer within three quarters of the
// time the request has left is recorded missing and left out, and the
// answers of the others merged again here, the per-sentence limit kept.
// Without a collector in the context nothing changes: one statement, RUN
// ON ALL, failing whole.

// sentenceSearchFromPart is sentenceSearchFromParts on partition $7 alone.
var sentenceSearchFromPart = strings.Replace(sentenceSearchFromParts,
	"sentence_proxy.search(", "sentence_proxy.search_on($7::int4, ", 1)

var (
	sentenceMatchesPartSQL = sentenceMatchesSelect + sentenceSearchFromPart + sentenceMatchesArticles
	sentenceHoldersPartSQL = `
	SELECT q.i, count(*), count(*) FILTER (WHERE m.text_hash = q.text_hash)
	` + sentenceSearchFromPart + `
	GROUP BY q.i`
)

// partShareOfTimeLeft is the share of the request's time left that a
// partition has to answer before it is left out: the rest is the verdict's.
const partShareOfTimeLeft = 0.75

// eachPartition runs search on every one of n partitions at once and
// returns the answers of those that gave one, in partition order,
// recording the others in missing. Any other error fails the whole.
func eachPartition[T any](ctx context.Context, n int, missing *service.MissingPartitions,
	search func(ctx context.Context, part int) (T, error)) ([]T, error) {
	answers := make([]T, n)
	answered := make([]bool, n)
	errs := make([]error, n)
	partCtx, cancel := ctx, context.CancelFunc(func() {})
	if deadline, ok := ctx.Deadline(); ok {
		partCtx, cancel = context.WithTimeout(ctx, time.Duration(float64(time.Until(deadline))*partShareOfTimeLeft))
	}
	defer cancel()
	var wg sync.WaitGroup
	for p := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[p], errs[p] = search(partCtx, p)
			answered[p] = errs[p] == nil
		}()
	}
	wg.Wait()
	var out []T
	for p := range n {
		switch err := errs[p]; {
		case answered[p]:
			out = append(out, answers[p])
		case ctx.Err() != nil:
			return nil, interpretError(ctx.Err(), "search sentence partitions")
		case isKind(err, service.KindUnavailable) || partCtx.Err() != nil:
			missing.Add(p)
		default:
			return nil, err
		}
	}
	return out, nil
}

func isKind(err error, k service.Kind) bool {
	var se *service.Error
	return errors.As(err, &se) && se.Kind == k
}

// eachPartQuerier is the pool the per-partition statements run on, one
// connection each; inside a transaction (a writer's, which never allows an
// incomplete answer) there is none and the search fails whole.
func (q queries) eachPartQuerier() (*pgxpool.Pool, error) {
	pool, ok := q.db.(*pgxpool.Pool)
	if !ok {
		return nil, errors.New("an incomplete sentence search runs outside a transaction only")
	}
	return pool, nil
}

// sentenceMatchesEachPart is SentenceMatches partition by partition.
func (q queries) sentenceMatchesEachPart(ctx context.Context, sq service.SentenceQuery, parts int,
	missing *service.MissingPartitions) ([]service.SentenceMatch, error) {
	pool, err := q.eachPartQuerier()
	if err != nil {
		return nil, err
	}
	answers, err := eachPartition(ctx, parts, missing, func(ctx context.Context, part int) (sentenceMatchRows, error) {
		rows, err := pool.Query(ctx, sentenceMatchesPartSQL, append(sentenceMatchesArgs(sq), part)...)
		if err != nil {
			return sentenceMatchRows{}, interpretError(err, "find sentence matches")
		}
		return scanSentenceMatches(rows)
	})
	if err != nil {
		return nil, err
	}
	found := sentenceMatchRows{plains: make(map[int64]string)}
	per := make(map[int]int) // matches kept of each query sentence
	type row struct {
		query, position int
		article         int64
	}
	seen := make(map[row]bool) // during a split a row is on two partitions a moment
	for _, a := range answers {
		for k, m := range a.matches {
			r := row{m.Query, m.Position, m.ArticleID}
			if seen[r] || sq.PerSentence > 0 && per[m.Query] >= sq.PerSentence {
				continue
			}
			seen[r] = true
			per[m.Query]++
			found.matches = append(found.matches, m)
			found.spans = append(found.spans, a.spans[k])
		}
		for id, plain := range a.plains {
			found.plains[id] = plain
		}
	}
	cutSentenceTexts(sq, found.matches, found.spans, found.plains)
	return found.matches, nil
}

// sentenceHoldersEachPart is SentenceHolders partition by partition: the
// counts summed, at most the per-sentence limit.
func (q queries) sentenceHoldersEachPart(ctx context.Context, sq service.SentenceQuery, parts int,
	missing *service.MissingPartitions) ([]service.Holders, error) {
	pool, err := q.eachPartQuerier()
	if err != nil {
		return nil, err
	}
	answers, err := eachPartition(ctx, parts, missing, func(ctx context.Context, part int) ([]service.Holders, error) {
		rows, err := pool.Query(ctx, sentenceHoldersPartSQL, append(sentenceMatchesArgs(sq), part)...)
		if err != nil {
			return nil, interpretError(err, "count sentence holders")
		}
		return scanHolders(rows, len(sq.Sentences))
	})
	if err != nil {
		return nil, err
	}
	out := make([]service.Holders, len(sq.Sentences))
	for _, a := range answers {
		for i, h := range a {
			out[i].All += h.All
			out[i].SameText += h.SameText
		}
	}
	if sq.PerSentence > 0 {
		for i := range out {
			out[i].All = min(out[i].All, sq.PerSentence)
			out[i].SameText = min(out[i].SameText, out[i].All)
		}
	}
	return out, nil
}
