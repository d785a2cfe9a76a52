package fingerprint

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// One script for matching. Hong Kong and Taiwan outlets republish mainland
// wire stories in Traditional script (OpenCC's s2t, s2twp, s2hk), and such a
// copy shared almost no 5-gram with its original. VersionOneScript folds
// Traditional characters, Taiwan and Hong Kong variants and phrasing to
// Simplified, in one pass over the normalised text, longest phrase first,
// with a table generated from OpenCC's dictionaries (scriptfold_table.go,
// tools/cmd/scriptfold). It folds only what is matched — words, shingles,
// sentences; the text stored and shown stays as sent. The libraries that
// convert with OpenCC's whole configuration were slower by several times
// (docs/measurements.md).
//
// The same pass joins what a copier splits with invisible or spacing
// characters: every default-ignorable code point (variation selectors, the
// combining grapheme joiner, Hangul fillers, tags, format characters) is
// dropped, and white space between two Han or kana characters is dropped,
// where no reader sees a word break.

var (
	foldChars map[rune]rune
	// foldPhrases maps a phrase to its fold; foldPhraseLen, the first two
	// runes of the phrases to the most runes of one, so that a position
	// whose two runes start no phrase costs one look-up.
	foldPhrases   map[string]string
	foldPhraseLen map[[2]rune]int
	// foldStarts marks the runes of the Basic Multilingual Plane that start
	// a phrase or fold: most runes of most text do neither, and a bit
	// costs less than a map look-up.
	foldStarts bmpSet
)

type bmpSet [0x10000 / 64]uint64

func (s *bmpSet) add(r rune) {
	if r < 0x10000 {
		s[r>>6] |= 1 << (r & 63)
	}
}

// has reports whether r is in the set; every rune beyond the plane is.
func (s *bmpSet) has(r rune) bool { return r >= 0x10000 || s[r>>6]&(1<<(r&63)) != 0 }

func init() {
	foldChars = make(map[rune]rune, utf8.RuneCountInString(foldCharPairs)/2)
	for s := foldCharPairs; s != ""; {
		k, n := utf8.DecodeRuneInString(s)
		v, m := utf8.DecodeRuneInString(s[n:])
		foldChars[k] = v
		foldStarts.add(k)
		s = s[n+m:]
	}
	foldPhrases = make(map[string]string)
	foldPhraseLen = make(map[[2]rune]int)
	for line := range strings.SplitSeq(foldPhraseList, "\n") {
		k, v, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		foldPhrases[k] = v
		rs := []rune(k)
		key := [2]rune{rs[0], rs[1]}
		foldPhraseLen[key] = max(foldPhraseLen[key], len(rs))
		foldStarts.add(rs[0])
	}
}

// foldScript returns normalised text with Traditional script folded to
// Simplified. It allocates only when something folds.
func foldScript(text string) string {
	var b strings.Builder
	at := 0 // text[:at] is written to b, once b is used
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r < 0x3400 || !foldStarts.has(r) {
			i += n
			continue
		}
		if r2, n2 := utf8.DecodeRuneInString(text[i+n:]); n2 > 0 {
			if most := foldPhraseLen[[2]rune{r, r2}]; most > 0 {
				if end, v := longestPhrase(text[i:], most); end > 0 {
					b.WriteString(text[at:i])
					b.WriteString(v)
					i += end
					at = i
					continue
				}
			}
		}
		if v, ok := foldChars[r]; ok {
			if b.Len() == 0 {
				b.Grow(len(text))
			}
			b.WriteString(text[at:i])
			b.WriteRune(v)
			at = i + n
		}
		i += n
	}
	if at == 0 {
		return text
	}
	b.WriteString(text[at:])
	return b.String()
}

// longestPhrase returns the byte length and the fold of the longest phrase,
// of at most most runes, that s starts with; 0 when none.
func longestPhrase(s string, most int) (int, string) {
	ends := make([]int, 0, 16)
	for i := range s {
		if i > 0 {
			ends = append(ends, i)
		}
		if len(ends) == most {
			break
		}
	}
	if len(ends) < most {
		ends = append(ends, len(s))
	}
	for k := len(ends) - 1; k >= 1; k-- { // two runes or more
		if v, ok := foldPhrases[s[:ends[k]]]; ok {
			return ends[k], v
		}
	}
	return 0, ""
}

// isIgnorable reports whether r is a default-ignorable code point or a
// variation selector: invisible, and dropped before matching.
func isIgnorable(r rune) bool {
	if r < 0xAD || (r >= 0x2070 && r < 0x3164) || (r > 0x3164 && r < 0xFE00) {
		return false // spares the table look-ups for ASCII and CJK text
	}
	return isFormat(r) || unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || r == 0x115F || r == 0x1160 || r == 0x3164 || r == 0xFFA0
}

// unsplit drops from plain text the default-ignorable code points and the
// white space (other than line breaks) between two Han or kana
// characters. It returns text itself when there is nothing to drop.
func unsplit(text string) string {
	var b strings.Builder
	at := 0
	prev := rune(-1) // the last rune kept that is not white space
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r < utf8.RuneSelf && r != ' ' && r != '\t' {
			prev = r
			i += n
			continue
		}
		drop := 0
		switch {
		case isIgnorable(r):
			drop = n
		case r != '\n' && r != '\r' && unicode.IsSpace(r) && isUnspaced(prev):
			// A run of spaces (and invisibles) between two Han characters.
			j := i
			for j < len(text) {
				q, m := utf8.DecodeRuneInString(text[j:])
				if q == '\n' || q == '\r' || !(unicode.IsSpace(q) || isIgnorable(q)) {
					break
				}
				j += m
			}
			if next, _ := utf8.DecodeRuneInString(text[j:]); isUnspaced(next) {
				drop = j - i
			}
		}
		if drop == 0 {
			if !unicode.IsSpace(r) {
				prev = r
			}
			i += n
			continue
		}
		if b.Len() == 0 && at == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[at:i])
		i += drop
		at = i
	}
	if at == 0 {
		return text
	}
	b.WriteString(text[at:])
	return b.String()
}

// isUnspaced reports whether r is of a script written without spaces
// between words: Han, Hiragana, Katakana.
func isUnspaced(r rune) bool {
	if r >= 0x4E00 && r <= 0x9FFF {
		return true
	}
	return r >= 0x3040 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}

// MatchText is text normalised (Normalize) as VersionOneScript matches it:
// invisible and spacing characters dropped, folded to one script.
func MatchText(text string) string { return foldScript(Normalize(unsplit(text))) }

// NormalizeFor is text normalised as fingerprints of version v read it
// for their shingles: MatchText for VersionOneScript, Normalize before.
func NormalizeFor(v Version, text string) string {
	if v == VersionOneScript {
		return MatchText(text)
	}
	return Normalize(text)
}
