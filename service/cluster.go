package service

import (
	"context"
	"errors"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Clusters. Articles that match form a cluster. Its canonical article is the
// earliest ingested member, and every other member's DuplicateOf points at
// it, never at another duplicate: a new duplicate joins the cluster of its
// best match. When the canonical article leaves (deleted, or replaced by new
// content), the earliest remaining member takes over and the others are
// relinked to it, so no reference dangles. The database's foreign key on
// duplicate_of guards the same promise.

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
		ok, err := tx.TryLock(ctx, clusterLock(clusterID))
		if err != nil {
			return err
		}
		if !ok {
			return &Error{Kind: KindConflict, Message: "another writer holds a cluster this one needs"}
		}
		return nil
	}
	if err := tx.Lock(ctx, []LockKey{clusterLock(clusterID)}); err != nil {
		return err
	}
	l.highest = clusterID
	return nil
}

// joinCluster locks the cluster of the best match and returns its canonical
// article. If the match was deleted after it was read, it returns
// ErrConflict and the transaction runs again.
func joinCluster(ctx context.Context, tx Tx, locks *clusterLocks, best *Match) (Article, error) {
	m, err := lockCluster(ctx, tx, locks, best.ID, best.clusterID)
	if errors.Is(err, ErrNotFound) {
		return Article{}, &Error{Kind: KindConflict, Message: "the matched article was deleted meanwhile", Err: err}
	}
	if err != nil {
		return Article{}, err
	}
	if m.IsCanonical() {
		return m, nil
	}
	return tx.Article(ctx, m.ClusterID)
}

// lockCluster locks cluster clusterID, which article id was read to belong
// to, and returns the article as it is once the lock is held. Every writer
// that adds a member to a cluster, or removes or changes one, holds its
// cluster's lock. While it waits, a concurrent hand-over may move the
// article to another cluster (or make it canonical); then it follows the
// article there. A cluster moves only when its canonical article leaves,
// which needs the lock held here, so this ends at once.
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

// handOver gives the cluster of canonical article id, which is leaving, to
// its earliest remaining member and relinks the others to that member.
func handOver(ctx context.Context, tx Tx, locks *clusterLocks, id int64) error {
	if err := locks.lock(ctx, tx, id); err != nil {
		return err
	}
	members, err := tx.ClusterMembers(ctx, id, 0)
	if err != nil {
		return err
	}
	var heir *Article
	var links []Link
	for i := range members {
		m := &members[i]
		switch {
		case m.ID == id:
		case heir == nil:
			heir = m
			links = append(links, Link{ID: m.ID, Status: StatusUnique})
		default:
			links = append(links, linkTo(m, heir))
		}
	}
	if heir == nil {
		return nil
	}
	return tx.Relink(ctx, links)
}

// linkTo is the verdict of member m within the cluster of canonical.
func linkTo(m, canonical *Article) Link {
	status := StatusNearDuplicate
	if m.ContentHash == canonical.ContentHash {
		status = StatusExactDuplicate
	}
	return Link{
		ID:          m.ID,
		Status:      status,
		DuplicateOf: canonical.ID,
		Distance:    fingerprint.Distance(m.Simhash, canonical.Simhash),
		WordRatio:   fingerprint.Ratio(m.Words, canonical.Words),
	}
}
