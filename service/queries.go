package service

import (
	"crypto/sha256"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// What the service asks its storage (the interfaces of store.go), and the
// values the answers carry: plain values, which the rules read too.

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

// ArticleKey is the client's key of an article.
type ArticleKey struct {
	Source, ExternalID string
}

// ArticlePosition is where an article stands in the order of ingestion.
type ArticlePosition struct {
	ID         int64
	IngestedAt time.Time
}

// UpgradeQuery asks for the articles an upgrade works through.
type UpgradeQuery struct {
	Version fingerprint.Version
	Unique  bool      // the unique articles of Version ingested before Before; else those of other versions
	Before  time.Time // with Unique
	After   ArticlePosition
	Limit   int
}

// SentenceQuery asks for the stored sentences that match an article's.
type SentenceQuery struct {
	Sentences   []fingerprint.Sentence
	MaxDistance int   // of a sentence simhash, 0–3
	ExcludeID   int64 // an article whose sentences are not returned, 0 for none
	PerSentence int   // at most this many matches for each sentence, 0 for all
}

// Holders counts the stored sentences matching a query sentence: All of
// them (at most SentenceQuery.PerSentence), and SameText, those of them with
// its exact text.
type Holders struct {
	All, SameText int
	// InStory counts the holders in the stories (clusters) that hold
	// storySentences or more of the asking article's sentences, and Stories
	// those stories; both 0 when only counted (SentenceHolders), which
	// does not tell the stories apart.
	InStory, Stories int
}

// SentenceMatch is a stored sentence that matches one of a query's, with
// what the judgement needs of its article.
type SentenceMatch struct {
	Query      int // the query sentence it matches, an index into SentenceQuery.Sentences
	ArticleID  int64
	Position   int
	Runes      int
	TextHash   uint64
	Simhash    uint64
	HasSimhash bool
	// Text is the stored sentence, when it is not the query's exact text.
	Text string

	Version       fingerprint.Version
	PublishedAt   time.Time
	IngestedAt    time.Time
	SentenceRunes int // of the whole article's indexed sentences
	ExternalID    string
	Source, Title string
	ClusterID     int64
	Status        Status
}

// StoredText is a stored article's indexed sentences and the plain text
// they point into (empty when not asked for).
type StoredText struct {
	Sentences []fingerprint.Sentence
	Plain     string
}

// Link is the verdict of a stored article: the article it links to and the
// cluster it belongs to.
type Link struct {
	ID          int64
	Status      Status
	DuplicateOf int64 // 0 when the article heads its cluster
	ClusterID   int64 // DuplicateOf's cluster; 0 or ID when the article heads its own (rules_drift.go)
	Similarity        // to DuplicateOf
}

// sentenceQuery asks the index for the stored sentences matching fp's.
func sentenceQuery(fp fingerprint.Fingerprint, excludeID int64) SentenceQuery {
	return SentenceQuery{
		Sentences:   fp.Sentences,
		MaxDistance: sentenceMaxDistance,
		ExcludeID:   excludeID,
		PerSentence: boilerplateArticles,
	}
}
