package service

import (
	"context"
	"errors"
)

// Clusters. A duplicate links to one article: the article, ingested before
// it, that it was compared with and matched best (DuplicateOf, with the
// distance and ratio to that article). Links always lead to an earlier
// article, so they form trees; a cluster is one tree, and its head — the
// earliest ingested member, which every link of the cluster leads to — gives
// the cluster its id. A new article joins the cluster of the article it
// links to, but a partial duplicate that would drift from that cluster's
// story heads one of its own, its link kept (rules_drift.go); two clusters
// never merge.
//
// Every link is a real match, at every moment: when an article changes or
// leaves (deleted, or new content under its key), the articles that link to
// it are measured again, together (dependants.go): against its new content
// when that corrects the old (correct.go), else against each other and the
// articles ingested before them, each linking to a real match — moving, with
// the articles that link to it, to that match's cluster — or heading a
// cluster of its own. And an article is judged against what the article it
// links to holds when it commits: lockMatch checks, under the cluster's
// lock, that the match still holds the fingerprint it was judged against.

// clusterLocks are the cluster locks a transaction holds. A transaction
// waits only for a cluster lock above every one it holds and merely tries
// the others, giving up with ErrConflict (and running again) when one is
// taken: so two writers never wait on each other in a circle, which would
// cost a second before PostgreSQL noticed the deadlock.
type clusterLocks struct {
	highest int64 // the highest cluster id locked, 0 for none
}

func (l *clusterLocks) lock(ctx context.Context, tx Tx, clusterID int64) error {
	if clusterID < l.highest {
		ok, err := tx.TryLock(ctx, ClusterLockKey(clusterID))
		if err != nil {
			return err
		}
		if !ok {
			return &Error{Kind: KindConflict, Message: "another writer holds a cluster this one needs",
				Err: lockBusy{ClusterLockKey(clusterID)}}
		}
		return nil
	}
	if err := tx.Lock(ctx, []LockKey{ClusterLockKey(clusterID)}); err != nil {
		return err
	}
	l.highest = clusterID
	return nil
}

// lockCluster locks cluster clusterID, which article id was read to belong
// to, and returns the article as it is once the lock is held. Every writer
// that adds a member to a cluster, or removes one, holds its cluster's lock.
// While it waits, a member leaving the cluster may move the article to
// another cluster; then it follows the article there.
func lockCluster(ctx context.Context, tx Tx, locks *clusterLocks, id, clusterID int64) (Article, error) {
	for range 3 {
		if err := locks.lock(ctx, tx, clusterID); err != nil {
			return Article{}, err
		}
		a, err := tx.Article(ctx, id)
		if err != nil || a.ClusterID == clusterID {
			return a, err
		}
		clusterID = a.ClusterID
	}
	return Article{}, &Error{Kind: KindConflict, Message: "the article kept changing clusters"}
}

// lockMatch locks the cluster of the article an article is about to link to
// and sets m's cluster to the one the article is in once the lock is held.
// If it is gone, or no longer holds the fingerprint it was judged against
// (new content under its key arrived meanwhile), it returns ErrConflict:
// the transaction runs again and judges again.
func lockMatch(ctx context.Context, tx Tx, locks *clusterLocks, m *Match) error {
	a, err := lockCluster(ctx, tx, locks, m.ID, m.clusterID)
	switch {
	case errors.Is(err, ErrNotFound):
		return &Error{Kind: KindConflict, Message: "the matched article was deleted meanwhile", Err: err}
	case err != nil:
		return err
	case a.Simhash != m.simhash || a.ContentHash != m.contentHash:
		return &Error{Kind: KindConflict, Message: "the matched article changed meanwhile"}
	}
	m.clusterID = a.ClusterID
	return nil
}
