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

// joinCluster locks the cluster of the best match and returns its canonical
// article. If the cluster changed hands after the match was read (its
// canonical article deleted or replaced by a concurrent writer), it returns
// ErrConflict and the transaction runs again.
func joinCluster(ctx context.Context, tx Tx, best *Match) (Article, error) {
	if err := tx.Lock(ctx, []LockKey{clusterLock(best.clusterID)}); err != nil {
		return Article{}, err
	}
	m, err := tx.Article(ctx, best.ID)
	switch {
	case errors.Is(err, ErrNotFound):
		return Article{}, &Error{Kind: KindConflict, Message: "the matched article was deleted meanwhile"}
	case err != nil:
		return Article{}, err
	case m.ClusterID != best.clusterID:
		return Article{}, &Error{Kind: KindConflict, Message: "the matched article's cluster changed meanwhile"}
	case m.IsCanonical():
		return m, nil
	}
	return tx.Article(ctx, m.ClusterID)
}

// handOver gives the cluster of canonical article id, which is leaving, to
// its earliest remaining member and relinks the others to that member.
func handOver(ctx context.Context, tx Tx, id int64) error {
	if err := tx.Lock(ctx, []LockKey{clusterLock(id)}); err != nil {
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
