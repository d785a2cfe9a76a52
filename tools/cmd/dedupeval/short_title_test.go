package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestShortTitleQuotesLittle: a headline is quoted whole when short, and cut
// to maxTitleRunes, marked with an ellipsis, when long.
func TestShortTitleQuotesLittle(t *testing.T) {
	short := "今日新闻 短标题"
	if got := shortTitle(short); got != short {
		t.Errorf("shortTitle(%q) = %q, want it whole", short, got)
	}
	long := strings.Repeat("长", 40)
	got := shortTitle(long)
	if n := utf8.RuneCountInString(strings.TrimSuffix(got, "…")); n != maxTitleRunes || !strings.HasSuffix(got, "…") {
		t.Errorf("shortTitle of 40 runes = %q (%d runes before the ellipsis), want %d and an ellipsis", got, n, maxTitleRunes)
	}
	if maxTitleRunes >= 20 {
		t.Errorf("maxTitleRunes = %d: a quoted headline must stay under 20 characters", maxTitleRunes)
	}
}
