package service

import "context"

// FindArticle returns the stored article with this id, or KindNotFound.
func (s *Service) FindArticle(ctx context.Context, id int64) (Article, error) {
	return s.store.Article(ctx, id)
}

// FindArticleByKey returns the article stored under the client's key.
// Errors: KindInvalid for a missing or too long external_id or source, or a
// key PostgreSQL cannot hold (invalid UTF-8, NUL), KindNotFound.
func (s *Service) FindArticleByKey(ctx context.Context, source, externalID string) (Article, error) {
	if externalID == "" {
		return Article{}, Invalid("external_id", "is required")
	}
	if err := checkStrings("", field{"external_id", externalID}, field{"source", source}); err != nil {
		return Article{}, err
	}
	if err := checkLength("external_id", externalID, MaxExternalIDLength); err != nil {
		return Article{}, err
	}
	if err := checkLength("source", source, MaxSourceLength); err != nil {
		return Article{}, err
	}
	return s.store.ArticleByKey(ctx, source, externalID)
}

// Duplicates returns the article and the other members of its cluster,
// earliest ingested first (so the cluster's head first, when it is not this
// one), at most MaxLimit of them; KindNotFound if the article does not
// exist.
func (s *Service) Duplicates(ctx context.Context, id int64) (Article, []Article, error) {
	a, err := s.store.Article(ctx, id)
	if err != nil {
		return Article{}, nil, err
	}
	members, err := s.store.ClusterMembers(ctx, a.ClusterID, MaxLimit+1)
	if err != nil {
		return Article{}, nil, err
	}
	others := make([]Article, 0, len(members))
	for _, m := range members {
		if m.ID != id {
			others = append(others, m)
		}
	}
	return a, others[:min(len(others), MaxLimit)], nil
}

// DeleteArticle deletes an article so that it is never matched again. The
// articles that linked to it are judged again and linked to their best
// remaining match, or head clusters of their own. KindNotFound if it does
// not exist.
func (s *Service) DeleteArticle(ctx context.Context, id int64) error {
	return s.withRetry(ctx, func(tx Tx) error {
		a, err := tx.Article(ctx, id)
		if err != nil {
			return err
		}
		// Take the key's lock as writers do, then the cluster's, and read the
		// article again: it may have changed while we waited.
		if err := tx.Lock(ctx, []LockKey{keyLock(a.Source, a.ExternalID)}); err != nil {
			return err
		}
		var locks clusterLocks
		if a, err = lockCluster(ctx, tx, &locks, a.ID, a.ClusterID); err != nil {
			return err
		}
		if err := s.leave(ctx, tx, &locks, a); err != nil {
			return err
		}
		return tx.Delete(ctx, id)
	})
}
