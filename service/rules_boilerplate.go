package service

import (
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Boilerplate in the article verdict. A page whose scraped body is only a
// portal's slogan, or a scraper's link line, is a near duplicate of every
// other such page by its fingerprint and its shingles: the same short text,
// distance 0, overlap 1. The sentence index knows that text for what it is,
// a sentence boilerplateArticles articles hold, so a near match is checked
// against it: the shingles of the article's boilerplate sentences are taken
// out of both sides and the overlap counted again; a candidate that no
// longer shares opts.MinOverlap of what is left (or has nothing left) is no
// near duplicate. The check only takes links away: a candidate must pass
// decide as before, and its verdict reports the overlap decide counted.
// Exact copies are not checked — the same text is the same article.
//
// It costs one sentence search for an article that has a near match (the
// one the partial-duplicate step would make; judge shares it). A service
// without the sentence index (WithoutSentenceIndex) indexes no sentence of
// the article, so it cannot tell boilerplate and judges as decide alone
// does.

// boilerplateArticles: a sentence found in this many articles or more
// (the one asking and the stored ones) is boilerplate, as in the view
// shared_sentence_pairs. On real news that leaves 42 sentences out of
// 422,000 and takes the 99th percentile of articles sharing a sentence
// with one article from 19,860 to 14.
const boilerplateArticles = 20

// A story's own sentences are not boilerplate, however often it is copied.
// Counting holders alone, a story copied 20 times made its sentences
// boilerplate, and its partial copies — an excerpt, an expansion, a copy
// with sentences dropped — stopped being found: the stories copied most
// were traced worst. A sentence whose holders lie mostly (half or more) in
// fewer than storyClusters stories that each hold storySentences or more
// of the asking article's sentences is the story's, not boilerplate; a
// slogan's holders share nothing else with the article, and a portal's
// footer is held across many stories.
const (
	storySentences = 3
	storyClusters  = 5
)

// holdersIn counts, for each of fp's indexed sentences, its holders among
// found, the stored sentences matching them.
func holdersIn(fp fingerprint.Fingerprint, found []SentenceMatch) []Holders {
	out := make([]Holders, len(fp.Sentences))
	held := make(map[int64]map[int]bool) // story → the query sentences it holds
	for _, m := range found {
		out[m.Query].All++
		if m.TextHash == fp.Sentences[m.Query].TextHash {
			out[m.Query].SameText++
		}
		s := storyOf(m)
		if held[s] == nil {
			held[s] = make(map[int]bool)
		}
		held[s][m.Query] = true
	}
	stories := make([]map[int64]bool, len(out))
	for _, m := range found {
		if s := storyOf(m); len(held[s]) >= storySentences {
			out[m.Query].InStory++
			if stories[m.Query] == nil {
				stories[m.Query] = make(map[int64]bool)
			}
			stories[m.Query][s] = true
		}
	}
	for i := range out {
		out[i].Stories = len(stories[i])
	}
	return out
}

// storyOf is the story (cluster) of a match's article.
func storyOf(m SentenceMatch) int64 {
	if m.ClusterID != 0 {
		return m.ClusterID
	}
	return m.ArticleID
}

// isBoilerplate reports, for each indexed sentence of an article, whether
// it is boilerplate, given its holders: the article asking and the stored
// sentences matching it, every spelling counted, reach
// boilerplateArticles.
func isBoilerplate(holders []Holders) []bool {
	out := make([]bool, len(holders))
	for i, h := range holders {
		out[i] = boilerplateHolders(h.All) && !storySentence(h)
	}
	return out
}

// storySentence reports whether a sentence's holders show it to be a
// story's own: half of them or more in fewer than storyClusters stories
// that share storySentences of the asking article's sentences.
func storySentence(h Holders) bool {
	return h.Stories > 0 && h.Stories < storyClusters && 2*h.InStory >= h.All
}

// boilerplateHolders reports whether a sentence that n stored sentences
// match is boilerplate: the article asking holds it too.
func boilerplateHolders(n int) bool {
	return n+1 >= boilerplateArticles
}

// needsBoilerplateCheck reports whether d links fp to a near duplicate that
// boilerplate may explain: d's best match is no exact copy, and fp has
// indexed sentences to look up.
func needsBoilerplateCheck(fp fingerprint.Fingerprint, d decision) bool {
	return d.best != nil && !d.best.exact && len(fp.Sentences) > 0
}

// boilerplateShingles are the shingles of fp's boilerplate sentences (by
// their holders), as fp.Shingles counts them (each sentence normalised,
// spaces left out); nil when it has none.
func boilerplateShingles(fp fingerprint.Fingerprint, holders []Holders) fingerprint.ShingleSet {
	boilerplate := isBoilerplate(holders)
	if !slices.Contains(boilerplate, true) {
		return nil
	}
	var out fingerprint.ShingleSet
	for i, text := range fingerprint.SentenceTexts(fp.PlainBody, fp.Sentences) {
		if boilerplate[i] {
			out = append(out, fingerprint.ShinglesOf(fingerprint.NormalizeFor(fp.Version, text))...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// boilerplateSentences are the indexes of the boilerplate sentences among
// those holders counts the holders of.
func boilerplateSentences(holders []Holders) []int {
	var out []int
	for i, b := range isBoilerplate(holders) {
		if b {
			out = append(out, i)
		}
	}
	return out
}

// Links made before a sentence was boilerplate. A sentence becomes
// boilerplate when its boilerplateArticles-th holder is stored; the links
// its first holders made on it were checked while it was not,
// and which holders those are depends on the order they arrived in (in
// publication order the first published, in reverse the last). Once an
// article holding it is stored while it has fewer than boilerplateWindow
// holders, those links are measured again without it
// (dependants_boilerplate.go). The window, not the exact count, because a
// batch may store several holders at once; past it, the links were
// measured when it was crossed.
const boilerplateWindow = 2 * boilerplateArticles

// justBoilerplate reports whether a boilerplate sentence with n holders
// (every one stored, the asking article among them) became boilerplate
// recently enough for the links made on it to be measured again.
func justBoilerplate(n int) bool {
	return boilerplateHolders(n-1) && n < boilerplateWindow
}

// sharesWithout reports whether two shingle sets still share
// opts.MinOverlap of their text once the shingles boilerplate are taken out
// of both; not when either has nothing left.
func sharesWithout(own, theirs, boilerplate fingerprint.ShingleSet, opts Options) bool {
	own, theirs = own.Without(boilerplate), theirs.Without(boilerplate)
	aInB, bInA := fingerprint.Coverage(own, theirs)
	return len(own) > 0 && len(theirs) > 0 && max(aInB, bInA) >= opts.MinOverlap
}

// restsOnBoilerplate reports whether the link of stored article a, to an
// article with shingles theirs, rested on a sentence of a's that has just
// become boilerplate, whose shingles (with the rest of the boilerplate of
// the article that found it so) are boilerplate: a near or partial
// duplicate that no longer shares enough without them — a partial one
// only when its match holds the sentence too (targetHolds). Judging again
// every link whose match holds the sentence moved links of a story copied
// a thousand times (docs/reporting.md, "Who copied whom").
func restsOnBoilerplate(a Article, theirs fingerprint.ShingleSet, targetHolds bool, boilerplate fingerprint.ShingleSet, opts Options) bool {
	switch a.Status {
	case StatusNearDuplicate:
		return !sharesWithout(a.Shingles, theirs, boilerplate, opts)
	case StatusPartialDuplicate:
		return targetHolds && !sharesWithout(a.Shingles, theirs, boilerplate, opts)
	}
	return false
}

// withoutBoilerplate returns the near candidates that still share
// opts.MinOverlap of their text with fp once the shingles boilerplate are
// taken out of both; a candidate is left out when either side has nothing
// left.
func withoutBoilerplate(fp fingerprint.Fingerprint, near []Candidate, boilerplate fingerprint.ShingleSet, opts Options) []Candidate {
	if len(boilerplate) == 0 {
		return near
	}
	var out []Candidate
	for _, c := range near {
		if sharesWithout(fp.Shingles, c.Shingles, boilerplate, opts) {
			out = append(out, c)
		}
	}
	return out
}

// redecide is decide again, for the d decide gave, once the near
// candidates that only fp's boilerplate sentences (by their holders in the
// sentence index) join to it are left out; d itself when fp has no
// boilerplate sentence.
func redecide(fp fingerprint.Fingerprint, d decision, exact, near []Candidate, holders []Holders, opts Options) decision {
	boilerplate := boilerplateShingles(fp, holders)
	if len(boilerplate) == 0 {
		return d
	}
	return decide(fp, exact, withoutBoilerplate(fp, near, boilerplate, opts), opts)
}
