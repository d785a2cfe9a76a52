package service

import (
	"context"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Store keeps articles; repo.Store implements it with PostgreSQL. It is
// composed of small interfaces, by who needs them: the judge's reads
// (JudgeReader), article reads (ArticleReader), an upgrade's (UpgradeReader,
// UpgradeMarks), the editors' (EditorialReader, editorial_store.go), the
// shared keys (SecretStore) and the editors' sessions (SessionStore,
// sessions.go); writes happen in a transaction (Tx). Each function of the
// service asks for the least it needs.
//
// Every method returns *Error: KindNotFound when the article does not exist,
// KindUnavailable when the database cannot be reached in time, KindConflict
// when concurrent writers collided (a deadlock, a serialisation failure) and
// the work should be run again.
type Store interface {
	Reader
	EditorialReader
	CoverageReader
	SecretStore
	SessionStore
	SearchStore
	OverviewStore
	ListingStore
	SourceStore
	CopyReader
	DecisionLogReader
	UpgradeMarks
	// InTx runs fn in one READ COMMITTED transaction and commits if fn
	// returns nil; otherwise it rolls back and returns fn's error.
	InTx(ctx context.Context, fn func(Tx) error) error
	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
	// LockTableSize returns how many locks the server can hold at once,
	// all sessions together (max_locks_per_transaction × (max_connections
	// + max_prepared_transactions)).
	LockTableSize(ctx context.Context) (int, error)
}

// Reader holds the queries, inside a transaction or outside.
type Reader interface {
	JudgeReader
	ArticleReader
	UpgradeReader
	VersionStore
}

// JudgeReader holds what judging an article reads: its stored copies and
// near candidates, the sentence index, the candidates a partial duplicate
// may link to, and the editors' separations.
type JudgeReader interface {
	// ExactMatches returns, for each query, the articles whose normalised
	// text hashes to its content hash, earliest ingested first. The queries
	// share the first one's Version, ExcludeID, Before and Limit.
	ExactMatches(ctx context.Context, qs []ExactQuery) ([][]Candidate, error)
	// NearCandidates returns, for each query, the articles within its
	// MaxDistance bits of its Simhash, found through the block indexes,
	// closest first. The queries share the first one's Version, ExcludeID
	// and Before.
	NearCandidates(ctx context.Context, qs []NearQuery) ([][]Candidate, error)
	// CopiesAndCandidates returns what ExactMatches and NearCandidates
	// return for one article's two queries, asked together.
	CopiesAndCandidates(ctx context.Context, eq ExactQuery, nq NearQuery) (exact, near []Candidate, err error)
	// Candidates returns the stored articles with these ids, in any order;
	// an id that names no article is left out.
	Candidates(ctx context.Context, ids []int64) ([]Candidate, error)
	// SentenceMatches returns the stored sentences that match q's sentences
	// (the same text, or a simhash within q.MaxDistance bits found through
	// the sentence block indexes), at most q.PerSentence for each.
	SentenceMatches(ctx context.Context, q SentenceQuery) ([]SentenceMatch, error)
	// SentenceHolders counts, for each of q's sentences in order, the
	// stored sentences SentenceMatches would return for it, and reads none
	// of their articles.
	SentenceHolders(ctx context.Context, q SentenceQuery) ([]Holders, error)
	// Separated returns the ids of the articles an editor separated from
	// article id: never linked to it again.
	Separated(ctx context.Context, id int64) ([]int64, error)
}

// ArticleReader reads stored articles, their texts, clusters and
// dependants.
type ArticleReader interface {
	// Article returns the article with this id, or KindNotFound.
	Article(ctx context.Context, id int64) (Article, error)
	// ArticleByKey returns the article with this source and external id, or
	// KindNotFound.
	ArticleByKey(ctx context.Context, source, externalID string) (Article, error)
	// ArticlesByKeys returns the stored articles with these keys, in any
	// order; a key that names none is left out.
	ArticlesByKeys(ctx context.Context, keys []ArticleKey) ([]Article, error)
	// ClusterMembers returns the articles of a cluster, its head included,
	// earliest ingested first; at most limit of them, 0 for all.
	ClusterMembers(ctx context.Context, clusterID int64, limit int) ([]Article, error)
	// ClusterOriginals returns the original of each of clusters ids that
	// exists (rules_original.go's member, as the view cluster_original
	// names it; for a lone article, the article), by cluster id.
	ClusterOriginals(ctx context.Context, ids []int64) (map[int64]ClusterOriginal, error)
	// Dependants returns the articles that link to article id (whose
	// DuplicateOf is id), earliest ingested first.
	Dependants(ctx context.Context, id int64) ([]Article, error)
	// ArticleText returns the indexed sentences of article id and the plain
	// text they point into, or KindNotFound.
	ArticleText(ctx context.Context, id int64) ([]fingerprint.Sentence, string, error)
	// ArticleTexts returns, for each of articles ids that exists, its
	// indexed sentences and, when plain, the plain text they point into,
	// as ArticleText does for one, in one statement each.
	ArticleTexts(ctx context.Context, ids []int64, plain bool) (map[int64]StoredText, error)
	// Body returns the body of article id as it was sent, or KindNotFound.
	Body(ctx context.Context, id int64) (string, error)
	// SeparatedPairs returns the pairs an editor separated that hold one
	// of articles ids.
	SeparatedPairs(ctx context.Context, ids []int64) ([][2]int64, error)
}

// UpgradeReader lists the articles an upgrade works through.
type UpgradeReader interface {
	// Upgrade lists up to q.Limit articles after q.After (by ingested_at,
	// then id), earliest first: with q.Unique, the unique articles of
	// version q.Version ingested before q.Before; otherwise the articles of
	// any other version.
	Upgrade(ctx context.Context, q UpgradeQuery) ([]ArticlePosition, error)
	// CountOutdated returns how many articles have a fingerprint version
	// other than v.
	CountOutdated(ctx context.Context, v fingerprint.Version) (int64, error)
}

// UpgradeMarks say how far an upgrade's judging again has gone.
type UpgradeMarks interface {
	// RejudgeHorizon returns a time before which every stored article is
	// of version v and every article ingested is visible: the database's
	// clock once the writes under way when it was read have ended, or the
	// time the earliest article of another version was ingested, whichever
	// is earlier.
	RejudgeHorizon(ctx context.Context, v fingerprint.Version) (time.Time, error)
	// RejudgeMark returns how far the unique articles of version v have
	// been judged again (MarkRejudged). The first time, it records a mark
	// just before the earliest stored article of version v, or at the
	// database's clock when there is none.
	RejudgeMark(ctx context.Context, v fingerprint.Version) (ArticlePosition, error)
	// MarkRejudged records that the unique articles of version v up to
	// position p have been judged again; a mark never moves back.
	MarkRejudged(ctx context.Context, v fingerprint.Version, p ArticlePosition) error
}

// Tx is a Store's transaction: the reads, the locks and the writes.
type Tx interface {
	Reader
	EditorialReader
	EditorialWriter
	SplitUndoWriter
	Locker
	ArticleWriter
	CreditWriter
}

// Locker takes a transaction's advisory locks (ingest_locks.go).
type Locker interface {
	// Lock takes transaction-scoped advisory locks on keys, in the order
	// given, and waits for each.
	Lock(ctx context.Context, keys []LockKey) error
	// TryLock takes a transaction-scoped lock if it is free and reports
	// whether it did, without waiting.
	TryLock(ctx context.Context, key LockKey) (bool, error)
}

// ArticleWriter writes articles and their links, in a transaction.
type ArticleWriter interface {
	// NextIDs reserves n article ids, ascending, for InsertMany.
	NextIDs(ctx context.Context, n int) ([]int64, error)
	// InsertMany stores new articles whose ids NextIDs reserved, with their
	// verdicts and sentences, in their order (each ingested after the one
	// before, so that one may link to an earlier one of the same call).
	InsertMany(ctx context.Context, as []*Article, bodies []string) error
	// Insert stores a new article with its verdict and its sentences:
	// a.DuplicateOf and a.ClusterID name the article it links to and that
	// article's cluster (0 and 0 for an article that heads a cluster of its
	// own). It sets a.ID, a.IngestedAt and a.ClusterID.
	Insert(ctx context.Context, a *Article, body string) error
	// Replace stores new content, fingerprint, sentences and verdict for the
	// existing article a.ID, as Insert does, and sets a.IngestedAt and
	// a.ClusterID; KindNotFound if it is gone. No article may link to a.ID
	// any more.
	Replace(ctx context.Context, a *Article, body string) error
	// Correct stores new content, fingerprint, sentences and verdict for
	// the existing article a.ID, as Replace does, but keeps the time it was
	// ingested, its place before the articles ingested after it; it sets
	// a.IngestedAt and a.ClusterID. KindNotFound if it is gone. The
	// articles that link to a.ID keep their links.
	Correct(ctx context.Context, a *Article, body string) error
	// Refingerprint stores article a.ID's new fingerprint, sentences and
	// verdict, with its body as it is, the time it was ingested unchanged,
	// and sets a.ClusterID.
	Refingerprint(ctx context.Context, a *Article, body string) error
	// Relink sets a stored article's verdict and moves it, with every article
	// that links to it directly or through others, to cluster l.ClusterID
	// (its own when 0).
	Relink(ctx context.Context, l Link) error
	// RelinkMany sets the verdicts of stored articles, as Relink sets one,
	// in a bounded number of statements however many: each moves to
	// cluster l.ClusterID (its own when it links to none), or when it
	// links to an article and l.ClusterID is 0, to the cluster its links
	// lead to once all are set; and with each whose cluster changed, every
	// article that links to it directly or through others. KindNotFound if
	// one is gone.
	RelinkMany(ctx context.Context, ls []Link) error
	// Delete removes an article; KindNotFound if it is gone.
	Delete(ctx context.Context, id int64) error
}
