package service

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Span is a part of a text: the bytes [Start, End).
type Span struct {
	Start, End int
}

// KeywordSpans returns where words occur in text: sorted, and merged where
// they overlap or touch, so that each shared run of text is one span. Words
// are found as the fingerprint counted them: lower-case, so ASCII letters
// match regardless of case. They mark what two articles share when they
// share no indexed sentence (SentenceSpans).
func KeywordSpans(text string, words []string) []Span {
	folded := asciiLower(text) // the same bytes at the same offsets
	var spans []Span
	for _, w := range words {
		if w == "" {
			continue
		}
		for from := 0; from < len(folded); {
			i := strings.Index(folded[from:], w)
			if i < 0 {
				break
			}
			start := from + i
			spans = append(spans, Span{Start: start, End: start + len(w)})
			from = start + len(w)
		}
	}
	return mergeSpans(spans)
}

// SentenceSpans returns where two texts' shared sentences are: the indexed
// sentences of a (whose text is aText) that b holds too, and those of b
// that a holds, each as byte spans of its text. Sentences are shared as the
// sentence index shares them: the same text, or near-identical ones (a
// simhash within sentenceMaxDistance bits, confirmed by their 5-grams).
func SentenceSpans(aText string, a []fingerprint.Sentence, bText string, b []fingerprint.Sentence) (aSpans, bSpans []Span) {
	aTexts, bTexts := fingerprint.SentenceTexts(aText, a), fingerprint.SentenceTexts(bText, b)
	aShared, bShared := make([]bool, len(a)), make([]bool, len(b))
	for i, x := range a {
		for j, y := range b {
			if x.TextHash == y.TextHash ||
				(x.HasSimhash && y.HasSimhash && fingerprint.Distance(x.Simhash, y.Simhash) <= sentenceMaxDistance && sameSentence(aTexts[i], bTexts[j])) {
				aShared[i], bShared[j] = true, true
			}
		}
	}
	return sentenceSpans(aText, a, aShared), sentenceSpans(bText, b, bShared)
}

// sentenceSpans turns the chosen sentences' character offsets into byte
// spans of text.
func sentenceSpans(text string, sentences []fingerprint.Sentence, chosen []bool) []Span {
	var spans []Span
	offsets := runeOffsets(text)
	for i, s := range sentences {
		if chosen[i] && s.Start < s.End && s.End < len(offsets) {
			spans = append(spans, Span{Start: offsets[s.Start], End: offsets[s.End]})
		}
	}
	return mergeSpans(spans)
}

// runeOffsets returns the byte offset of every rune of text, and len(text)
// after the last.
func runeOffsets(text string) []int {
	out := make([]int, 0, utf8.RuneCountInString(text)+1)
	for i := range text {
		out = append(out, i)
	}
	return append(out, len(text))
}

// mergeSpans sorts spans and merges those that overlap or touch.
func mergeSpans(spans []Span) []Span {
	slices.SortFunc(spans, func(a, b Span) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End)) })
	var out []Span
	for _, s := range spans {
		if n := len(out); n > 0 && s.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, s.End)
			continue
		}
		out = append(out, s)
	}
	return out
}

// asciiLower lower-cases the ASCII letters of s and leaves every other
// byte as it is.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
