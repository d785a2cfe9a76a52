package service

import (
	"context"
	"errors"
)

// SplitPreview is what splitting an article out of its cluster would do.
type SplitPreview struct {
	Article Article
	// Moved are the articles that would go with it, itself included (for
	// a head, only itself); Rest how many members would stay.
	Moved []Article
	Rest  int
}

// PreviewSplit says what Split would do, changing nothing. Errors as
// Split's.
func (s *Service) PreviewSplit(ctx context.Context, clusterID, articleID int64) (SplitPreview, error) {
	if err := s.isHead(ctx, s.store, clusterID); err != nil {
		return SplitPreview{}, err
	}
	a, err := s.store.Article(ctx, articleID)
	switch {
	case errors.Is(err, ErrNotFound):
		return SplitPreview{}, &Error{Kind: KindNotFound, Message: "no such article: " + itoa(articleID)}
	case err != nil:
		return SplitPreview{}, err
	case a.ClusterID != clusterID:
		return SplitPreview{}, Invalid("article_id", "article %d is not a member of cluster %d (it is in cluster %d)", articleID, clusterID, a.ClusterID)
	}
	members, err := s.store.KeepCandidates(ctx, []int64{clusterID})
	if err != nil {
		return SplitPreview{}, err
	}
	if len(members) < 2 {
		return SplitPreview{}, Invalid("article_id", "article %d is the only member of its cluster: there is nothing to split it from", articleID)
	}
	ids := []int64{a.ID}
	if !a.IsCanonical() {
		if ids, err = s.store.Subtree(ctx, a.ID); err != nil {
			return SplitPreview{}, err
		}
	}
	p := SplitPreview{Article: a, Rest: len(members) - len(ids)}
	for _, id := range ids {
		m, err := s.store.Article(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return SplitPreview{}, err
		}
		p.Moved = append(p.Moved, m)
	}
	return p, nil
}

// SplitResult is what a split did.
type SplitResult struct {
	Decision Decision
	// ClusterID is the cluster the article heads now: its own id.
	ClusterID int64
	// Moved are the articles that went with it (its subtree, itself
	// included); for a head split out, only itself.
	Moved []int64
	// Separated is how many pairs the split separated.
	Separated int
}

// Split records that article articleID, with the articles whose links lead
// to it, is not a duplicate of the rest of the cluster headed by clusterID:
// they become a cluster of their own, headed by the article, and every one
// of them is separated from every other member, so that none is linked to
// one of those again. Splitting out the head leaves it alone, and the
// articles that linked to it are judged again without it.
//
// Errors: KindNotFound when there is no such cluster or article,
// KindInvalid when the article is not a member of the cluster, is its only
// member, or the split would separate more than MaxSplitPairs pairs.
func (s *Service) Split(ctx context.Context, clusterID, articleID int64, in DecisionInput) (SplitResult, error) {
	return editorsDecide(ctx, s, &in, func(tx Tx) (SplitResult, error) {
		return s.splitTx(ctx, tx, clusterID, articleID, in, false)
	})
}

// SplitAlone records that article articleID alone is not a duplicate of
// the rest of the cluster headed by clusterID: it heads a cluster of its
// own, separated from every other member, and the articles that linked to
// it stay, judged again without it by the rule a deleted article's
// dependants are (dependants.go: the earliest of them judged again, the
// others linking to it or judged again), so a copy of it that also copies
// the rest stays with the rest. For the head it is Split. Errors as
// Split's.
func (s *Service) SplitAlone(ctx context.Context, clusterID, articleID int64, in DecisionInput) (SplitResult, error) {
	return editorsDecide(ctx, s, &in, func(tx Tx) (SplitResult, error) {
		return s.splitTx(ctx, tx, clusterID, articleID, in, true)
	})
}

func (s *Service) splitTx(ctx context.Context, tx Tx, clusterID, articleID int64, in DecisionInput, alone bool) (SplitResult, error) {
	// The key's lock first, as writers take it: a re-ingest of the article
	// waits for the split, and is judged with its separations.
	a, err := tx.Article(ctx, articleID)
	if errors.Is(err, ErrNotFound) {
		return SplitResult{}, &Error{Kind: KindNotFound, Message: "no such article: " + itoa(articleID)}
	} else if err != nil {
		return SplitResult{}, err
	}
	if err := tx.Lock(ctx, []LockKey{keyLock(a.Source, a.ExternalID)}); err != nil {
		return SplitResult{}, err
	}
	var locks clusterLocks
	if a, err = lockMember(ctx, tx, &locks, clusterID, articleID); err != nil {
		return SplitResult{}, err
	}
	members, err := tx.KeepCandidates(ctx, []int64{clusterID})
	if err != nil {
		return SplitResult{}, err
	}
	if len(members) < 2 {
		return SplitResult{}, Invalid("article_id", "article %d is the only member of its cluster: there is nothing to split it from", articleID)
	}

	moved := []int64{a.ID}
	if !a.IsCanonical() && !alone {
		if moved, err = tx.Subtree(ctx, a.ID); err != nil {
			return SplitResult{}, err
		}
	}
	inMoved := make(map[int64]bool, len(moved))
	for _, id := range moved {
		inMoved[id] = true
	}
	var rest []int64
	for _, m := range members {
		if !inMoved[m.ID] {
			rest = append(rest, m.ID)
		}
	}
	if n := len(moved) * len(rest); n > MaxSplitPairs {
		return SplitResult{}, Invalid("article_id", "splitting article %d out would separate %d pairs (%d articles from %d), more than %d",
			articleID, n, len(moved), len(rest), MaxSplitPairs)
	}
	pairs := make([][2]int64, 0, len(moved)*len(rest))
	for _, x := range moved {
		for _, y := range rest {
			pairs = append(pairs, [2]int64{min(x, y), max(x, y)})
		}
	}

	d := Decision{Action: ActionSplit, ClusterID: clusterID, ArticleID: a.ID, ArticleSource: a.Source,
		ArticleExternalID: a.ExternalID, Editor: in.Editor, Note: in.Note}
	if err := tx.RecordDecision(ctx, &d); err != nil {
		return SplitResult{}, err
	}
	separated, err := tx.Separate(ctx, pairs, d.ID)
	if err != nil {
		return SplitResult{}, err
	}
	switch {
	case a.IsCanonical():
		// The head stays where it is, alone: the articles linking to it are
		// judged again, and cannot link to it (separated).
		err = s.leave(ctx, tx, &locks, a)
	case alone:
		// Its dependants are judged again without it first, as the head's
		// are; then it heads a cluster of its own.
		if err = s.leave(ctx, tx, &locks, a); err == nil {
			err = tx.Relink(ctx, Link{ID: a.ID, Status: StatusUnique})
		}
	default:
		err = tx.Relink(ctx, Link{ID: a.ID, Status: StatusUnique})
	}
	if err == nil && !a.IsCanonical() { // it links to none now: no credit
		err = s.recredit(ctx, tx, []Link{{ID: a.ID, Status: StatusUnique}})
	}
	if err != nil {
		return SplitResult{}, err
	}
	return SplitResult{Decision: d, ClusterID: a.ID, Moved: moved, Separated: separated}, nil
}
