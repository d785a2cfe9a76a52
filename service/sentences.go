package service

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Shared sentences. An article's indexed sentences (fingerprint.Sentence)
// are looked up in the sentence index: the stored sentences with the same
// text, and those whose simhash is within sentenceMaxDistance bits,
// confirmed by their text (sentenceConfirm). A sentence that
// boilerplateArticles articles or more hold, the one asking included, is
// boilerplate — a portal's disclaimer, an app promotion, a broadcast
// formula — and links nothing, not even as the text of a near duplicate
// (boilerplate.go).
// What is left says which articles share which sentences: the partial
// duplicates (partial.go) and the multi-viewpoint query (SharedSentences).
const (
	sentenceMaxDistance = 3
	// sentenceConfirm is the share of the shorter sentence's character
	// 5-grams the other must hold when their texts differ: a simhash within
	// 3 bits alone joins unrelated sentences three times in four.
	sentenceConfirm = 0.8
	// boilerplateArticles: a sentence found in this many articles or more
	// (the one asking and the stored ones) is boilerplate, as in the view
	// shared_sentence_pairs. On real news that leaves 42 sentences out of
	// 422,000 and takes the 99th percentile of articles sharing a sentence
	// with one article from 19,860 to 14.
	boilerplateArticles = 20
)

// Coverage says how much two articles' indexed sentences overlap, by their
// length: This is the share of this article's found in that one, That the
// share of that one's found in this.
type Coverage struct {
	This, That float64
}

// SentencePair is a sentence of this article and the sentence of another
// that matches it.
type SentencePair struct {
	Position      int // among this article's indexed sentences
	Text          string
	OtherPosition int
	OtherText     string
	Distance      int // of their simhashes; 0 for the same text
}

// sharedArticle is an article sharing sentences with the one looked up.
type sharedArticle struct {
	match    SentenceMatch // one of its matches, for what is known of the article
	pairs    []SentencePair
	coverage Coverage
}

// searchSentences returns the stored sentences matching fp's (excludeID:
// an article left out), without a statement when fp has none.
func searchSentences(ctx context.Context, r Reader, fp fingerprint.Fingerprint, excludeID int64) ([]SentenceMatch, error) {
	if len(fp.Sentences) == 0 {
		return nil, nil
	}
	return r.SentenceMatches(ctx, sentenceQuery(fp, excludeID))
}

// countHolders counts the stored sentences matching each of fp's
// (excludeID: an article left out), without a statement when fp has none.
func countHolders(ctx context.Context, r Reader, fp fingerprint.Fingerprint, excludeID int64) ([]Holders, error) {
	if len(fp.Sentences) == 0 {
		return nil, nil
	}
	return r.SentenceHolders(ctx, sentenceQuery(fp, excludeID))
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

// linksFrom groups by article the stored sentences found matching fp's, the
// boilerplate left out (a sentence boilerplateArticles articles hold) and
// near-identical sentences confirmed by their text. keep says which matched
// articles count (their version, their time).
func linksFrom(fp fingerprint.Fingerprint, found []SentenceMatch, keep func(SentenceMatch) bool) map[int64]*sharedArticle {
	boilerplate := isBoilerplate(holdersIn(fp, found))
	texts := fingerprint.SentenceTexts(fp.PlainBody, fp.Sentences)

	byArticle := make(map[int64]*sharedArticle)
	matchedThis := make(map[int64]map[int]bool) // article → this article's sentences it matches
	matchedThat := make(map[int64]map[int]int)  // article → its sentences matched, with their length
	for _, m := range found {
		q := fp.Sentences[m.Query]
		if boilerplate[m.Query] || !keep(m) {
			continue
		}
		pair := SentencePair{Position: m.Query, Text: texts[m.Query], OtherPosition: m.Position, OtherText: texts[m.Query]}
		if m.TextHash != q.TextHash {
			if !sameSentence(texts[m.Query], m.Text) {
				continue
			}
			pair.OtherText = m.Text
			pair.Distance = fingerprint.Distance(q.Simhash, m.Simhash)
		}
		sa := byArticle[m.ArticleID]
		if sa == nil {
			sa = &sharedArticle{match: m}
			byArticle[m.ArticleID] = sa
			matchedThis[m.ArticleID] = make(map[int]bool)
			matchedThat[m.ArticleID] = make(map[int]int)
		}
		sa.pairs = append(sa.pairs, pair)
		matchedThis[m.ArticleID][m.Query] = true
		matchedThat[m.ArticleID][m.Position] = m.Runes
	}

	total := sentenceRunes(fp.Sentences)
	for id, sa := range byArticle {
		this, that := 0, 0
		for i := range matchedThis[id] {
			this += fp.Sentences[i].Runes
		}
		for _, runes := range matchedThat[id] {
			that += runes
		}
		sa.coverage = Coverage{This: share(this, total), That: share(that, sa.match.SentenceRunes)}
		slices.SortFunc(sa.pairs, func(a, b SentencePair) int {
			return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.OtherPosition, b.OtherPosition))
		})
	}
	return byArticle
}

