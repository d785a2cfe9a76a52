package fingerprint_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// FuzzFingerprint feeds arbitrary bytes, as text and as HTML, to both
// algorithms and to Normalize and HTMLText. Nothing may panic; Normalize
// gives valid UTF-8 with single spaces between words; a fingerprint is either
// ErrNoWords or one whose word set matches its keywords. The seed corpus is
// in testdata/fuzz/FuzzFingerprint.
func FuzzFingerprint(f *testing.F) {
	f.Add("标题", "正文。")
	weighted := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	yanyiwu := fingerprint.NewYanyiwu(dict, fingerprint.DefaultYanyiwuTopN)
	f.Fuzz(func(t *testing.T, title, body string) {
		for _, s := range []string{title, body, fingerprint.HTMLText(title), fingerprint.HTMLText(body)} {
			checkNormalized(t, s, fingerprint.Normalize(s))
		}
		for _, html := range []bool{false, true} {
			doc := fingerprint.Document{Title: title, Body: body, HTML: html}

			fp, err := weighted.Fingerprint(context.Background(), doc)
			switch {
			case errors.Is(err, fingerprint.ErrNoWords):
			case err != nil:
				t.Fatalf("Weighted.Fingerprint(html %v) = %v, want nil or ErrNoWords", html, err)
			default:
				distinct := make(map[string]bool)
				for _, k := range fp.Keywords {
					distinct[k.Word] = true
					if k.Weight <= 0 || !utf8.ValidString(k.Word) {
						t.Errorf("Weighted keyword %q weighs %v", k.Word, k.Weight)
					}
				}
				if len(fp.Keywords) == 0 || len(fp.Words) != len(distinct) {
					t.Errorf("Weighted (html %v): %d Words, %d distinct Keywords; want equal and not 0", html, len(fp.Words), len(distinct))
				}
			}

			fp, err = yanyiwu.Fingerprint(context.Background(), doc)
			switch {
			case errors.Is(err, fingerprint.ErrNoWords):
			case err != nil:
				t.Fatalf("Yanyiwu.Fingerprint(html %v) = %v, want nil or ErrNoWords", html, err)
			default:
				if n := len(fp.Keywords); n == 0 || n > fingerprint.DefaultYanyiwuTopN || len(fp.Words) > n {
					t.Errorf("Yanyiwu (html %v): %d Keywords, %d Words", html, n, len(fp.Words))
				}
			}
		}
	})
}

// checkNormalized fails the test unless out, Normalize's output for in, is
// valid UTF-8 of words separated by single spaces.
func checkNormalized(t *testing.T, in, out string) {
	t.Helper()
	switch {
	case !utf8.ValidString(out):
		t.Errorf("Normalize(%q) = %q, not valid UTF-8", in, out)
	case strings.HasPrefix(out, " ") || strings.HasSuffix(out, " ") || strings.Contains(out, "  "):
		t.Errorf("Normalize(%q) = %q: a leading, trailing or double space", in, out)
	case strings.ContainsFunc(out, func(r rune) bool { return r != ' ' && (unicode.IsSpace(r) || unicode.IsControl(r)) }):
		t.Errorf("Normalize(%q) = %q holds white space other than ' ', or a control character", in, out)
	}
}
