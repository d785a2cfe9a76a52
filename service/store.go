package service

import (
	"context"
	"crypto/sha256"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Store keeps articles; repo.Store implements it with PostgreSQL.
//
// Every method returns *Error: KindNotFound when the article does not exist,
// KindUnavailable when the database cannot be reached in time, KindConflict
// when concurrent writers collided (a deadlock, a serialisation failure) and
// the work should be run again.
type Store interface {
	Reader
	EditorialReader
	// InTx runs fn in one READ COMMITTED transaction and commits if fn
	// returns nil; otherwise it rolls back and returns fn's error.
	InTx(ctx context.Context, fn func(Tx) error) error
	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
}

// Reader holds the queries, inside a transaction or outside.
type Reader interface {
	// Article returns the article with this id, or KindNotFound.
	Article(ctx context.Context, id int64) (Article, error)
	// ArticleByKey returns the article with this source and external id, or
	// KindNotFound.
	ArticleByKey(ctx context.Context, source, externalID string) (Article, error)
	// ExactMatches returns the articles whose normalised text hashes to q's
	// content hash, earliest ingested first.
	ExactMatches(ctx context.Context, q ExactQuery) ([]Candidate, error)
	// NearCandidates returns the articles within q.MaxDistance bits of
	// q.Simhash, found through the block indexes, closest first.
	NearCandidates(ctx context.Context, q NearQuery) ([]Candidate, error)
	// ClusterMembers returns the articles of a cluster, its head included,
	// earliest ingested first; at most limit of them, 0 for all.
	ClusterMembers(ctx context.Context, clusterID int64, limit int) ([]Article, error)
	// Dependants returns the articles that link to article id (whose
	// DuplicateOf is id), earliest ingested first.
	Dependants(ctx context.Context, id int64) ([]Article, error)
	// Separated returns the ids of the articles an editor separated from
	// article id: never linked to it again.
	Separated(ctx context.Context, id int64) ([]int64, error)
}

// Tx is a Store's transaction.
type Tx interface {
	Reader
	EditorialReader
	EditorialWriter
	// Lock takes transaction-scoped advisory locks on keys, in the order
	// given, and waits for each.
	Lock(ctx context.Context, keys []LockKey) error
	// TryLock takes a transaction-scoped lock if it is free and reports
	// whether it did, without waiting.
	TryLock(ctx context.Context, key LockKey) (bool, error)
	// Insert stores a new article with its verdict: a.DuplicateOf and
	// a.ClusterID name the article it links to and that article's cluster (0
	// and 0 for an article that heads a cluster of its own). It sets a.ID,
	// a.IngestedAt and a.ClusterID.
	Insert(ctx context.Context, a *Article, body string) error
	// Replace stores new content, fingerprint and verdict for the existing
	// article a.ID, as Insert does, and sets a.IngestedAt and a.ClusterID;
	// KindNotFound if it is gone. No article may link to a.ID any more.
	Replace(ctx context.Context, a *Article, body string) error
	// Relink sets a stored article's verdict and moves it, with every article
	// that links to it directly or through others, to cluster l.ClusterID
	// (its own when 0).
	Relink(ctx context.Context, l Link) error
	// Delete removes an article; KindNotFound if it is gone.
	Delete(ctx context.Context, id int64) error
}

// ExactQuery asks for stored copies of a text.
type ExactQuery struct {
	ContentHash [sha256.Size]byte
	Version     fingerprint.Version
	ExcludeID   int64     // an article not to return (the one being judged), 0 for none
	Before      time.Time // only articles ingested before this; zero for all
	Limit       int
}

// NearQuery asks for the stored fingerprints near one fingerprint.
type NearQuery struct {
	Simhash     uint64
	Version     fingerprint.Version
	MaxDistance int       // 0–3: the block index finds every match up to 3
	From, To    time.Time // published between From and To; both zero for any time
	ExcludeID   int64     // an article not to return, 0 for none
	Before      time.Time // only articles ingested before this; zero for all
	Limit       int       // at most this many, closest first
}

// Link is the verdict of a stored article: the article it links to and the
// cluster it belongs to.
type Link struct {
	ID          int64
	Status      Status
	DuplicateOf int64 // 0 when the article heads its cluster
	ClusterID   int64 // DuplicateOf's cluster; 0 when the article heads its own
	Similarity        // to DuplicateOf
}
