package service

import (
	"context"
	"errors"
	"time"
)

// Upgrading a running installation. A new fingerprint is a new version, and
// fingerprints of different versions are never compared: after an upgrade,
// the stored articles of older versions are invisible to the new articles
// until they are fingerprinted again. Refingerprint does that to one
// article, in one transaction with the locks an ingest takes, so that the
// service keeps serving: the article is fingerprinted anew from its stored
// body and judged again against the articles of the new version ingested
// before it, keeping the time it was ingested (clusters keep their heads);
// the articles of the old version that linked to it are judged again among
// their own version. Working through the old articles earliest first, each
// is judged against everything a fresh ingest at its time would have seen.
//
// The articles ingested from the deployment of the new version until the
// last old row is upgraded — before a run, during it, during a run that
// was stopped, while an older binary still served — were judged without
// the old articles not yet done. Once every article ingested before some
// time (RejudgeHorizon) is of the new version, Rejudge judges each unique one ingested before then again
// against the articles ingested before it. A mark kept in the database
// (RejudgeMark) says how far that has gone, so that each run starts where
// the last ended, whenever it stopped and whatever was ingested meanwhile.

// Version is the fingerprint version of the articles the service stores.
func (s *Service) Version() int16 { return int16(s.algorithm.Version()) }

// OutdatedArticles returns up to limit articles of older fingerprint
// versions after position after, earliest ingested first.
func (s *Service) OutdatedArticles(ctx context.Context, after ArticlePosition, limit int) ([]ArticlePosition, error) {
	return s.store.Upgrade(ctx, UpgradeQuery{Version: s.algorithm.Version(), After: after, Limit: limit})
}

// CountOutdated returns how many stored articles have an older fingerprint.
func (s *Service) CountOutdated(ctx context.Context) (int64, error) {
	return s.store.CountOutdated(ctx, s.algorithm.Version())
}

// UniqueBefore returns up to limit unique articles of the service's version
// ingested before before and after position after, earliest first.
func (s *Service) UniqueBefore(ctx context.Context, before time.Time, after ArticlePosition, limit int) ([]ArticlePosition, error) {
	return s.store.Upgrade(ctx, UpgradeQuery{Version: s.algorithm.Version(), Unique: true, Before: before, After: after, Limit: limit})
}

// RejudgeHorizon returns a time before which every stored article is of
// the service's version and visible: the unique articles ingested before
// it can be judged again against all they should have seen. It waits for
// the writes under way to end.
func (s *Service) RejudgeHorizon(ctx context.Context) (time.Time, error) {
	return s.store.RejudgeHorizon(ctx, s.algorithm.Version())
}

// RejudgeMark returns how far the unique articles of the service's version
// have been judged again. The first time, the mark is set just before the
// earliest article of the version: the articles before it are of older
// versions, and each is judged as it is upgraded, earliest first, against
// every article ingested before it, so only the articles ingested as the
// new version need judging again.
func (s *Service) RejudgeMark(ctx context.Context) (ArticlePosition, error) {
	return s.store.RejudgeMark(ctx, s.algorithm.Version())
}

// MarkRejudged records that the unique articles of the service's version up
// to position p have been judged again.
func (s *Service) MarkRejudged(ctx context.Context, p ArticlePosition) error {
	return s.store.MarkRejudged(ctx, s.algorithm.Version(), p)
}

// Refingerprint fingerprints stored article id with the service's algorithm
// and judges it again. It reports false, doing nothing, when the article is
// already of the service's version or is gone.
func (s *Service) Refingerprint(ctx context.Context, id int64) (bool, error) {
	a, err := s.store.Article(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	case a.FingerprintVersion == s.algorithm.Version():
		return false, nil
	}
	body, err := s.store.Body(ctx, id)
	if err != nil {
		return false, ignoreNotFound(err)
	}
	fp, err := s.fingerprint(ctx, &Text{Title: a.Title, Body: body, ContentType: a.ContentType}, "")
	if err != nil {
		return false, err
	}
	done := false
	err = s.withRetry(ctx, func(tx Tx) error {
		done = false
		if err := tx.Lock(ctx, []LockKey{keyLock(a.Source, a.ExternalID)}); err != nil {
			return err
		}
		var locks clusterLocks
		x, err := lockCluster(ctx, tx, &locks, a.ID, a.ClusterID)
		if err != nil || x.ContentHash != fp.ContentHash || x.FingerprintVersion == fp.Version {
			return ignoreNotFound(err) // gone, or new content came meanwhile: nothing to do
		}
		content, unlocked := contentLocks(fp, &s.boilerplate)
		if err := tx.Lock(ctx, content); err != nil {
			return err
		}
		if err := s.leave(ctx, tx, &locks, x); err != nil {
			return err
		}
		d, _, err := s.judge(ctx, tx, fp, x.PublishedAt, scope{exclude: x.ID, before: x.IngestedAt, self: x.ID, unlocked: unlocked}, s.defaults)
		if err != nil {
			return err
		}
		if d.best != nil {
			if err := lockMatch(ctx, tx, &locks, d.best); err != nil {
				return err
			}
		}
		in := ArticleInput{Text: Text{Title: x.Title, ContentType: x.ContentType}, ExternalID: x.ExternalID,
			Source: x.Source, URL: x.URL, PublishedAt: x.PublishedAt}
		l, err := placedLink(ctx, tx, x.ID, d, fp.Shingles)
		if err != nil {
			return err
		}
		next := newArticle(&in, fp, l)
		next.IngestedAt = x.IngestedAt
		if err := tx.Refingerprint(ctx, &next, body); err != nil {
			return err
		}
		done = true
		return nil
	})
	return done, err
}

// Rejudge judges stored article id again, if it is unique, against the
// articles ingested before it, and links it to its best match. It reports
// whether it found one.
func (s *Service) Rejudge(ctx context.Context, id int64) (bool, error) {
	linked := false
	err := s.withRetry(ctx, func(tx Tx) error {
		linked = false
		a, err := tx.Article(ctx, id)
		if err != nil {
			return ignoreNotFound(err)
		}
		if err := tx.Lock(ctx, []LockKey{keyLock(a.Source, a.ExternalID)}); err != nil {
			return err
		}
		var locks clusterLocks
		if a, err = lockCluster(ctx, tx, &locks, a.ID, a.ClusterID); err != nil {
			return ignoreNotFound(err)
		}
		if a.Status != StatusUnique || a.FingerprintVersion != s.algorithm.Version() {
			return nil
		}
		if err := s.relink(ctx, tx, &locks, a, a.ID); err != nil {
			return err
		}
		after, err := tx.Article(ctx, id)
		linked = err == nil && after.Status != StatusUnique
		return err
	})
	return linked, err
}

func ignoreNotFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}
