package service

import (
	"context"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Ingest fingerprints an article, judges it against the stored articles and
// stores it with its verdict, in one transaction — shared with the ingests
// that arrive at the same time (ingest_queue.go), each judged as if stored on
// its own.
//
// The key (source, external_id) is unique: a retry with the same content
// returns the stored verdict with Created false, and exactly one of any
// number of concurrent retries stores the article; new content under a stored
// key replaces the old and is judged again.
//
// Errors: KindInvalid naming the field at fault, KindUnavailable, and
// KindConflict if concurrent writers kept colliding.
func (s *Service) Ingest(ctx context.Context, in ArticleInput, opts Options) (Verdict, error) {
	fp, err := s.prepare(ctx, &in, opts, true)
	if err != nil {
		return Verdict{}, err
	}
	return s.combined.store(ctx, s, &arrival{in: &in, fp: fp, opts: opts})
}

// prepare validates an article and its options and fingerprints it.
func (s *Service) prepare(ctx context.Context, in *ArticleInput, opts Options, requireID bool) (fingerprint.Fingerprint, error) {
	if err := validateRequest(in, opts, requireID); err != nil {
		return fingerprint.Fingerprint{}, err
	}
	return s.fingerprint(ctx, &in.Text, "")
}

// validateRequest checks an article and the options it came with, before
// any work is spent on it.
func validateRequest(in *ArticleInput, opts Options, requireID bool) error {
	if err := in.validate(requireID); err != nil {
		return err
	}
	return opts.Validate()
}
