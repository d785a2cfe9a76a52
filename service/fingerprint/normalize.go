package fingerprint

import (
	"errors"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

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
	out, _ := normalize(text, math.MaxInt)
	return out
}

// MaxNormalizedBytes bounds a normalised title or body. NFKC expands some
// characters many times over (U+FDFA, one character of three bytes, becomes
// eighteen), so a text within any request limit could still ask for far
// more memory and segmenting than its size suggests: a text whose normal
// form is longer is refused with ErrTooLong, before it is segmented, and
// normalising it stops as soon as the bound is passed.
const MaxNormalizedBytes = 4 << 20

// ErrTooLong is returned for a text longer than MaxNormalizedBytes once
// normalised, as a *TooLongError that names the part.
var ErrTooLong = errors.New("longer than 4 MiB once normalised (Unicode NFKC expands some characters many times over)")

// TooLongError says which part of a document, "title" or "body", is longer
// than MaxNormalizedBytes once normalised. It matches ErrTooLong.
type TooLongError struct{ Part string }

func (e *TooLongError) Error() string { return e.Part + ": " + ErrTooLong.Error() }

func (e *TooLongError) Is(target error) bool { return target == ErrTooLong }

// normalize is Normalize, giving up with ok false as soon as the result
// would be longer than limit bytes.
func normalize(text string, limit int) (out string, ok bool) {
	if out, ok := normalizeCommon(text); ok {
		return out, len(out) <= limit
	}
	return normalizeAny(text, limit)
}

// normalizeAny is Normalize for any text: the general path. It normalises
// one segment at a time (norm.Iter), so that it holds at most limit bytes of
// output however much NFKC expands the input.
func normalizeAny(text string, limit int) (string, bool) {
	text = strings.ToValidUTF8(text, " ")
	if strings.IndexFunc(text, isFormat) >= 0 {
		// Before NFKC, so that a format character between a letter and a
		// combining mark does not keep them from composing.
		text = strings.Map(func(r rune) rune {
			if isFormat(r) {
				return -1
			}
			return r
		}, text)
	}

	var b writer
	b.Grow(min(len(text), limit))
	var it norm.Iter
	it.InitString(norm.NFKC, text)
	for !it.Done() {
		seg := it.Next()
		for len(seg) > 0 {
			r, size := utf8.DecodeRune(seg)
			seg = seg[size:]
			switch {
			case unicode.IsSpace(r), unicode.IsPunct(r), unicode.IsSymbol(r), unicode.IsControl(r),
				r == utf8.RuneError:
				b.separate()
			default:
				b.rune(unicode.ToLower(r))
			}
		}
		if b.Len() > limit {
			return "", false
		}
	}
	return b.String(), true
}

// normalizeCommon is Normalize for the runes that make up almost all Chinese
// news — ASCII, CJK ideographs, full-width ASCII, CJK and general
// punctuation — for which NFKC's effect is known without its tables: it
// changes nothing, maps full-width ASCII to ASCII, and turns some
// punctuation into other punctuation, which is a separator either way. It
// reports false, having done nothing useful, when text holds any other rune.
// TestNormalizeCommonAgreesWithAny and the fuzz target hold it to normalizeAny.
func normalizeCommon(text string) (string, bool) {
	var b writer
	b.Grow(len(text))
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			b.ascii(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3400 && r <= 0x4DBF: // CJK unified ideographs
			b.rune(r)
		case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII: NFKC maps it to ASCII
			b.ascii(byte(r - 0xFEE0))
		case r >= 0x2000 && r <= 0x206F && r != 0x2017 && r != 0x203E && r != 0x2065:
			// General punctuation: spaces, dashes, quotes, format characters.
			// Not ‗ and ‾, which NFKC makes a space and a combining mark, nor
			// the unassigned U+2065.
			if !isFormat(r) {
				b.separate()
			}
		case r == utf8.RuneError, commonCJKPunctuation(r):
			b.separate()
		default:
			return "", false
		}
	}
	return b.String(), true
}

// commonCJKPunctuation reports whether r is one of the CJK punctuation
// marks NFKC leaves alone: 、。〈〉《》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟 and the
// ideographic space (which NFKC makes a space: a separator either way).
func commonCJKPunctuation(r rune) bool {
	return r == 0x3000 || r == 0x3001 || r == 0x3002 || (r >= 0x3008 && r <= 0x3011) || (r >= 0x3014 && r <= 0x301F)
}

// isFormat reports whether r is an invisible format character (category Cf).
// Between U+2070 and U+FEFE no character is, which spares the table look-up
// for CJK text.
func isFormat(r rune) bool {
	return r >= 0xAD && (r < 0x2070 || r >= 0xFEFF) && unicode.Is(unicode.Cf, r)
}

// asciiClass maps an ASCII byte to what Normalize writes for it: the byte
// itself for a digit or lower-case letter, its lower case for an upper-case
// letter, 0 for everything else (a separator).
var asciiClass = func() (t [utf8.RuneSelf]byte) {
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c] = c
		t[c-'a'+'A'] = c
	}
	return t
}()

// writer builds normalised text: words separated by single spaces, with no
// leading or trailing space.
type writer struct {
	strings.Builder
	pendingSpace bool
}

func (w *writer) separate() { w.pendingSpace = w.Len() > 0 }

func (w *writer) ascii(c byte) {
	if l := asciiClass[c]; l != 0 {
		w.space()
		w.WriteByte(l)
		return
	}
	w.separate()
}

func (w *writer) rune(r rune) {
	w.space()
	w.WriteRune(r)
}

func (w *writer) space() {
	if w.pendingSpace {
		w.WriteByte(' ')
		w.pendingSpace = false
	}
}
