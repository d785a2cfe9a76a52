package service

import (
	"crypto/sha256"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Verdict is the answer about one article.
type Verdict struct {
	ID         int64 // the stored article; 0 for a check, which stores nothing
	ExternalID string
	Source     string
	Status     Status
	// DuplicateOf is the article this one links to: the best of its matches,
	// an article it was compared with. nil when unique.
	DuplicateOf *Reference
	// ClusterID is the cluster the article belongs to (its own id when it
	// heads one); for a check, the cluster it would join: DuplicateOf's,
	// 0 when unique or when it would head its own (rules_drift.go).
	ClusterID int64
	Matches   []Match // verified matches, closest first
	Simhash   uint64
	// Created is true when this request stored a new article or new content,
	// false when the same content was already stored under its key.
	Created bool
	// Candidates is how many stored fingerprints the index query returned.
	Candidates int
	// SharedSentences is what the article shares with stored articles,
	// when a check asked for it; nil otherwise.
	SharedSentences *SharedSentences
	// MissingPartitions, for a check that allowed an incomplete answer
	// (Options.AllowIncomplete), are the sentence partitions it was judged
	// without (check_incomplete.go); nil for a complete verdict.
	MissingPartitions []int
}

// Reference names the article a duplicate links to, and how alike the two
// are.
type Reference struct {
	ID         int64
	ExternalID string
	Similarity
}

// Similarity is how alike an article is to one it was compared with.
type Similarity struct {
	// Distance is the Hamming distance of their fingerprints.
	Distance int
	// WordRatio is their shared-word ratio, |A ∩ B| / min(|A|, |B|) of their
	// word sets: how much vocabulary they share.
	WordRatio float64
	// Overlap is how much text they share, |A ∩ B| / min(|A|, |B|) of their
	// shingles: the share of the shorter one found in the other.
	Overlap float64
	// LongerOverlap is |A ∩ B| / max(|A|, |B|) of their shingles: the share
	// of the longer one found in the other. A near duplicate shares most of
	// both texts (rules_near.go); a digest of three stories, a third of its own.
	LongerOverlap float64
	// Coverage, for a partial duplicate, is how much of each one's indexed
	// sentences the other holds (rules_partial.go); zero otherwise.
	Coverage Coverage
}

// Match is a stored article that the article duplicates. Matches are
// ordered closest first: fewest differing bits, exact copies before near
// duplicates, most shared words, earliest stored.
type Match struct {
	ID          int64
	ExternalID  string
	Source      string
	Title       string
	PublishedAt time.Time
	Similarity

	// What the match was judged against, to check it still holds when the
	// article links to it (lockMatch).
	simhash     uint64
	contentHash [sha256.Size]byte
	clusterID   int64
	exact       bool
	partial     bool      // a match, but not near (rules_near.go)
	ingestedAt  time.Time // zero for an article of the group being stored
}

// decision is the dedup decision before it is stored.
type decision struct {
	status  Status
	best    *Match // the match the article links to; nil when unique
	matches []Match
	// copies are the stored articles sharing sentences with it that copy
	// it in part, seen from their side (laterCopy, rules_lineage.go): those
	// published after it it heads once stored (ingest_promote.go).
	copies []laterCopy
	// later are the articles published after it left out as its partial
	// match (decidePartial, withoutLaterPartials), and the group's articles
	// published after it that copy it: a group holding one is stored one
	// by one, so that this article finds it as its copy.
	later []int64
	// boilerplate are the shingles of its boilerplate sentences by the
	// holders judge counted (nil when it counted none): an article that
	// heads its match's cluster relinks only members that still share
	// enough without them, as each checked its own near match
	// (promotedLink).
	boilerplate fingerprint.ShingleSet
	// boilerplateAt are the indexes of its sentences those shingles come
	// from: once it is stored, the near links a sentence that has just
	// become boilerplate made are judged again (dependants_boilerplate.go).
	boilerplateAt []int
}
