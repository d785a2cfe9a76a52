package service

import (
	"cmp"
	"slices"
	"strings"
)

// Span is a part of a text: the bytes [Start, End).
type Span struct {
	Start, End int
}

// KeywordSpans returns where words occur in text: sorted, and merged where
// they overlap or touch, so that each shared run of text is one span. Words
// are found as the fingerprint counted them: lower-case, so ASCII letters
// match regardless of case. (When the sentence index lands, the spans of
// the shared sentences take the place of these.)
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
