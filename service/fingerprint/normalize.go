package fingerprint

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Normalize returns text as the default algorithm reads it: valid UTF-8,
// Unicode NFKC (full-width letters, digits and punctuation become their
// half-width forms), lower case, and every run of white space, punctuation,
// symbols and control characters replaced by one space. Invisible format
// characters (zero-width space and joiners, soft hyphens) are dropped, so a
// word split by one stays whole. The result has no leading or trailing space.
//
// Punctuation becomes a separator because cppjieba breaks sentences only at
// white space, '，' and '。': a repost that swaps '。' for '.' would otherwise
// segment into different words.
func Normalize(text string) string {
	text = strings.ToValidUTF8(text, " ")
	text = norm.NFKC.String(text)

	var b strings.Builder
	b.Grow(len(text))
	pendingSpace := false
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Cf, r):
			continue
		case unicode.IsSpace(r), unicode.IsPunct(r), unicode.IsSymbol(r), unicode.IsControl(r),
			r == unicode.ReplacementChar:
			pendingSpace = b.Len() > 0
			continue
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
