package service

import (
	"context"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// judgeReads are what judge decides from: the stored copies of a
// fingerprint and its near candidates, the articles an editor separated
// from the article judged, and the search of its sentences in the sentence
// index, which judge makes only when it needs it (an article that is an
// exact copy needs none).
type judgeReads struct {
	exact, near []Candidate
	apart       separations
	sentences   func() ([]SentenceMatch, error)
}

// readInTurn reads them one statement after another, the sentence search
// when judge asks for it: in a transaction, whose connection runs one
// statement at a time, and which must not search what it does not use.
func readInTurn(ctx context.Context, r Reader, fp fingerprint.Fingerprint, published time.Time, sc scope, opts Options) (judgeReads, error) {
	exact, err := r.ExactMatches(ctx, []ExactQuery{exactQuery(fp, sc)})
	if err != nil {
		return judgeReads{}, err
	}
	near, err := r.NearCandidates(ctx, []NearQuery{nearQuery(fp, published, sc, opts)})
	if err != nil {
		return judgeReads{}, err
	}
	apart, err := separatedFrom(ctx, r, sc.self)
	if err != nil {
		return judgeReads{}, err
	}
	return judgeReads{exact: exact[0], near: near[0], apart: apart, sentences: func() ([]SentenceMatch, error) {
		return r.SentenceMatches(ctx, sentenceQuery(fp, sc.exclude))
	}}, nil
}

// readAtOnce reads them all at the same time, each statement on its own
// connection of r (a pool), the sentence search too when the article has
// sentences to look up: a check waits for its longest statement rather than
// for their sum. Only an exact copy, which needs no sentence search, pays
// for one it does not use; every other verdict needs it (a near duplicate
// is checked for boilerplate, an article without one for partial copies).
//
// The sentence search may still run when readAtOnce returns: the caller
// must call wait before it returns itself, so that no statement outlives
// the request whose context it runs under.
func readAtOnce(ctx context.Context, r Reader, fp fingerprint.Fingerprint, published time.Time, sc scope, opts Options) (reads judgeReads, wait func(), err error) {
	var (
		found    []SentenceMatch
		foundErr error
		searched = make(chan struct{})
	)
	if len(fp.Sentences) > 0 {
		go func() {
			defer close(searched)
			found, foundErr = r.SentenceMatches(ctx, sentenceQuery(fp, sc.exclude))
		}()
	} else {
		close(searched)
	}
	wait = func() { <-searched }
	reads.sentences = func() ([]SentenceMatch, error) {
		<-searched
		return found, foundErr
	}

	var g errgroup.Group
	g.Go(func() error {
		exact, err := r.ExactMatches(ctx, []ExactQuery{exactQuery(fp, sc)})
		if err == nil {
			reads.exact = exact[0]
		}
		return err
	})
	g.Go(func() error {
		near, err := r.NearCandidates(ctx, []NearQuery{nearQuery(fp, published, sc, opts)})
		if err == nil {
			reads.near = near[0]
		}
		return err
	})
	g.Go(func() (err error) {
		reads.apart, err = separatedFrom(ctx, r, sc.self)
		return err
	})
	if err := g.Wait(); err != nil {
		wait()
		return judgeReads{}, func() {}, err
	}
	return reads, wait, nil
}
