package service

import (
	"cmp"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// SharedArticle is an article that shares sentences with another, and
// which.
type SharedArticle struct {
	ID          int64
	ExternalID  string
	Source      string
	Title       string
	PublishedAt time.Time
	Status      Status
	ClusterID   int64
	Coverage    Coverage
	Pairs       []SentencePair // the sentences shared, in this article's order
}

// SharedSentences is what an article's sentences have in common with the
// stored articles: the multi-viewpoint query.
type SharedSentences struct {
	ArticleID int64 // 0 for a check
	Sentences int   // its indexed sentences
	Articles  []SharedArticle
}

// SharedOptions bound the multi-viewpoint query.
type SharedOptions struct {
	// Window limits the articles to those published within this long of
	// the article; 0 means all stored news.
	Window time.Duration
	// Limit is the most articles listed, 1–MaxLimit; those sharing the most
	// of the article's sentences come first.
	Limit int
}

// Validate reports the first option out of range, naming it as the API does.
func (o SharedOptions) Validate() error {
	switch {
	case o.Window < 0:
		return Invalid("window_hours", "must not be negative")
	case o.Window > maxWindowHours*time.Hour:
		return Invalid("window_hours", "must be at most %d", maxWindowHours)
	case o.Limit < 1 || o.Limit > MaxLimit:
		return Invalid("limit", "must be between 1 and %d, not %d", MaxLimit, o.Limit)
	}
	return nil
}

// DefaultSharedOptions list 100 articles from all stored news.
var DefaultSharedOptions = SharedOptions{Limit: 100}

// sharedSentencesFrom is the multi-viewpoint answer for fp from found, the
// sentence index's matches of its sentences.
func sharedSentencesFrom(fp fingerprint.Fingerprint, found []SentenceMatch, published time.Time, opts SharedOptions) SharedSentences {
	links := linksFrom(fp, found, func(m SentenceMatch) bool {
		return m.Version == fp.Version && inWindow(m.PublishedAt, published, Options{Window: opts.Window})
	})
	out := SharedSentences{Sentences: len(fp.Sentences), Articles: make([]SharedArticle, 0, len(links))}
	for id, sa := range links {
		m := sa.match
		out.Articles = append(out.Articles, SharedArticle{
			ID: id, ExternalID: m.ExternalID, Source: m.Source, Title: m.Title, PublishedAt: m.PublishedAt,
			Status: m.Status, ClusterID: m.ClusterID, Coverage: sa.coverage, Pairs: sa.pairs,
		})
	}
	slices.SortFunc(out.Articles, func(a, b SharedArticle) int {
		return cmp.Or(-cmp.Compare(a.Coverage.This, b.Coverage.This), -cmp.Compare(len(a.Pairs), len(b.Pairs)), cmp.Compare(a.ID, b.ID))
	})
	out.Articles = out.Articles[:min(len(out.Articles), opts.Limit)]
	return out
}
