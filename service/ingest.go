package service

import (
	"context"
	"errors"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Ingest fingerprints an article, judges it against the stored articles and
// stores it with its verdict, in one transaction.
//
// The key (source, external_id) is unique: a retry with the same content
// returns the stored verdict with Created false, and exactly one of any
// number of concurrent retries stores the article; new content under a stored
// key replaces the old and is judged again.
//
// Errors: KindInvalid naming the field at fault, KindUnavailable, and
// KindConflict if concurrent writers kept colliding.
func (s *Service) Ingest(ctx context.Context, in ArticleInput, opts Options) (Verdict, error) {
	fp, err := s.prepare(&in, opts, true)
	if err != nil {
		return Verdict{}, err
	}
	return s.ingest(ctx, &in, fp, opts)
}

// prepare validates an article and its options and fingerprints it.
func (s *Service) prepare(in *ArticleInput, opts Options, requireID bool) (fingerprint.Fingerprint, error) {
	if err := in.validate(requireID); err != nil {
		return fingerprint.Fingerprint{}, err
	}
	if err := opts.Validate(); err != nil {
		return fingerprint.Fingerprint{}, err
	}
	return s.fingerprint(&in.Text, "")
}

func (s *Service) ingest(ctx context.Context, in *ArticleInput, fp fingerprint.Fingerprint, opts Options) (Verdict, error) {
	if in.PublishedAt.IsZero() {
		in.PublishedAt = s.now()
	}
	var v Verdict
	err := s.withRetry(ctx, func(tx Tx) error {
		var err error
		v, err = s.ingestTx(ctx, tx, in, fp, opts)
		return err
	})
	return v, err
}

func (s *Service) ingestTx(ctx context.Context, tx Tx, in *ArticleInput, fp fingerprint.Fingerprint, opts Options) (Verdict, error) {
	if err := tx.Lock(ctx, []LockKey{keyLock(in.Source, in.ExternalID)}); err != nil {
		return Verdict{}, err
	}
	existing, err := tx.ArticleByKey(ctx, in.Source, in.ExternalID)
	replacing := err == nil
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Verdict{}, err
	}
	if err := tx.Lock(ctx, blockLocks(fp.Simhash)); err != nil {
		return Verdict{}, err
	}
	var locks clusterLocks
	if replacing {
		if existing, err = lockCluster(ctx, tx, &locks, existing.ID, existing.ClusterID); err != nil {
			return Verdict{}, err
		}
		if existing.ContentHash == fp.ContentHash && existing.FingerprintVersion == fp.Version {
			return s.storedVerdict(ctx, tx, existing, fp, opts)
		}
		if existing.IsCanonical() {
			if err := handOver(ctx, tx, &locks, existing.ID); err != nil {
				return Verdict{}, err
			}
		}
	}
	d, candidates, err := s.judge(ctx, tx, fp, in.PublishedAt, existing.ID, time.Time{}, opts)
	if err != nil {
		return Verdict{}, err
	}

	a := Article{
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
		Status:             d.status,
	}
	var ref *Reference
	if d.best != nil {
		canonical, err := joinCluster(ctx, tx, &locks, d.best)
		if err != nil {
			return Verdict{}, err
		}
		ref = reference(fp, canonical)
		a.DuplicateOf, a.Distance, a.WordRatio = ref.ID, ref.Distance, ref.WordRatio
	}
	if replacing {
		a.ID = existing.ID
		err = tx.Replace(ctx, &a, in.Body)
	} else {
		err = tx.Insert(ctx, &a, in.Body)
	}
	if err != nil {
		return Verdict{}, err
	}
	return Verdict{
		ID:          a.ID,
		ExternalID:  a.ExternalID,
		Source:      a.Source,
		Status:      a.Status,
		DuplicateOf: ref,
		Matches:     d.matches,
		Simhash:     a.Simhash,
		Created:     true,
		Candidates:  candidates,
	}, nil
}

// storedVerdict is the verdict of an article already stored with the same
// content: its stored status and canonical article, and its matches among
// the articles ingested before it.
func (s *Service) storedVerdict(ctx context.Context, r Reader, a Article, fp fingerprint.Fingerprint, opts Options) (Verdict, error) {
	d, candidates, err := s.judge(ctx, r, fp, a.PublishedAt, a.ID, a.IngestedAt, opts)
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{
		ID:         a.ID,
		ExternalID: a.ExternalID,
		Source:     a.Source,
		Status:     a.Status,
		Matches:    d.matches,
		Simhash:    a.Simhash,
		Candidates: candidates,
	}
	if !a.IsCanonical() {
		canonical, err := r.Article(ctx, a.DuplicateOf)
		if err != nil {
			return Verdict{}, err
		}
		v.DuplicateOf = &Reference{ID: canonical.ID, ExternalID: canonical.ExternalID, Distance: a.Distance, WordRatio: a.WordRatio}
	}
	return v, nil
}

// judge finds the stored copies and near duplicates of a fingerprint and
// decides. It returns how many candidates the index query gave.
func (s *Service) judge(ctx context.Context, r Reader, fp fingerprint.Fingerprint, published time.Time,
	excludeID int64, before time.Time, opts Options) (decision, int, error) {
	exact, err := r.ExactMatches(ctx, ExactQuery{
		ContentHash: fp.ContentHash,
		Version:     fp.Version,
		ExcludeID:   excludeID,
		Before:      before,
		Limit:       CandidateCap,
	})
	if err != nil {
		return decision{}, 0, err
	}
	from, to := window(published, opts)
	near, err := r.NearCandidates(ctx, NearQuery{
		Simhash:     fp.Simhash,
		Version:     fp.Version,
		MaxDistance: opts.MaxDistance,
		From:        from,
		To:          to,
		ExcludeID:   excludeID,
		Before:      before,
		Limit:       CandidateCap,
	})
	if err != nil {
		return decision{}, 0, err
	}
	return decide(fp, exact, near, opts), len(near), nil
}

// reference names the canonical article of a duplicate with fingerprint fp.
func reference(fp fingerprint.Fingerprint, canonical Article) *Reference {
	return &Reference{
		ID:         canonical.ID,
		ExternalID: canonical.ExternalID,
		Distance:   fingerprint.Distance(fp.Simhash, canonical.Simhash),
		WordRatio:  fingerprint.Ratio(fp.Words, canonical.Words),
	}
}
