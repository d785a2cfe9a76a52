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

func BenchmarkFoldScript(b *testing.B) {
	body := strings.Repeat("市政府昨天召開新聞發佈會，宣佈將在明年年底前完成全市老舊小區的電梯加裝工程。軟體系統將用於管理電梯的日常執行資料。", 15)
	norm := Normalize(body)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		_ = foldScript(Normalize(unsplit(norm)))
	}
}

func BenchmarkFoldScriptAlone(b *testing.B) {
	norm := Normalize(strings.Repeat("市政府昨天召開新聞發佈會，宣佈將在明年年底前完成全市老舊小區的電梯加裝工程。軟體系統將用於管理電梯的日常執行資料。", 15))
	for b.Loop() {
		_ = foldScript(norm)
	}
}
