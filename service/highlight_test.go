package service

import (
	"slices"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func TestSentenceSpans(t *testing.T) {
	t.Parallel()
	// Two texts of three sentences each, offsets in characters: a's first
	// sentence is b's last, word for word; a's second and b's first are
	// near-identical (one character changed, simhashes 1 bit apart); a's
	// third and b's second have close simhashes but different texts.
	const (
		aText = "长江中下游启动洪水防御四级应急响应。水利部派出工作组赶赴湖北江西两省指导防汛工作。今天下午天气晴朗适合出游。"
		bText = "水利部派出工作组赶赴湖北江西两省指导防汛抗洪。明天上午有小雨请市民注意出行安全。长江中下游启动洪水防御四级应急响应。"
	)
	a := []fingerprint.Sentence{
		{Start: 0, End: 18, TextHash: 1, Simhash: 0xf0, HasSimhash: true},
		{Start: 18, End: 41, TextHash: 2, Simhash: 0x0f, HasSimhash: true},
		{Start: 41, End: 54, TextHash: 3, Simhash: 0xff00, HasSimhash: true},
	}
	b := []fingerprint.Sentence{
		{Start: 0, End: 23, TextHash: 4, Simhash: 0x0e, HasSimhash: true},
		{Start: 23, End: 40, TextHash: 5, Simhash: 0xff01, HasSimhash: true},
		{Start: 40, End: 58, TextHash: 1, Simhash: 0xf0, HasSimhash: true},
	}
	aSpans, bSpans := SentenceSpans(aText, a, bText, b)
	text := func(s string, spans []Span) []string {
		var out []string
		for _, sp := range spans {
			out = append(out, s[sp.Start:sp.End])
		}
		return out
	}
	if got, want := text(aText, aSpans), []string{"长江中下游启动洪水防御四级应急响应。水利部派出工作组赶赴湖北江西两省指导防汛工作。"}; !slices.Equal(got, want) {
		t.Errorf("a's shared text: %q, want %q (the first two sentences, merged)", got, want)
	}
	if got, want := text(bText, bSpans), []string{"水利部派出工作组赶赴湖北江西两省指导防汛抗洪。", "长江中下游启动洪水防御四级应急响应。"}; !slices.Equal(got, want) {
		t.Errorf("b's shared text: %q, want %q", got, want)
	}
	if a, b := SentenceSpans(aText, a[2:], bText, b[1:2]); a != nil || b != nil {
		t.Errorf("close simhashes of different texts marked %v and %v, want nothing", a, b)
	}
}