// sentenceRunes is the length of sentences together.
func sentenceRunes(sentences []fingerprint.Sentence) int {
	n := 0
	for _, s := range sentences {
		n += s.Runes
	}
	return n
}

func share(part, whole int) float64 {
	if whole <= 0 {
		return 0
	}
	return min(1, float64(part)/float64(whole))
}

// sameSentence reports whether two sentences that differ are near enough to
// be one: the other holds sentenceConfirm of the shorter one's character
// 5-grams.
func sameSentence(a, b string) bool {
	ga, gb := grams(a), grams(b)
	if len(ga) == 0 || len(gb) == 0 {
		return false
	}
	shared := 0
	for g := range ga {
		if gb[g] {
			shared++
		}
	}
	return float64(shared) >= sentenceConfirm*float64(min(len(ga), len(gb)))
}

// grams returns the character 5-grams of a sentence, normalised, spaces
// left out.
func grams(s string) map[string]bool {
	r := []rune(strings.ReplaceAll(fingerprint.Normalize(s), " ", ""))
	out := make(map[string]bool, len(r))
	for i := 0; i+5 <= len(r); i++ {
		out[string(r[i:i+5])] = true
	}
	if len(r) > 0 && len(r) < 5 {
		out[string(r)] = true
	}
	return out
}

// inWindow reports whether t is within opts' window around published.
func inWindow(t, published time.Time, opts Options) bool {
	from, to := window(published, opts)
	return from.IsZero() || (!t.Before(from) && !t.After(to))
}

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

// DefaultSharedOptions list 100 articles from all stored news.
var DefaultSharedOptions = SharedOptions{Limit: 100}

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

// SharedSentences returns, for each sentence of article id that other
// stored articles also hold (near-identically), those articles and their
// sentences, grouped by article, the articles sharing the most first.
// Errors: KindNotFound, KindInvalid for options out of range,
// KindUnavailable.
func (s *Service) SharedSentences(ctx context.Context, id int64, opts SharedOptions) (SharedSentences, error) {
	if err := opts.Validate(); err != nil {
		return SharedSentences{}, err
	}
	a, err := s.store.Article(ctx, id)
	if err != nil {
		return SharedSentences{}, err
	}
	fp, err := storedFingerprint(ctx, s.store, a)
	if err != nil {
		return SharedSentences{}, err
	}
	shared, err := s.sharedSentences(ctx, s.store, fp, a.ID, a.PublishedAt, opts)
	shared.ArticleID = a.ID
	return shared, err
}

// sharedSentences is the multi-viewpoint query for fingerprint fp of an
// article published at published (excludeID: the article itself, if
// stored).
func (s *Service) sharedSentences(ctx context.Context, r Reader, fp fingerprint.Fingerprint, excludeID int64, published time.Time, opts SharedOptions) (SharedSentences, error) {
	found, err := searchSentences(ctx, r, fp, excludeID)
	if err != nil {
		return SharedSentences{}, err
	}
	return sharedSentencesFrom(fp, found, published, opts), nil
}

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

// storedFingerprint is the fingerprint of stored article a with its
// sentences and their text, read from the store.
func storedFingerprint(ctx context.Context, r Reader, a Article) (fingerprint.Fingerprint, error) {
	fp := a.fingerprint()
	var err error
	fp.Sentences, fp.PlainBody, err = r.ArticleText(ctx, a.ID)
	return fp, err
}
