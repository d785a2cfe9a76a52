package fingerprint

import (
	"strings"
	"testing"
)

func TestCoreLines(t *testing.T) {
	long := strings.Repeat("国家统计局今天发布了最新的全国经济运行数据。", 3) // 66 runes
	tests := []struct {
		name, body, want string
	}{
		{"no short line", long + "\n" + long, long + "\n" + long},
		{"a byline and an editor's line", "新华社北京11月4日电\n" + long + "\n" + long + "\n责任编辑：张三", long + "\n" + long},
		{"three at most at each end", "a\nb\nc\nd\n" + long + "\n" + long + "\n" + long + "\nw\nx\ny\nz", "d\n" + long + "\n" + long + "\n" + long + "\nw"},
		{"blank lines do not count", "来源：某某网\n\n\n" + long + "\n\n" + long, long + "\n" + long},
		{"not when it leaves less than half", "短讯一\n短讯二\n" + "国家统计局今天发布数据。", "短讯一\n短讯二\n" + "国家统计局今天发布数据。"},
		{"a line of invisible characters is short", "\u200b\u200b\n" + long + "\n" + long, long + "\n" + long},
	}
	for _, tt := range tests {
		start, end := coreSpan(tt.body, false)
		if got := withoutBlankLines(tt.body[start:end]); got != tt.want {
			t.Errorf("%s: coreSpan(%q, false) = %q, want %q", tt.name, tt.body, got, tt.want)
		}
	}
}

func TestShingles(t *testing.T) {
	a := ShinglesOf(Normalize(strings.Repeat("国家统计局今天发布了最新的全国经济运行数据，", 2) + "消费和投资都在增长，出口放缓。"))
	if len(a) == 0 {
		t.Fatal("no shingles for a sentence of 40 characters")
	}
	if !isSortedUnique(a) {
		t.Errorf("ShinglesOf is not sorted and unique: %v", a)
	}
	// Sampling by hash: the shingles of a text's first half are a subset of
	// the whole text's.
	whole := Normalize("国家统计局今天发布了最新的全国经济运行数据，消费和投资都在增长，出口放缓，进口增加，物价平稳。")
	half := Normalize("国家统计局今天发布了最新的全国经济运行数据，消费和投资都在增长，")
	sw, sh := ShinglesOf(whole), ShinglesOf(half)
	if in, _ := Coverage(sh, sw); in != 1 || len(sh) == 0 {
		t.Errorf("the first half's shingles: %d, %v of them in the whole text's; want all", len(sh), in)
	}
	if aIn, bIn := Coverage(a, a); aIn != 1 || bIn != 1 {
		t.Errorf("Coverage(a, a) = %v, %v; want 1, 1", aIn, bIn)
	}
	if aIn, bIn := Coverage(a, nil); aIn != 0 || bIn != 0 {
		t.Errorf("Coverage(a, nil) = %v, %v; want 0, 0", aIn, bIn)
	}
	if got := ShinglesOf("新闻"); len(got) > 1 {
		t.Errorf("a text shorter than a shingle has %d shingles, want at most 1", len(got))
	}
}

func isSortedUnique(s ShingleSet) bool {
	for i := 1; i < len(s); i++ {
		if s[i] <= s[i-1] {
			return false
		}
	}
	return true
}

func withoutBlankLines(s string) string {
	var kept []string
	for l := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(l) != "" {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}
