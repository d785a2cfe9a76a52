package main

import (
	"slices"
	"testing"
)

func TestSplitSentences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want []string
	}{
		{"", nil},
		{"  ", nil},
		{"没有句号的一句话", []string{"没有句号的一句话"}},
		{"第一句。第二句！第三句？", []string{"第一句。", "第二句！", "第三句？"}},
		// Closing quotes stay with their sentence.
		{"他说：“今天下雨。”我们回家了。", []string{"他说：“今天下雨。”", "我们回家了。"}},
		// A number's point is not a sentence's end; a half-width one is.
		{"增长了3.5个百分点. 下一句; 再下一句", []string{"增长了3.5个百分点.", "下一句;", "再下一句"}},
		{"结尾的省略号……", []string{"结尾的省略号……"}},
	}
	for _, tt := range tests {
		if got := splitSentences(tt.line); !slices.Equal(got, tt.want) {
			t.Errorf("splitSentences(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestParagraphsRoundTrip(t *testing.T) {
	t.Parallel()
	body := "  第一段第一句。第一段第二句。\n\n\n第二段只有一句。\n"
	paras := paragraphsOf(body)
	if len(paras) != 2 || sentenceCount(paras) != 3 {
		t.Fatalf("paragraphsOf() = %q, want 2 paragraphs of 3 sentences", paras)
	}
	if got, want := joinParagraphs(paras), "第一段第一句。第一段第二句。\n第二段只有一句。"; got != want {
		t.Errorf("joinParagraphs() = %q, want %q", got, want)
	}
}

func TestSentenceFrequency(t *testing.T) {
	t.Parallel()
	slogan := "欢迎关注本站的官方账号获取更多资讯。"
	bodies := []string{
		"今天的第一条消息说的是天气。" + slogan,
		"今天的第二条消息说的是交通。" + slogan + slogan, // twice, counted once
		"今天的第三条消息说的是体育。",
		"短句。",
	}
	freq := sentenceFrequency(bodies)
	if got := freq[compact(slogan)]; got != 2 {
		t.Errorf("the slogan is in %d articles, want 2", got)
	}
	if _, ok := freq[compact("短句。")]; ok {
		t.Errorf("a sentence under %d characters was counted", minIndexedRunes)
	}
}
