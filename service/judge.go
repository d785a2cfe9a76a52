package service

import (
	"context"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// judge finds the stored copies and near duplicates of a fingerprint within
// scope and decides; a near duplicate that only boilerplate sentences join
// to it is none (rules_boilerplate.go). When there is none, it looks for the
// article it is a partial duplicate of (rules_partial.go). Both steps read the
// sentence index: the boilerplate check only how many stored sentences
// match each of the article's, the partial step the matches themselves.
// Either way it leaves out the articles an editor separated from the
// article judged (sc.self). It also returns how many candidates the
// article index query gave.
func (s *Service) judge(ctx context.Context, r JudgeReader, fp fingerprint.Fingerprint, published time.Time,
	sc scope, opts Options) (decision, int, error) {
	reads, err := readInTurn(ctx, r, fp, published, sc, opts, false)
	if err != nil {
		return decision{}, 0, err
	}
	return s.judgeFrom(ctx, r, fp, published, sc, opts, reads)
}

// judgeFrom is judge's decision from what it reads first (judgeReads), the
// rules' steps (rules_verdict.go) each given what it asks for.
func (s *Service) judgeFrom(ctx context.Context, r JudgeReader, fp fingerprint.Fingerprint, published time.Time,
	sc scope, opts Options, reads judgeReads) (decision, int, error) {
	var bound time.Time
	if sc.heads {
		bound = effectivePublished(published, s.now())
	}
	j := judgeCandidates(fp, bound, reads.apart.drop(reads.exact), reads.apart.drop(reads.near), opts)
	if !j.wantsSentences() {
		err := s.judgeCopies(ctx, r, j, reads, published, sc)
		return j.decision(), len(reads.near), err
	}
	// A near match needs only its sentences' holder counts, to tell
	// boilerplate (the check only takes matches away); an article left
	// without a match needs the matches, for the partial step, and reads
	// them first: its holders are then counted in them.
	if !j.checksBoilerplate() {
		if _, err := reads.sentences(); err != nil {
			return decision{}, 0, err
		}
	}
	counted, err := reads.holders()
	if err != nil {
		return decision{}, 0, err
	}
	s.boilerplate.learn(fp, counted)
	if err := s.boilerplate.confirm(fp, counted, sc.unlocked); err != nil {
		return decision{}, 0, err
	}
	j.withHolders(counted)
	if j.undecided() {
		found, err := reads.sentences()
		if err != nil {
			return decision{}, 0, err
		}
		if err := judgePartial(ctx, r, j, found, published, sc, reads.apart); err != nil {
			return decision{}, 0, err
		}
		return j.decision(), len(reads.near), nil
	}
	err = s.judgeCopies(ctx, r, j, reads, published, sc)
	return j.decision(), len(reads.near), err
}

// judgeCopies finds, for an article whose near or exact match was
// published after it (it will head the match, promotes), or whose match
// by the article index is partial, the partial copies of it stored before
// it (laterCopy): the partial step's reads, measured from the copies'
// side. A near or exact copy of an earlier article reads nothing more.
func (s *Service) judgeCopies(ctx context.Context, r JudgeReader, j *judging, reads judgeReads, published time.Time, sc scope) error {
	d := j.decision()
	if d.best == nil || len(j.fp.Sentences) == 0 || (!d.best.partial && !effectivePublished(published, s.now()).Before(d.best.published())) {
		return nil
	}
	found, err := reads.sentences()
	if err != nil {
		return err
	}
	ids := j.prospects(found, partialScope(j.fp, published, sc.before, j.opts), reads.apart)
	if len(ids) == 0 {
		return nil
	}
	candidates, err := r.Candidates(ctx, ids)
	if err != nil {
		return err
	}
	j.withCopies(found, candidates)
	return nil
}

// judgePartial is step 3 of j, published at published, within sc and
// opts' window, other than the articles apart, from found, the sentence
// index's matches of its sentences: it reads the prospects j asks for.
func judgePartial(ctx context.Context, r JudgeReader, j *judging, found []SentenceMatch, published time.Time, sc scope, apart separations) error {
	ids := j.prospects(found, partialScope(j.fp, published, sc.before, j.opts), apart)
	if len(ids) == 0 {
		return nil
	}
	candidates, err := r.Candidates(ctx, ids)
	if err != nil {
		return err
	}
	j.withProspects(found, candidates)
	return nil
}
