package service

import (
	"context"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// judgeReads are what judge decides from: the stored copies of a
// fingerprint and its near candidates, the articles an editor separated
// from the article judged, and the sentence index's answers for its
// sentences, which judge reads only when it needs them (an article that is
// an exact copy needs none): the matches themselves, or only how many
// each sentence has.
type judgeReads struct {
	exact, near []Candidate
	apart       separations
	sentences   func() ([]SentenceMatch, error)
	holders     func() ([]Holders, error)
}

// readInTurn reads them one after another: the copies and the near
// candidates together (one round trip outside a writer's transaction),
// then the separations, then the sentence index when first asked: its
// matches once (a check that also lists its shared sentences reuses
// judge's), and its holder counts from them when they were read, or when
// wantMatches says the caller will want them anyway; otherwise the counts
// alone, which read no article (SentenceHolders).
//
// In turn, not concurrently: a check would hold up to three of the
// pool's connections (docs/design-notes.md, "service: the judge reads in
// turn").
func readInTurn(ctx context.Context, r JudgeReader, fp fingerprint.Fingerprint, published time.Time, sc scope, opts Options, wantMatches bool) (judgeReads, error) {
	exact, near, err := r.CopiesAndCandidates(ctx, exactQuery(fp, sc), nearQuery(fp, published, sc, opts))
	if err != nil {
		return judgeReads{}, err
	}
	exact, near = sc.publishedBy(exact), sc.publishedBy(near)
	apart, err := separatedFrom(ctx, r, sc.self)
	if err != nil {
		return judgeReads{}, err
	}
	var (
		found     []SentenceMatch
		searchErr error
		searched  bool
	)
	search := func() ([]SentenceMatch, error) {
		if !searched {
			found, searchErr = searchSentences(ctx, r, fp, sc.exclude)
			searched = true
		}
		return found, searchErr
	}
	count := func() ([]Holders, error) {
		if searched || wantMatches {
			found, err := search()
			return holdersIn(fp, found), err
		}
		return countHolders(ctx, r, fp, sc.exclude)
	}
	return judgeReads{exact: exact, near: near, apart: apart, sentences: search, holders: count}, nil
}

// searchSentences returns the stored sentences matching fp's (excludeID:
// an article left out), without a statement when fp has none.
func searchSentences(ctx context.Context, r JudgeReader, fp fingerprint.Fingerprint, excludeID int64) ([]SentenceMatch, error) {
	if len(fp.Sentences) == 0 {
		return nil, nil
	}
	return r.SentenceMatches(ctx, sentenceQuery(fp, excludeID))
}

// countHolders counts the stored sentences matching each of fp's
// (excludeID: an article left out), without a statement when fp has none.
func countHolders(ctx context.Context, r JudgeReader, fp fingerprint.Fingerprint, excludeID int64) ([]Holders, error) {
	if len(fp.Sentences) == 0 {
		return nil, nil
	}
	return r.SentenceHolders(ctx, sentenceQuery(fp, excludeID))
}

// separatedFrom reads the separations of stored article id; none for 0, an
// article not stored yet.
func separatedFrom(ctx context.Context, r JudgeReader, id int64) (separations, error) {
	if id == 0 {
		return nil, nil
	}
	ids, err := r.Separated(ctx, id)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	apart := make(separations, len(ids))
	for _, x := range ids {
		apart[x] = true
	}
	return apart, nil
}

// scope limits the stored articles a fingerprint is judged against.
type scope struct {
	exclude int64     // an article left out (the one judged, or one leaving); 0 for none
	before  time.Time // only articles ingested before this; zero for all
	self    int64     // the stored article judged, whose editors' separations apply; 0 for a new one
	// heads says the article judged is a new one sent with its publication
	// time, which heads its partial copies published after it once stored
	// (ingest_promote.go): no article published after it is its partial
	// match (judging.published).
	heads bool
	// notAfter, for a stored article judged again by publication, leaves
	// out the candidates that appeared after it (appeared); zero for no
	// bound.
	notAfter time.Time
	// unlocked are the sentences of the article judged that its writer
	// left unlocked as known boilerplate, for judge to confirm
	// (locks_boilerplate.go); nil when it holds no lock.
	unlocked []uint64
}

// publishedBy returns the candidates of cs that appeared no later than
// sc.notAfter, all of them when it is zero.
func (sc scope) publishedBy(cs []Candidate) []Candidate {
	if sc.notAfter.IsZero() {
		return cs
	}
	return slices.DeleteFunc(cs, func(c Candidate) bool {
		return sc.notAfter.Before(appeared(c.PublishedAt, c.IngestedAt))
	})
}

// exactQuery asks for the stored copies of fp within sc.
func exactQuery(fp fingerprint.Fingerprint, sc scope) ExactQuery {
	return ExactQuery{ContentHash: fp.ContentHash, Version: fp.Version, ExcludeID: sc.exclude, Before: sc.before, Limit: CandidateCap}
}

// nearQuery asks for the stored near duplicates of fp within sc and opts'
// window around published.
func nearQuery(fp fingerprint.Fingerprint, published time.Time, sc scope, opts Options) NearQuery {
	from, to := window(published, opts)
	return NearQuery{
		Simhash:     fp.Simhash,
		Version:     fp.Version,
		MaxDistance: opts.MaxDistance,
		From:        from,
		To:          to,
		ExcludeID:   sc.exclude,
		Before:      sc.before,
		Limit:       CandidateCap,
	}
}
