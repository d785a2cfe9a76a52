package service

import (
	"context"
	"errors"
)

// Keep records that an editor keeps article articleID in the cluster
// headed by clusterID, whatever the rule says, and returns the decision.
// KindNotFound when there is no such cluster or article, KindInvalid when
// the article is not a member of the cluster or the input is invalid.
func (s *Service) Keep(ctx context.Context, clusterID, articleID int64, in DecisionInput) (Decision, error) {
	return editorsDecide(ctx, s, &in, func(tx Tx) (Decision, error) {
		var locks clusterLocks
		a, err := lockMember(ctx, tx, &locks, clusterID, articleID)
		if err != nil {
			return Decision{}, err
		}
		d := Decision{Action: ActionKeep, ClusterID: clusterID, ArticleID: a.ID, ArticleSource: a.Source,
			ArticleExternalID: a.ExternalID, Editor: in.Editor, Note: in.Note}
		if err := tx.RecordDecision(ctx, &d); err != nil {
			return d, err
		}
		return d, tx.SetKept(ctx, clusterID, a.ID, d.ID)
	})
}

// ResetKept records that the cluster headed by clusterID returns to the
// keep rule: the editors' choices on its members are withdrawn.
// KindNotFound when there is no such cluster.
func (s *Service) ResetKept(ctx context.Context, clusterID int64, in DecisionInput) (Decision, error) {
	return editorsDecide(ctx, s, &in, func(tx Tx) (Decision, error) {
		var locks clusterLocks
		if _, err := lockMember(ctx, tx, &locks, clusterID, clusterID); err != nil {
			return Decision{}, err
		}
		d := Decision{Action: ActionReset, ClusterID: clusterID, Editor: in.Editor, Note: in.Note}
		if err := tx.RecordDecision(ctx, &d); err != nil {
			return d, err
		}
		return d, tx.SetKept(ctx, clusterID, 0, d.ID)
	})
}

// lockMember locks the cluster headed by clusterID and returns its member
// articleID as it is under the lock.
func lockMember(ctx context.Context, tx Tx, locks *clusterLocks, clusterID, articleID int64) (Article, error) {
	head, err := tx.Article(ctx, clusterID)
	switch {
	case errors.Is(err, ErrNotFound):
		return Article{}, noCluster(clusterID)
	case err != nil:
		return Article{}, err
	}
	if head, err = lockCluster(ctx, tx, locks, head.ID, head.ClusterID); err != nil {
		return Article{}, err
	}
	if head.ClusterID != clusterID {
		return Article{}, &Error{Kind: KindNotFound,
			Message: "no such cluster: article " + itoa(clusterID) + " is a member of cluster " + itoa(head.ClusterID)}
	}
	a, err := tx.Article(ctx, articleID)
	switch {
	case errors.Is(err, ErrNotFound):
		return Article{}, &Error{Kind: KindNotFound, Message: "no such article: " + itoa(articleID)}
	case err != nil:
		return Article{}, err
	case a.ClusterID != clusterID:
		return Article{}, Invalid("article_id", "article %d is not a member of cluster %d (it is in cluster %d)",
			articleID, clusterID, a.ClusterID)
	}
	return a, nil
}
