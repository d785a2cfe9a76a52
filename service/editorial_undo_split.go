package service

import (
	"cmp"
	"context"
	"errors"
	"slices"
)

// Undoing a split: the separations a split recorded are removed, the undo
// is recorded as a decision of its own (who, when, why), and the articles
// of those pairs that head a cluster are judged again, earliest ingested
// first, so that the article split out rejoins the cluster it matches,
// with the articles linking to it.

// ActionUndoSplit is the decision that undid a split.
const ActionUndoSplit Action = "undo_split"

// UndoSplit undoes split decision decisionID and returns the decision that
// records it, made in the cluster the split was made in. KindNotFound when
// there is no such decision; KindInvalid when it is no split, its article
// was deleted, or it has nothing left to undo (undone already).
func (s *Service) UndoSplit(ctx context.Context, decisionID int64, in DecisionInput) (Decision, error) {
	if err := in.validate(); err != nil {
		return Decision{}, err
	}
	if err := s.ensureKeepPolicy(ctx); err != nil {
		return Decision{}, err
	}
	var d Decision
	err := s.withRetry(ctx, func(tx Tx) error {
		split, err := tx.DecisionByID(ctx, decisionID)
		if err != nil {
			return err
		}
		switch {
		case split.Action != ActionSplit:
			return Invalid("decision_id", "decision %d is no split (it is %s)", decisionID, split.Action)
		case split.ArticleID == 0:
			return Invalid("decision_id", "the article split out by decision %d was deleted", decisionID)
		}
		a, err := tx.Article(ctx, split.ArticleID)
		if errors.Is(err, ErrNotFound) {
			return Invalid("decision_id", "the article split out by decision %d was deleted", decisionID)
		} else if err != nil {
			return err
		}
		if err := tx.Lock(ctx, []LockKey{keyLock(a.Source, a.ExternalID)}); err != nil {
			return err
		}
		var locks clusterLocks
		if _, err := lockCluster(ctx, tx, &locks, a.ID, a.ClusterID); err != nil {
			return err
		}
		pairs, err := tx.Unseparate(ctx, decisionID)
		if err != nil {
			return err
		}
		if len(pairs) == 0 {
			return Invalid("decision_id", "split %d has nothing left to undo: it was undone already, or its articles were deleted", decisionID)
		}
		d = Decision{Action: ActionUndoSplit, ClusterID: split.ClusterID, ArticleID: a.ID, ArticleSource: a.Source,
			ArticleExternalID: a.ExternalID, Editor: in.Editor, Note: in.Note}
		if err := tx.RecordDecision(ctx, &d); err != nil {
			return err
		}
		return s.rejoin(ctx, tx, &locks, pairs)
	})
	return d, err
}

// rejoin judges again the articles of pairs that head a cluster, earliest
// ingested first.
func (s *Service) rejoin(ctx context.Context, tx Tx, locks *clusterLocks, pairs [][2]int64) error {
	var ids []int64
	for _, p := range pairs {
		ids = append(ids, p[0], p[1])
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var heads []Article
	for _, id := range ids {
		a, err := tx.Article(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if a.IsCanonical() {
			heads = append(heads, a)
		}
	}
	slices.SortFunc(heads, func(a, b Article) int { return cmp.Or(a.IngestedAt.Compare(b.IngestedAt), cmp.Compare(a.ID, b.ID)) })
	for _, h := range heads {
		a, err := lockCluster(ctx, tx, locks, h.ID, h.ClusterID)
		if err != nil {
			return err
		}
		if !a.IsCanonical() { // moved along with an article judged before it
			continue
		}
		if err := s.relink(ctx, tx, locks, a, 0); err != nil {
			return err
		}
	}
	return nil
}
