package service

import (
	"context"
	"errors"
)

// Check returns the verdict an article would get if it were ingested now,
// and stores nothing: its Verdict has no ID. external_id is optional; when
// given, the article stored under the same key is left out of the matches.
// With opts.SharedSentences, the verdict also lists the sentences it shares
// with stored articles.
//
// Errors: KindInvalid naming the field at fault, KindUnavailable.
func (s *Service) Check(ctx context.Context, in ArticleInput, opts Options) (Verdict, error) {
	fp, err := s.prepare(ctx, &in, opts, false)
	if err != nil {
		return Verdict{}, err
	}
	if in.PublishedAt.IsZero() {
		in.PublishedAt = s.now()
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
	d, candidates, err := s.judge(ctx, s.store, fp, in.PublishedAt, scope{exclude: self, self: self}, opts)
	if err != nil {
		return Verdict{}, err
	}
	v := verdictOf(newArticle(&in, fp, link(0, d)), d.matches)
	v.Candidates = candidates
	if opts.SharedSentences {
		shared, err := s.sharedSentences(ctx, s.store, fp, self, in.PublishedAt, SharedOptions{Limit: opts.Limit})
		if err != nil {
			return Verdict{}, err
		}
		v.SharedSentences = &shared
	}
	return v, nil
}
