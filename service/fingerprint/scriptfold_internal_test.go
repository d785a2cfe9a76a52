package fingerprint

import (
	"strings"
	"testing"
)

// TestFoldScript folds Traditional, Taiwan and Hong Kong forms to
// Simplified, phrases first, and leaves Simplified text as it is.
func TestFoldScript(t *testing.T) {
	for in, want := range map[string]string{
		"軟體系統":      "软件系统",
		"計程車公司":     "出租车公司",
		"發佈會 記者":    "发布会 记者",
		"什么 这个 乾隆":  "什么 这个 乾隆",
		"新闻发布会":     "新闻发布会",
		"iphone 手機": "iphone 手机",
		"臺灣 台灣":     "台湾 台湾",
		"":          "",
	} {
		if got := foldScript(in); got != want {
			t.Errorf("foldScript(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestUnsplit drops invisible characters everywhere and white space between
// Han characters only.
func TestUnsplit(t *testing.T) {
	for in, want := range map[string]string{
		"中 国\u200A人\u3000民":          "中国人民",
		"中\uFE0F国\U000E0100人\u034F民": "中国人民",
		"用 iPhone 拍":                 "用 iPhone 拍",
		"第一行\n第二行":                   "第一行\n第二行",
		"a b":                        "a b",
		"中 \u200B 国":                 "中国",
		"한국 사람":                      "한국 사람",
	} {
		if got := unsplit(in); got != want {
			t.Errorf("unsplit(%q) = %q, want %q", in, got, want)
		}
	}
}

// The cost of one script: MatchText against Normalize alone, on a body of
// about 800 characters in each script.
var (
	benchTraditional = strings.Repeat("市政府昨天召開新聞發佈會，宣佈將在明年年底前完成全市老舊小區的電梯加裝工程。軟體系統將用於管理電梯的日常執行資料。", 15)
	benchSimplified  = strings.Repeat("市政府昨天召开新闻发布会，宣布将在明年年底前完成全市老旧小区的电梯加装工程。软件系统将用于管理电梯的日常运行数据。", 15)
)

func BenchmarkNormalizeOnly(b *testing.B) {
	for b.Loop() {
		_ = Normalize(benchTraditional)
	}
}

func BenchmarkMatchTextTraditional(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = MatchText(benchTraditional)
	}
}

func BenchmarkMatchTextSimplified(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = MatchText(benchSimplified)
	}
}
