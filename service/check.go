package service

import (
	"context"
	"errors"
)

// Check returns the verdict an article would get if it were ingested now,
// and stores nothing: its Verdict has no ID. external_id is optional; when
// given, the article stored under the same key is left out of the matches.
// With opts.SharedSentences, the verdict also lists the sentences it shares
// with stored articles; the verdict and the shared sentences come from one
// search of the sentence index.
//
// A valid request waits for a turn before any other work
// (turns.go).
//
// Errors: KindInvalid naming the field at fault, KindUnavailable.
func (s *Service) Check(ctx context.Context, in ArticleInput, opts Options) (Verdict, error) {
	if err := validateRequest(&in, opts, false); err != nil {
		return Verdict{}, err
	}
	release, err := takeTurn(ctx, s.checkTurns)
	if err != nil {
		return Verdict{}, err
	}
	defer release()
	var missing *MissingPartitions
	if opts.AllowIncomplete {
		ctx, missing = WithMissingPartitions(ctx)
	}
	fp, err := s.fingerprint(ctx, &in.Text, "")
	if err != nil {
		return Verdict{}, err
	}
	if in.PublishedAt.IsZero() {
		in.PublishedAt, in.arrived = s.now(), true
	}
	var self int64
	if in.ExternalID != "" {
		stored, err := s.store.ArticleByKey(ctx, in.Source, in.ExternalID)
		switch {
		case err == nil:
			self = stored.ID
		case !errors.Is(err, ErrNotFound):
			return Verdict{}, err
		}
	}
	sc := scope{exclude: self, self: self, heads: self == 0 && !in.arrived}
	reads, err := readInTurn(ctx, s.store, fp, in.PublishedAt, sc, opts, opts.SharedSentences)
	if err != nil {
		return Verdict{}, err
	}
	d, candidates, err := s.judgeFrom(ctx, s.store, fp, in.PublishedAt, sc, opts, reads)
	if err != nil {
		return Verdict{}, err
	}
	l, err := placedLink(ctx, s.store, 0, d, fp.Shingles) // cluster_id as an ingest would place it
	if err != nil {
		return Verdict{}, err
	}
	if self == 0 && promotes(effectivePublished(in.PublishedAt, s.now()), in.arrived, d) {
		l = Link{Status: StatusUnique} // it would head its match's cluster (ingest_promote.go)
	}
	v := verdictOf(newArticle(&in, fp, l), d.matches)
	v.Candidates = candidates
	if opts.SharedSentences {
		found, err := reads.sentences()
		if err != nil {
			return Verdict{}, err
		}
		shared := sharedSentencesFrom(fp, found, in.PublishedAt, SharedOptions{Limit: opts.Limit})
		v.SharedSentences = &shared
	}
	if missing != nil {
		v.MissingPartitions = missing.List()
	}
	return v, nil
}
