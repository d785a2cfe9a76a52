package service

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// What changed between two texts, for an editor: the insertions and
// deletions that turn one into the other (sergi/go-diff, Myers' algorithm
// with its semantic cleanup), and a summary of them (summary.go).
//
// The unit of the diff is a token: a run of letters or digits of an
// alphabetic script (an English word, a number) or any other single
// character (a Chinese character, a punctuation mark). Chinese is diffed by
// characters: after the cleanup the changes fall on words and sentences
// anyway, and no segmenter is needed to show them.

// DiffKind says whether a run of a diff is in both texts, only in the
// second (inserted) or only in the first (deleted).
type DiffKind int8

// The kinds of run of a diff.
const (
	DiffEqual DiffKind = iota
	DiffInsert
	DiffDelete
)

// DiffRun is a run of text of a diff.
type DiffRun struct {
	Kind DiffKind
	Text string
}

// diffTimeout bounds the search for the shortest diff of two long texts
// that share little: past it the diff stays correct but may be longer than
// the shortest one.
const diffTimeout = 150 * time.Millisecond

// Diff returns the runs that turn from into to: the runs that are not
// DiffInsert spell from, those not DiffDelete spell to.
func Diff(from, to string) []DiffRun {
	if from == to {
		if from == "" {
			return nil
		}
		return []DiffRun{{Kind: DiffEqual, Text: from}}
	}
	tokens := tokenTable{index: map[string]rune{}}
	a, b := tokens.encode(from), tokens.encode(to)
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	diffs := dmp.DiffMainRunes(a, b, false)
	diffs = dmp.DiffCleanupSemantic(diffs)
	out := make([]DiffRun, 0, len(diffs))
	for _, d := range diffs {
		text := tokens.decode(d.Text)
		if text == "" {
			continue
		}
		kind := DiffEqual
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			kind = DiffInsert
		case diffmatchpatch.DiffDelete:
			kind = DiffDelete
		}
		if n := len(out); n > 0 && out[n-1].Kind == kind {
			out[n-1].Text += text
			continue
		}
		out = append(out, DiffRun{Kind: kind, Text: text})
	}
	return out
}

// tokenTable maps each token of the texts diffed to a character of
// Unicode's supplementary private use area, so that the diff compares
// tokens as characters; decode maps them back.
type tokenTable struct {
	index  map[string]rune
	tokens []string
}

// firstToken is the first character tokens are mapped to (plane 15, private
// use: 65,534 characters, and plane 16's after it).
const firstToken = 0xF0000

func (t *tokenTable) encode(text string) []rune {
	var out []rune
	for len(text) > 0 {
		n := tokenLength(text)
		tok := text[:n]
		r, ok := t.index[tok]
		if !ok {
			r = rune(firstToken + len(t.tokens))
			if r > unicode.MaxRune {
				r = unicode.ReplacementChar // beyond 131,068 distinct tokens: an unlikely text, diffed coarsely
			} else {
				t.index[tok] = r
				t.tokens = append(t.tokens, tok)
			}
		}
		out = append(out, r)
		text = text[n:]
	}
	return out
}

func (t *tokenTable) decode(s string) string {
	var b strings.Builder
	for _, r := range s {
		if i := int(r) - firstToken; i >= 0 && i < len(t.tokens) {
			b.WriteString(t.tokens[i])
		}
	}
	return b.String()
}

// tokenLength is the length in bytes of text's first token: a run of
// letters and digits outside the Han script, or one character.
func tokenLength(text string) int {
	n := 0
	for n < len(text) {
		r, size := utf8.DecodeRuneInString(text[n:])
		if !wordRune(r) {
			break
		}
		n += size
	}
	if n == 0 {
		_, n = utf8.DecodeRuneInString(text)
	}
	return n
}

func wordRune(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !unicode.Is(unicode.Han, r) &&
		!unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
