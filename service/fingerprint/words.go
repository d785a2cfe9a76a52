package fingerprint

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Words of every script. cppjieba segments Chinese and keeps runs of ASCII
// letters and digits whole, but cuts every other letter into a word of its
// own: "français" became "fran", "ç", "ais", and a body in Russian, Korean,
// Arabic or Japanese kana had no word at all (single characters do not
// count). News mixes scripts, so VersionNews reads them itself: a run of
// letters that holds a letter beyond ASCII and Han is one word, and in the
// scripts written without spaces between words (kana, Thai, Lao, Khmer,
// Myanmar) each pair of neighbouring letters is one.

// wordRules say which segments count as words, beyond the rules every
// version keeps (no separator, no single rune, no stop word).
type wordRules struct {
	dropNumbers bool // words made only of ASCII digits do not count
	allScripts  bool // runs of letters of other scripts are words
}

// splitScripts returns text with every run of letters that holds a letter
// beyond ASCII and Han replaced by a space, for cppjieba, and those runs'
// words.
func splitScripts(text string) (forJieba string, words []string) {
	if isASCIIOrHan(text) {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	for token := range strings.SplitSeq(text, " ") {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		// A token alternates runs of Han and runs of other letters.
		for token != "" {
			n := hanPrefix(token)
			if n == 0 {
				n = len(token) - len(strings.TrimLeftFunc(token, func(r rune) bool { return !unicode.Is(unicode.Han, r) }))
				if run := token[:n]; !isASCIIOrHan(run) {
					words = append(words, scriptWords(run)...)
					b.WriteByte(' ')
					token = token[n:]
					continue
				}
			}
			b.WriteString(token[:n])
			token = token[n:]
		}
	}
	return b.String(), words
}

// hanPrefix is the length in bytes of the Han characters token starts with.
func hanPrefix(token string) int {
	return len(token) - len(strings.TrimLeftFunc(token, func(r rune) bool { return unicode.Is(unicode.Han, r) }))
}

// isASCIIOrHan reports whether s holds only ASCII and Han characters.
func isASCIIOrHan(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf && !unicode.Is(unicode.Han, r) {
			return false
		}
	}
	return true
}

// unspaced are the scripts written without spaces between words.
var unspaced = []*unicode.RangeTable{unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar}

// scriptWords returns the words of a run of letters with no Han in it: the
// run itself, or, in a script written without spaces, its pairs of
// neighbouring letters.
func scriptWords(run string) []string {
	r, _ := utf8.DecodeRuneInString(run)
	if !unicode.In(r, unspaced...) {
		return []string{run}
	}
	var starts []int
	for i := range run {
		starts = append(starts, i)
	}
	starts = append(starts, len(run))
	if len(starts) <= 3 {
		return []string{run}
	}
	words := make([]string, 0, len(starts)-2)
	for i := 0; i+2 < len(starts); i++ {
		words = append(words, run[starts[i]:starts[i+2]])
	}
	return words
}

// isNumber reports whether a word is made only of ASCII digits.
func isNumber(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}
