package service

import (
	"context"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// SharedSentences returns, for each sentence of article id that other
// stored articles also hold (near-identically), those articles and their
// sentences, grouped by article, the articles sharing the most first.
// Errors: KindNotFound, KindInvalid for options out of range,
// KindUnavailable.
func (s *Service) SharedSentences(ctx context.Context, id int64, opts SharedOptions) (SharedSentences, error) {
	if err := opts.Validate(); err != nil {
		return SharedSentences{}, err
	}
	a, err := s.store.Article(ctx, id)
	if err != nil {
		return SharedSentences{}, err
	}
	fp, err := storedFingerprint(ctx, s.store, a)
	if err != nil {
		return SharedSentences{}, err
	}
	shared, err := s.sharedSentences(ctx, s.store, fp, a.ID, a.PublishedAt, opts)
	shared.ArticleID = a.ID
	return shared, err
}

// sharedSentences is the multi-viewpoint query for fingerprint fp of an
// article published at published (excludeID: the article itself, if
// stored).
func (s *Service) sharedSentences(ctx context.Context, r JudgeReader, fp fingerprint.Fingerprint, excludeID int64, published time.Time, opts SharedOptions) (SharedSentences, error) {
	found, err := searchSentences(ctx, r, fp, excludeID)
	if err != nil {
		return SharedSentences{}, err
	}
	return sharedSentencesFrom(fp, found, published, opts), nil
}

// storedFingerprint is the fingerprint of stored article a with its
// sentences and their text, read from the store.
func storedFingerprint(ctx context.Context, r ArticleReader, a Article) (fingerprint.Fingerprint, error) {
	fp := a.fingerprint()
	var err error
	fp.Sentences, fp.PlainBody, err = r.ArticleText(ctx, a.ID)
	return fp, err
}
