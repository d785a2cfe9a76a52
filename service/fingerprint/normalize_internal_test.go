package fingerprint

import (
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// normalizeCommon must give what normalizeAny gives, whenever it accepts a
// text.
func checkPathsAgree(t *testing.T, text string) {
	t.Helper()
	got, ok := normalizeCommon(text)
	if !ok {
		return
	}
	if want, _ := normalizeAny(text, math.MaxInt); got != want {
		t.Errorf("normalizeCommon(%+q) = %+q, normalizeAny = %+q", text, got, want)
	}
}

func TestNormalizeCommonAgreesWithAny(t *testing.T) {
	// Every rune the common path accepts, one at a time and between letters.
	var accepted int
	for r := rune(0); r <= 0xFFFF; r++ {
		s := string(r)
		if _, ok := normalizeCommon(s); !ok {
			continue
		}
		accepted++
		checkPathsAgree(t, s)
		checkPathsAgree(t, "a"+s+"b")
		checkPathsAgree(t, "中"+s+"文")
	}
	if accepted < 20_000 {
		t.Errorf("the common path accepts only %d runes: it is not doing its job", accepted)
	}

	// Random strings over a pool mixing accepted runes and others.
	pool := []rune("aZ09 .,!?\t\n\x00中文鸿渐，。、《》「」“”‘’…—　ＡＺａｚ０９！？\u200b\u00ad\u2060é\u0301Ω\U0001F600\uFFFD")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20_000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteRune(pool[rng.IntN(len(pool))])
		}
		checkPathsAgree(t, b.String())
	}
	checkPathsAgree(t, "ok\xffbad\xc3")

	// The whole novel, line by line.
	novel, err := os.ReadFile(novelPathForTest())
	if err != nil {
		t.Fatal(err)
	}
	common := 0
	for _, line := range strings.Split(string(novel), "\n") {
		if _, ok := normalizeCommon(line); ok {
			common++
		}
		checkPathsAgree(t, line)
	}
	t.Logf("%d of the novel's lines take the common path", common)
}

func FuzzNormalizePaths(f *testing.F) {
	for _, s := range []string{"", "中文，。", "ＡＢＣ１２３", "a\u200bb", "e\u0301", "\xff", "“引号”…——"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkPathsAgree(t, s)
		if out := Normalize(s); !utf8.ValidString(out) {
			t.Errorf("Normalize(%+q) = %+q is not valid UTF-8", s, out)
		}
	})
}

// TestIsFormat holds the fast path of isFormat to the Unicode table.
func TestIsFormat(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := isFormat(r), r >= 0xAD && unicode.Is(unicode.Cf, r); got != want {
			t.Errorf("isFormat(%U) = %v, want %v", r, got, want)
		}
	}
}
