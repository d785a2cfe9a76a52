package fingerprint

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
)

// Sentences. The sentence index (the design's second use) finds the
// sentences articles share: partial copies and different views of one
// topic. What is indexed was chosen on real news (docs/design-notes.md,
// "Sentences with a simhash"):
//
//   - a body splits on its plain text, before normalisation, at 。！？!?；;｡,
//     line breaks, and '.'/'．' unless between digits, so that swapped
//     full-/half-width punctuation splits the same way;
//   - a sentence is indexed once, when its normalised text without spaces
//     has MinSentenceRunes characters or more (shorter ones link unrelated
//     stories; at 10 the index holds 98 % of a body's characters);
//   - its exact hash is xxhash64 of that text; its simhash folds its
//     content words (jieba's parts of speech) by TF-IDF, and a sentence
//     with fewer than minSentenceWords of them or under minSimhashRunes
//     characters has none: it is found by its exact hash alone;
//   - at most MaxSentences of a body (the first): a real article has 12 at
//     the median, 83 at the 99th percentile.
const (
	MinSentenceRunes = 10
	minSentenceWords = 4
	minSimhashRunes  = 20
	MaxSentences     = 256
)

// Sentence is one indexed sentence of a body.
type Sentence struct {
	// Start and End are the offsets of the sentence in the body's plain
	// text (the visible text, for HTML), its delimiter included, in
	// characters (runes), as PostgreSQL's substring counts.
	Start, End int
	// Runes is the length of its normalised text without spaces: its weight
	// when the share of a text found elsewhere is counted.
	Runes int
	// TextHash is the xxhash64 of its normalised text without spaces.
	TextHash uint64
	// Simhash folds its content words; HasSimhash is false when it has fewer
	// than minSentenceWords of them.
	Simhash    uint64
	HasSimhash bool
}

// sentencesOf returns the indexed sentences among a body's pieces, in
// order: those of MinSentenceRunes characters or more, each text once, at
// most MaxSentences; none when skip is set.
func (d *Dictionary) sentencesOf(pieces []piece, skip bool) []Sentence {
	if skip {
		return nil
	}
	var out []Sentence
	seen := make(map[uint64]bool)
	var scratch simhashScratch
	for _, p := range pieces {
		if len(out) == MaxSentences {
			break
		}
		if p.credit {
			continue
		}
		compact := strings.ReplaceAll(p.normal, " ", "")
		runes := utf8.RuneCountInString(compact)
		if runes < MinSentenceRunes {
			continue
		}
		h := xxhash.Sum64String(compact)
		if seen[h] {
			continue
		}
		seen[h] = true
		s := Sentence{Start: p.startRune, End: p.endRune, Runes: runes, TextHash: h}
		if runes >= minSimhashRunes {
			s.Simhash, s.HasSimhash = d.sentenceSimhash(p.words, &scratch)
		}
		out = append(out, s)
	}
	return out
}

// Text returns the sentence in the plain text it was found in.
func (s Sentence) Text(plain string) string {
	return runeSlice(plain, s.Start, s.End)
}

// SentenceTexts returns the texts of sentences, in order of their start,
// found in the plain text in one pass over it.
func SentenceTexts(plain string, sentences []Sentence) []string {
	out := make([]string, len(sentences))
	i, b := 0, 0 // rune i starts at byte b
	for k, s := range sentences {
		if s.Start < i { // out of order: look again from the start
			i, b = 0, 0
		}
		for i < s.Start && b < len(plain) {
			_, size := utf8.DecodeRuneInString(plain[b:])
			i, b = i+1, b+size
		}
		start := b
		for i < s.End && b < len(plain) {
			_, size := utf8.DecodeRuneInString(plain[b:])
			i, b = i+1, b+size
		}
		out[k] = plain[start:b]
	}
	return out
}

// runeSlice returns the runes from start to end (exclusive) of s.
func runeSlice(s string, start, end int) string {
	from, to, i := len(s), len(s), 0
	for b := range s {
		if i == start {
			from = b
		}
		if i == end {
			to = b
			break
		}
		i++
	}
	return s[min(from, to):to]
}

// sentenceSpans yields the byte offsets of the sentences of plain text;
// with quotes, a colon before a quotation ends one too, so that the
// quotation is a sentence of its own (credits.go).
func sentenceSpans(plain string, quotes bool) func(yield func(start, end int) bool) {
	return func(yield func(start, end int) bool) {
		start := 0
		prev := rune(-1)
		for i, r := range plain {
			size := utf8.RuneLen(r)
			end := false
			switch r {
			case '。', '！', '？', '!', '?', '；', ';', '｡', '\n', '\r':
				end = true
			case '.', '．':
				next, _ := utf8.DecodeRuneInString(plain[i+size:])
				end = !(isDigit(prev) && isDigit(next))
			case '：', ':':
				end = quotes && quoteAfterColon(plain[i+size:])
			}
			prev = r
			if end {
				if !yield(start, i+size) {
					return
				}
				start = i + size
			}
		}
		if start < len(plain) {
			yield(start, len(plain))
		}
	}
}

func isDigit(r rune) bool { return (r >= '0' && r <= '9') || (r >= '０' && r <= '９') }

// sentenceSimhash folds the content words of a sentence's tagged words,
// each distinct word weighted by its count times its IDF, in the order of
// the words (float addition is not associative). It sorts the content
// words and counts each run of one word, where two maps, one for the
// counts and one for the IDFs, were made for every sentence
// (TestSentenceSimhashUnchanged holds the two ways to each other).
// BenchmarkFingerprint, in turn three times: 467–517 µs and 247
// allocations a fingerprint against 484–542 µs and 269. It makes no word
// set for a sentence (nothing read one): 234 allocations and 111.8 KB a
// fingerprint against 247 and 114.1 KB, the time within the noise
// (448–466 µs against 431–502).
func (d *Dictionary) sentenceSimhash(tagged []taggedWord, scratch *simhashScratch) (uint64, bool) {
	content := scratch.content[:0]
	for _, t := range tagged {
		if t.content {
			content = append(content, t)
		}
	}
	slices.SortStableFunc(content, func(a, b taggedWord) int { return strings.Compare(a.word, b.word) })
	weighted := scratch.weighted[:0]
	for i := 0; i < len(content); {
		j := i + 1
		for j < len(content) && content[j].word == content[i].word {
			j++
		}
		weighted = append(weighted, weightedWord{hash: xxhash.Sum64String(content[i].word), weight: float64(j-i) * content[j-1].idf})
		i = j
	}
	scratch.content, scratch.weighted = content, weighted
	if len(weighted) < minSentenceWords {
		return 0, false
	}
	return fold(weighted), true
}

// simhashScratch is sentenceSimhash's working memory, kept from one
// sentence of an article to the next.
type simhashScratch struct {
	content  []taggedWord
	weighted []weightedWord
}

// contentPOS reports whether a jieba part-of-speech tag marks a word that
// carries content: nouns, verbs, adjectives (n*, v*, a*), foreign words
// (eng), idioms (i), fixed phrases (l), abbreviations (j), numerals (m) and
// times (t).
func contentPOS(pos string) bool {
	switch pos {
	case "eng", "i", "l", "j", "m", "t":
		return true
	}
	return strings.HasPrefix(pos, "n") || strings.HasPrefix(pos, "v") || strings.HasPrefix(pos, "a")
}
