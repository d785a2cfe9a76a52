package service

import (
	"context"
	"time"
)

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

// ClusterRow is a cluster as the list reads it: its head, size, sources and
// statuses.
type ClusterRow struct {
	ID           int64 // the head's id
	Title        string
	Source       string
	ExternalID   string
	PublishedAt  time.Time // the head's
	Size         int
	Sources      []string // distinct, sorted
	Statuses     []Status // distinct, sorted
	LastIngested time.Time
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
