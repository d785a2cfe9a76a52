package service

import (
	"context"
	"errors"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Ingest fingerprints an article, judges it against the stored articles and
// stores it with its verdict, in one transaction — shared with the ingests
// that arrive at the same time (combine.go), each judged as if stored on
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
	return s.combined.store(ctx, s, &groupItem{in: &in, fp: fp, opts: opts})
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

// save runs saveTx until it does not collide with a concurrent writer.
func (s *Service) save(ctx context.Context, in *ArticleInput, fp fingerprint.Fingerprint, opts Options) (Verdict, error) {
	if in.PublishedAt.IsZero() {
		in.PublishedAt = s.now()
	}
	var v Verdict
	err := s.withRetry(ctx, func(tx Tx) error {
		var err error
		v, err = s.saveTx(ctx, tx, in, fp, opts)
		return err
	})
	return v, err
}

// saveTx is one attempt to store an article, step by step:
//
//  1. lock its key and read what is stored under it;
//  2. lock its family-A blocks and its sentences (but known boilerplate,
//     which judge confirms), so that a near or partial duplicate arriving
//     at the same instant waits for this one (or this one for it);
//  3. if the key holds the same content, answer its stored verdict; if it
//     holds a text the new content corrects, correct it in its place
//     (correct.go); if another story, that content leaves: the articles
//     linking to it are measured again (dependants.go);
//  4. judge the article against the stored ones;
//  5. lock the cluster of its best match and check the match still holds
//     what it was judged against;
//  6. insert the article, or replace the key's content, with its link.
func (s *Service) saveTx(ctx context.Context, tx Tx, in *ArticleInput, fp fingerprint.Fingerprint, opts Options) (Verdict, error) {
	if err := tx.Lock(ctx, []LockKey{keyLock(in.Source, in.ExternalID)}); err != nil {
		return Verdict{}, err
	}
	existing, err := tx.ArticleByKey(ctx, in.Source, in.ExternalID)
	replacing := err == nil
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Verdict{}, err
	}
	content, unlocked := contentLocks(fp, &s.boilerplate)
	if err := tx.Lock(ctx, content); err != nil {
		return Verdict{}, err
	}

	var locks clusterLocks
	if replacing {
		if existing, err = lockCluster(ctx, tx, &locks, existing.ID, existing.ClusterID); err != nil {
			return Verdict{}, err
		}
		if existing.ContentHash == fp.ContentHash && existing.FingerprintVersion == fp.Version {
			return s.storedVerdict(ctx, tx, existing, opts)
		}
		if v, ok, err := s.correct(ctx, tx, &locks, existing, in, fp, opts, unlocked); err != nil || ok {
			return v, err
		}
		if err := s.leave(ctx, tx, &locks, existing); err != nil {
			return Verdict{}, err
		}
	}

	d, candidates, err := s.judge(ctx, tx, fp, in.PublishedAt, scope{exclude: existing.ID, self: existing.ID, unlocked: unlocked}, opts)
	if err != nil {
		return Verdict{}, err
	}
	if d.best != nil {
		if err := lockMatch(ctx, tx, &locks, d.best); err != nil {
			return Verdict{}, err
		}
	}

	a := newArticle(in, fp, link(existing.ID, d))
	if replacing {
		err = tx.Replace(ctx, &a, in.Body)
	} else {
		err = tx.Insert(ctx, &a, in.Body)
	}
	if err != nil {
		return Verdict{}, err
	}
	v := verdictOf(a, d.matches)
	v.Created, v.Candidates = true, candidates
	return v, nil
}

// newArticle is the row of an article with its fingerprint and link.
func newArticle(in *ArticleInput, fp fingerprint.Fingerprint, l Link) Article {
	return Article{
		ID:                 l.ID,
		ExternalID:         in.ExternalID,
		Source:             in.Source,
		Title:              in.Title,
		URL:                in.URL,
		ContentType:        in.ContentType,
		PublishedAt:        in.PublishedAt,
		Simhash:            fp.Simhash,
		FingerprintVersion: fp.Version,
		Words:              fp.Words,
		ContentHash:        fp.ContentHash,
		Shingles:           fp.Shingles,
		Sentences:          fp.Sentences,
		PlainBody:          fp.PlainBody,
		Status:             l.Status,
		DuplicateOf:        l.DuplicateOf,
		ClusterID:          l.ClusterID,
		Similarity:         l.Similarity,
	}
}

// verdictOf is the verdict of stored article a, whose link names the
// article it links to, with the matches it was judged on.
func verdictOf(a Article, matches []Match) Verdict {
	v := Verdict{
		ID:         a.ID,
		ExternalID: a.ExternalID,
		Source:     a.Source,
		Status:     a.Status,
		ClusterID:  a.ClusterID,
		Matches:    matches,
		Simhash:    a.Simhash,
	}
	if a.DuplicateOf != 0 {
		v.DuplicateOf = &Reference{ID: a.DuplicateOf, Similarity: a.Similarity}
		for _, m := range matches {
			if m.ID == a.DuplicateOf {
				v.DuplicateOf.ExternalID = m.ExternalID
				break
			}
		}
	}
	return v
}

// storedVerdict is the verdict of an article already stored with the same
// content: its stored status and link, and its matches among the articles
// ingested before it.
func (s *Service) storedVerdict(ctx context.Context, r Reader, a Article, opts Options) (Verdict, error) {
	fp, err := storedFingerprint(ctx, r, a)
	if err != nil {
		return Verdict{}, err
	}
	d, candidates, err := s.judge(ctx, r, fp, a.PublishedAt, scope{exclude: a.ID, before: a.IngestedAt, self: a.ID}, opts)
	if err != nil {
		return Verdict{}, err
	}
	v := verdictOf(a, d.matches)
	v.Candidates = candidates
	if v.DuplicateOf != nil && v.DuplicateOf.ExternalID == "" {
		// The link is not among this request's matches (its options differ
		// from the ones that judged the article): read its key.
		linked, err := r.Article(ctx, a.DuplicateOf)
		if err != nil {
			return Verdict{}, err
		}
		v.DuplicateOf.ExternalID = linked.ExternalID
	}
	return v, nil
}
