package service

import (
	"context"
	"crypto/sha256"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Store keeps articles; repo.Store implements it with PostgreSQL. It is
// composed of small interfaces, by who needs them: the judge's reads
// (JudgeReader), article reads (ArticleReader), an upgrade's (UpgradeReader,
// UpgradeMarks), the editors' (EditorialReader, store.go), the
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
	TimelineReader
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
	// ArticleTextHead is ArticleText bounded: the first runes characters
	// of the plain text, whether it is longer, and the sentences within
	// them, reading no more of the text than that.
	ArticleTextHead(ctx context.Context, id int64, runes int) ([]fingerprint.Sentence, string, bool, error)
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

// Locker takes a transaction's advisory locks (locks.go).
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

// EditorialReader holds the queries of the editors' decisions, inside a
// transaction or outside. Its methods return *Error as Store's do.
type EditorialReader interface {
	// Members returns the members of the cluster headed by clusterID, its
	// head included, earliest ingested first, with their text lengths and
	// the editors' choices on them; at most limit of them, 0 for all.
	Members(ctx context.Context, clusterID int64, limit int) ([]Member, error)
	// KeepCandidates returns every member of the clusters headed by
	// clusterIDs as the keep rule reads them, by cluster, earliest ingested
	// first within each.
	KeepCandidates(ctx context.Context, clusterIDs []int64) ([]KeepCandidate, error)
	// Subtree returns article id and every article whose links lead to it,
	// directly or through others.
	Subtree(ctx context.Context, id int64) ([]int64, error)
	// Decisions returns the decisions made in cluster clusterID or about
	// one of articleIDs, latest first, at most limit of them.
	Decisions(ctx context.Context, clusterID int64, articleIDs []int64, limit int) ([]Decision, error)
	// ListClusters returns the clusters of two or more articles that q
	// asks for, newest first (by their heads' publication, then id), at
	// most q.Limit of them.
	ListClusters(ctx context.Context, q ClusterQuery) ([]ClusterRow, error)
	// Bodies returns the stored bodies of the articles ids that exist.
	Bodies(ctx context.Context, ids []int64) (map[int64]string, error)
	// BodyHeads returns the first runes characters of the stored bodies of
	// the articles ids that exist, each saying whether it is longer,
	// reading no more of a body than that (a cluster's page, issue 44).
	BodyHeads(ctx context.Context, ids []int64, runes int) (map[int64]BodyHead, error)
	// Member returns article id as Members reads it (its shingles cut
	// when long, its stored text length), without the editors' choice;
	// KindNotFound if there is none.
	Member(ctx context.Context, id int64) (Member, error)
}

// SecretStore keeps the keys every instance of the service on one database
// shares.
type SecretStore interface {
	// Secret returns the secret stored under name, storing fresh first when
	// there is none: every caller gets the one stored first.
	Secret(ctx context.Context, name string, fresh []byte) ([]byte, error)
}

// EditorialWriter records the editors' decisions, in a transaction.
type EditorialWriter interface {
	// RecordDecision stores a decision and sets its ID and DecidedAt.
	RecordDecision(ctx context.Context, d *Decision) error
	// Separate stores pairs of articles as separated by decision
	// decisionID; a pair already separated keeps its first decision. It
	// returns how many pairs were new.
	Separate(ctx context.Context, pairs [][2]int64, decisionID int64) (int, error)
	// SetKept withdraws the editors' choices on the members of the cluster
	// headed by clusterID and, unless articleID is 0, keeps articleID by
	// decision decisionID.
	SetKept(ctx context.Context, clusterID, articleID, decisionID int64) error
	// RecordKeepPolicy records the keep rule the service runs with, for the
	// reporting views.
	RecordKeepPolicy(ctx context.Context, sources []string, tolerancePercent int) error
}

// CoverageReader reads what the list of clusters needs to count each
// cluster's other coverage in a fixed number of statements a page (with
// ArticleReader.ArticleTexts).
type CoverageReader interface {
	// CountedTexts returns, of each article ids names, its first
	// maxSentences indexed sentences and, when its plain text is at most
	// maxTextBytes long, that text ("" when longer): a long text's length is
	// read from its row, the text never.
	CountedTexts(ctx context.Context, ids []int64, maxSentences, maxTextBytes int) (map[int64]StoredText, error)
	// SentenceMatchesOf returns, for each of qs in order, what
	// SentenceMatches returns for it; the queries share qs[0]'s MaxDistance
	// and PerSentence. A matched sentence's text (SentenceMatch.Text, for
	// sentences that differ) is read only from articles whose plain text is
	// at most maxTextBytes long (any when maxTextBytes <= 0).
	SentenceMatchesOf(ctx context.Context, qs []SentenceQuery, maxTextBytes int) ([][]SentenceMatch, error)
}

// SplitUndoWriter is what undoing a split needs of a transaction.
type SplitUndoWriter interface {
	// DecisionByID returns decision id; KindNotFound when there is none.
	DecisionByID(ctx context.Context, id int64) (Decision, error)
	// Unseparate removes the pairs decision decisionID separated and
	// returns them.
	Unseparate(ctx context.Context, decisionID int64) ([][2]int64, error)
}

// ListingStore counts the list of clusters.
type ListingStore interface {
	// CountClusters counts the clusters of two or more articles that q's
	// filters match (its order, cursor and limit aside), and their
	// members; when upTo > 0, at most upTo clusters (More set should more
	// match, without the members).
	CountClusters(ctx context.Context, q ClusterQuery, upTo int) (ClusterTotal, error)
}

// OverviewStore counts what was published when.
type OverviewStore interface {
	// CountDuplicates counts the duplicates (every verdict but unique)
	// published from bounds[0] to bounds[len(bounds)-1] (excluded), by the
	// bucket between two neighbouring bounds, source and verdict; bounds
	// ascend. Empty buckets are left out.
	CountDuplicates(ctx context.Context, bounds []time.Time) ([]DuplicateBucket, error)
	// CountPublished counts the articles published from from to to
	// (excluded), and the clusters of two or more whose head was.
	CountPublished(ctx context.Context, from, to time.Time) (articles, clusters int, err error)
	// CountOwnCopies counts, by source, the duplicates published from
	// from to to (excluded) that link to an article of a source of the
	// same owner.
	CountOwnCopies(ctx context.Context, from, to time.Time) (map[string]int, error)
}

// SearchStore finds articles by what an editor knows of them.
type SearchStore interface {
	// SearchArticles returns the articles terms names by id, key, external
	// id or URL, then, when terms.Words, at most limit articles whose
	// headline holds every word of terms.Text, newest first (by
	// publication, then id). An article is returned once, with the first
	// way it matched.
	SearchArticles(ctx context.Context, terms SearchTerms, limit int) ([]SearchHit, error)
	// Sources returns the sources of stored articles that begin with
	// prefix, compared without case, sorted; at most limit of them.
	Sources(ctx context.Context, prefix string, limit int) ([]string, error)
}

// SessionStore keeps the editors' sessions under the SHA-256 digests of
// their tokens.
type SessionStore interface {
	// StartSession stores s under digest, to end after lifetime, sets its
	// Started and Expires, and deletes the sessions that have ended (last
	// seen longer than idle ago, or past their end).
	// It then ends s.Editor's oldest sessions beyond limits.PerEditor and
	// everyone's beyond limits.Total.
	StartSession(ctx context.Context, digest [sha256.Size]byte, s Session, limits SessionLimits) (Session, error)
	// Session returns the session stored under digest and marks it seen
	// now; KindNotFound when there is none, it was last seen longer than
	// idle ago, or it is past its end.
	Session(ctx context.Context, digest [sha256.Size]byte, idle time.Duration) (Session, error)
	// EndSession deletes the session stored under digest, if any.
	EndSession(ctx context.Context, digest [sha256.Size]byte) error
}

// CopyReader reads the copies report.
type CopyReader interface {
	// EachCopy calls fn with each copy q asks for, latest published first,
	// at most limit of them; fn's error stops it.
	EachCopy(ctx context.Context, q CopiesQuery, limit int, fn func(Copy) error) error
	// CountCopies counts the copies q asks for, by copying source.
	CountCopies(ctx context.Context, q CopiesQuery) ([]CopyCount, error)
}

// DecisionLogReader reads the decisions log across clusters.
type DecisionLogReader interface {
	// DecisionLog calls fn with each decision q asks for, latest first,
	// at most limit.
	DecisionLog(ctx context.Context, q DecisionQuery, limit int, fn func(Decision) error) error
}

// CreditWriter reads and stores copies' credits, in a transaction.
type CreditWriter interface {
	// CreditTexts returns the source, headline and plain text of each of
	// articles ids that exists.
	CreditTexts(ctx context.Context, ids []int64) (map[int64]CreditText, error)
	// SetCredits stores each article's credit ("" for none).
	SetCredits(ctx context.Context, cs []ArticleCredit) error
}

// SourceStore keeps the sources table.
type SourceStore interface {
	// KnownSources returns the sources table.
	KnownSources(ctx context.Context) ([]SourceInfo, error)
	// ReplaceSources makes the known sources exactly these.
	ReplaceSources(ctx context.Context, sources []SourceInfo) error
}

// TimelineReader counts a cluster's members by hour and source.
type TimelineReader interface {
	// ClusterTimeline returns how many members of the cluster headed by
	// clusterID each source published in each hour (UTC-aligned), by
	// hour then source, at most limit counts; none when no cluster.
	ClusterTimeline(ctx context.Context, clusterID int64, limit int) ([]TimelineCount, error)
}

// VersionStore reads an article's earlier contents.
type VersionStore interface {
	// ArticleVersions returns the latest limit earlier contents of
	// article id, earliest first.
	ArticleVersions(ctx context.Context, id int64, limit int) ([]StoredVersion, error)
}
