package service

import (
	"cmp"
	"slices"
	"strings"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Shared sentences. An article's indexed sentences (fingerprint.Sentence)
// are looked up in the sentence index: the stored sentences with the same
// text, and those whose simhash is within sentenceMaxDistance bits,
// confirmed by their text (sentenceConfirm). A sentence that
// boilerplateArticles articles or more hold, the one asking included, is
// boilerplate — a portal's disclaimer, an app promotion, a broadcast
// formula — and links nothing, not even as the text of a near duplicate
// (rules_boilerplate.go).
// What is left says which articles share which sentences: the partial
// duplicates (rules_partial.go) and the multi-viewpoint query (SharedSentences).
const (
	sentenceMaxDistance = 3
	// sentenceConfirm is the share of the shorter sentence's character
	// 5-grams the other must hold when their texts differ: a simhash within
	// 3 bits alone joins unrelated sentences three times in four.
	sentenceConfirm = 0.8
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

// grams returns the character 5-grams of a sentence, normalised in one
// script (a Traditional copy confirms its Simplified original), spaces
// left out.
func grams(s string) map[string]bool {
	r := []rune(strings.ReplaceAll(fingerprint.MatchText(s), " ", ""))
	out := make(map[string]bool, len(r))
	for i := 0; i+5 <= len(r); i++ {
		out[string(r[i:i+5])] = true
	}
	if len(r) > 0 && len(r) < 5 {
		out[string(r)] = true
	}
	return out
}
