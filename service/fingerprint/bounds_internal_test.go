package fingerprint

import (
	"context"
	"maps"
	"math"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// referenceNormalize is normalizeAny as it was before it streamed: NFKC of
// the whole text at once, then the same mapping rune by rune.
func referenceNormalize(text string) string {
	text = strings.ToValidUTF8(text, " ")
	text = strings.Map(func(r rune) rune {
		if isFormat(r) {
			return -1
		}
		return r
	}, text)
	var b writer
	for _, r := range norm.NFKC.String(text) {
		switch {
		case unicode.IsSpace(r), unicode.IsPunct(r), unicode.IsSymbol(r), unicode.IsControl(r), r == utf8.RuneError:
			b.separate()
		default:
			b.rune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// TestNormalizeAnyStreamsNFKC holds the segment-by-segment NFKC to NFKC of
// the whole text, on every BMP rune between letters (combining marks compose
// across what would be a segment edge if it were cut wrong) and on texts
// that mix scripts.
func TestNormalizeAnyStreamsNFKC(t *testing.T) {
	var all strings.Builder
	for r := rune(0); r <= 0xFFFF; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		all.WriteString("a" + string(r) + "\u0301b ")
	}
	for _, text := range []string{
		all.String(),
		"Ｆｒａｎçａｉｓ ｅ\u0301 가\u1161 ㈜ ﷺ ﬁ ① ｶﾞ ⅷ 中文",
		strings.Repeat("\ufdfa", 1000),
	} {
		got, ok := normalizeAny(text, math.MaxInt)
		if want := referenceNormalize(text); !ok || got != want {
			t.Errorf("normalizeAny differs from NFKC of the whole text for a text of %d bytes", len(text))
		}
	}
}

// TestNormalizeBound checks that a text whose normal form passes the limit
// is refused, whichever path it takes, and that one within it is not.
func TestNormalizeBound(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		limit  int
		wantOK bool
	}{
		{"common path within", strings.Repeat("新闻", 100), 600, true},
		{"common path over", strings.Repeat("新闻", 100), 599, false},
		{"NFKC expansion over", strings.Repeat("\ufdfa", 100), 1000, false},
		{"NFKC expansion within", strings.Repeat("\ufdfa", 10), 1000, true},
	}
	for _, tt := range tests {
		if _, ok := normalize(tt.text, tt.limit); ok != tt.wantOK {
			t.Errorf("%s: normalize(%d bytes, limit %d) ok = %v, want %v", tt.name, len(tt.text), tt.limit, ok, tt.wantOK)
		}
	}
}

// TestChunkedSegmentation checks that cutting the text given to cppjieba at
// spaces changes no word: the counts of the whole novel, segmented in
// chunks of 256 bytes, equal its counts segmented at once.
func TestChunkedSegmentation(t *testing.T) {
	d, novel := dictionaryAndNovel(t)
	text := Normalize(string(novel))
	ctx := context.Background()
	whole, chunked := map[string]float64{}, map[string]float64{}
	nWhole, err := d.countWordsIn(ctx, text, 1, wordRules{allScripts: true}, whole, math.MaxInt)
	if err != nil {
		t.Fatal(err)
	}
	nChunked, err := d.countWordsIn(ctx, text, 1, wordRules{allScripts: true}, chunked, 256)
	if err != nil {
		t.Fatal(err)
	}
	if nWhole != nChunked || !maps.Equal(whole, chunked) {
		t.Errorf("chunks of 256 bytes: %d words, %d distinct; at once: %d words, %d distinct", nChunked, len(chunked), nWhole, len(whole))
	}
	if nWhole < 50_000 {
		t.Errorf("the novel segments into %d words: the test reads the wrong text", nWhole)
	}

	// Between chunks, the deadline is checked.
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := d.countWordsIn(canceled, text, 1, wordRules{}, map[string]float64{}, 256); err != context.Canceled {
		t.Errorf("countWords with a canceled context = %v, want context.Canceled", err)
	}
}

func TestNextChunk(t *testing.T) {
	tests := []struct {
		text string
		max  int
		want string
	}{
		{"ab cd ef", 100, "ab cd ef"},
		{"ab cd ef", 6, "ab cd"},
		{"abcdef", 4, "abcd"},
		{"中文中文", 4, "中"}, // no space: a rune boundary
	}
	for _, tt := range tests {
		if got := nextChunk(tt.text, tt.max); got != tt.want {
			t.Errorf("nextChunk(%q, %d) = %q, want %q", tt.text, tt.max, got, tt.want)
		}
	}
}
