package service

import (
	"cmp"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Verdict is the answer about one article.
type Verdict struct {
	ID          int64 // the stored article; 0 for a check, which stores nothing
	ExternalID  string
	Source      string
	Status      Status
	DuplicateOf *Reference // the cluster's canonical article; nil when unique
	Matches     []Match    // verified matches, closest first
	Simhash     uint64
	// Created is true when this request stored a new article or new content,
	// false when the same content was already stored under its key.
	Created bool
	// Candidates is how many stored fingerprints the index query returned.
	Candidates int
}

// Reference names the canonical article of a duplicate, with the distance
// and shared-word ratio between the two.
type Reference struct {
	ID         int64
	ExternalID string
	Distance   int
	WordRatio  float64
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
	Distance    int
	WordRatio   float64
	clusterID   int64
	exact       bool
}

// decision is the dedup decision before it is stored.
type decision struct {
	status  Status
	best    *Match // the match whose cluster the article joins; nil when unique
	matches []Match
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// decide judges a fingerprint against the stored articles with the same text
// (exact) and the index's candidates (near). A candidate is a near duplicate
// when it is within opts.MaxDistance bits and shares at least
// opts.MinWordRatio of the words. An exact duplicate joins the cluster of the
// earliest stored copy; a near duplicate joins the cluster of its closest
// match (fewest differing bits, then most shared words, then the earliest).
func decide(fp fingerprint.Fingerprint, exact, near []Candidate, opts Options) decision {
	seen := make(map[int64]bool, len(exact)+len(near))
	var matches []Match
	for _, c := range exact {
		seen[c.ID] = true
		matches = append(matches, newMatch(fp, c, true))
	}
	for _, c := range near {
		if seen[c.ID] {
			continue
		}
		m := newMatch(fp, c, false)
		if m.Distance <= opts.MaxDistance && m.WordRatio >= opts.MinWordRatio {
			matches = append(matches, m)
		}
	}
	slices.SortFunc(matches, func(a, b Match) int {
		return cmp.Or(
			cmp.Compare(a.Distance, b.Distance),
			-compareBool(a.exact, b.exact),
			-cmp.Compare(a.WordRatio, b.WordRatio),
			cmp.Compare(a.ID, b.ID),
		)
	})

	d := decision{status: StatusUnique, matches: matches}
	for i := range matches {
		m := &matches[i]
		switch {
		case m.exact && (d.status != StatusExactDuplicate || m.ID < d.best.ID):
			d.status, d.best = StatusExactDuplicate, m
		case d.best == nil:
			d.status, d.best = StatusNearDuplicate, m
		}
	}
	if len(d.matches) > opts.Limit {
		d.matches = d.matches[:opts.Limit]
	}
	return d
}

func newMatch(fp fingerprint.Fingerprint, c Candidate, exact bool) Match {
	return Match{
		ID:          c.ID,
		ExternalID:  c.ExternalID,
		Source:      c.Source,
		Title:       c.Title,
		PublishedAt: c.PublishedAt,
		Distance:    fingerprint.Distance(fp.Simhash, c.Simhash),
		WordRatio:   fingerprint.Ratio(fp.Words, c.Words),
		clusterID:   c.ClusterID,
		exact:       exact,
	}
}
