package fingerprint_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// evasionStory is a made-up local news item, written for this test, and
// evasionTraditional its forms through OpenCC 1.1 (opencc -c s2t.json,
// s2twp.json, s2hk.json): the Taiwan form also changes words (软件 →
// 軟體, 出租车 → 計程車, 数据 → 資料).
const evasionStory = "市政府昨天召开新闻发布会，宣布将在明年年底前完成全市老旧小区的电梯加装工程。负责该项目的工作人员介绍，目前已有三百多个小区提交了申请，其中一百二十个已经开工建设。居民代表表示，加装电梯后老年人出行方便了许多，再也不用为爬楼梯发愁。有专家认为，这项工程的资金来源和后期维护问题仍需进一步明确，否则可能影响居民的积极性。据了解，软件系统将用于管理电梯的日常运行数据，出租车公司也参与了部分社区的交通疏导工作。"

var evasionTraditional = map[string]string{
	"s2t":   "市政府昨天召開新聞發佈會，宣佈將在明年年底前完成全市老舊小區的電梯加裝工程。負責該項目的工作人員介紹，目前已有三百多個小區提交了申請，其中一百二十個已經開工建設。居民代表表示，加裝電梯後老年人出行方便了許多，再也不用爲爬樓梯發愁。有專家認爲，這項工程的資金來源和後期維護問題仍需進一步明確，否則可能影響居民的積極性。據瞭解，軟件系統將用於管理電梯的日常運行數據，出租車公司也參與了部分社區的交通疏導工作。",
	"s2twp": "市政府昨天召開新聞釋出會，宣佈將在明年年底前完成全市老舊小區的電梯加裝工程。負責該專案的工作人員介紹，目前已有三百多個小區提交了申請，其中一百二十個已經開工建設。居民代表表示，加裝電梯後老年人出行方便了許多，再也不用為爬樓梯發愁。有專家認為，這項工程的資金來源和後期維護問題仍需進一步明確，否則可能影響居民的積極性。據瞭解，軟體系統將用於管理電梯的日常執行資料，計程車公司也參與了部分社群的交通疏導工作。",
	"s2hk":  "市政府昨天召開新聞發佈會，宣佈將在明年年底前完成全市老舊小區的電梯加裝工程。負責該項目的工作人員介紹，目前已有三百多個小區提交了申請，其中一百二十個已經開工建設。居民代表表示，加裝電梯後老年人出行方便了許多，再也不用為爬樓梯發愁。有專家認為，這項工程的資金來源和後期維護問題仍需進一步明確，否則可能影響居民的積極性。據瞭解，軟件系統將用於管理電梯的日常運行數據，出租車公司也參與了部分社區的交通疏導工作。",
}

// between puts sep after every character of s but the last.
func between(s, sep string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		b.WriteRune(r)
		if i < len(rs)-1 {
			b.WriteString(sep)
		}
	}
	return b.String()
}

// TestEvasionsMatchTheOriginal fingerprints the variants a copier makes to
// dodge detection — Traditional script, invisible characters after every
// character, spaces between them — and wants each to match the original as
// a copy does: within 3 bits, 80 % of its shingles and of its sentences'
// exact hashes shared; the text kept as sent, the sentences' offsets
// pointing into it. VersionNews, before one script, is held to show what
// each variant dodged.
func TestEvasionsMatchTheOriginal(t *testing.T) {
	variants := map[string]string{}
	for name, text := range evasionTraditional {
		variants[name] = text
	}
	for name, c := range map[string]string{
		"U+FE0F": "\uFE0F", "U+E0100": "\U000E0100", "U+034F": "\u034F", "U+3164": "\u3164", "U+115F": "\u115F",
		"U+FFA0": "\uFFA0", "U+200B": "\u200B", "U+200D": "\u200D", "U+FEFF": "\uFEFF", "U+00AD": "\u00AD",
		"U+2060": "\u2060", "U+180E": "\u180E", "U+E0020": "\U000E0020",
		"space": " ", "U+200A": "\u200A", "U+3000": "\u3000", "two spaces": "  ",
	} {
		variants[name] = between(evasionStory, c)
	}
	variants["s2twp with U+FE0F"] = between(evasionTraditional["s2twp"], "\uFE0F")

	news := fingerprint.NewWeighted(dict, fingerprint.WeightedParamsV3)
	oneScript := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	// matches compares a variant with the original; a variant without
	// words (ErrNoWords) matches nothing.
	matches := func(alg fingerprint.Algorithm, text string) (bits int, shingles, sentences float64, copyFp fingerprint.Fingerprint) {
		orig := mustFingerprint(t, alg, fingerprint.Document{Body: evasionStory})
		copyFp, err := alg.Fingerprint(context.Background(), fingerprint.Document{Body: text})
		if err != nil {
			return 64, 0, 0, copyFp
		}
		aInB, _ := fingerprint.Coverage(copyFp.Shingles, orig.Shingles)
		shared := 0
		for _, s := range copyFp.Sentences {
			if slices.ContainsFunc(orig.Sentences, func(o fingerprint.Sentence) bool { return o.TextHash == s.TextHash }) {
				shared++
			}
		}
		return fingerprint.Distance(orig.Simhash, copyFp.Simhash), aInB, float64(shared) / float64(len(orig.Sentences)), copyFp
	}
	dodged := 0
	for name, text := range variants {
		bits, shingles, sentences, fp := matches(oneScript, text)
		if bits > 3 || shingles < 0.8 || sentences < 0.8 {
			t.Errorf("%s: %d bits, %.2f of the shingles, %.2f of the sentences; want ≤ 3, ≥ 0.8, ≥ 0.8", name, bits, shingles, sentences)
		}
		if fp.PlainBody != text {
			t.Errorf("%s: the plain body is not the text as sent", name)
		}
		for _, s := range fingerprint.SentenceTexts(fp.PlainBody, fp.Sentences) {
			if !strings.Contains(text, s) || s == "" {
				t.Errorf("%s: sentence %q is not in the text", name, s)
			}
		}
		if b, sh, se, _ := matches(news, text); b > 3 || sh < 0.8 || se < 0.8 {
			dodged++
		}
	}
	if dodged < len(variants)/2 {
		t.Errorf("VersionNews was dodged by %d of %d variants; the fixture no longer shows what one script catches", dodged, len(variants))
	}
}

// TestSpacedChineseKeepsItsWords: a space or a hair space between every
// character of a 1,000-character Chinese body leaves its words as they are,
// where it left none (ErrNoWords).
func TestSpacedChineseKeepsItsWords(t *testing.T) {
	body := strings.Repeat(evasionStory, 5)[:0]
	for len([]rune(body)) < 1000 {
		body += evasionStory
	}
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	want := mustFingerprint(t, alg, fingerprint.Document{Body: body})
	for _, sep := range []string{" ", "\u200A", "\u3000"} {
		fp := mustFingerprint(t, alg, fingerprint.Document{Body: between(body, sep)})
		if !slices.Equal(fp.Words, want.Words) || fp.Simhash != want.Simhash {
			t.Errorf("%+q between every character: %d words, simhash %016x; want %d, %016x", sep, len(fp.Words), fp.Simhash, len(want.Words), want.Simhash)
		}
	}
}

// TestQuotesAndCredits: a sentence quoted after a lead-in is indexed as the
// sentence it quotes; a byline is indexed as no sentence; a stack of
// credit lines on a briefs article, all short lines, leaves its
// fingerprint as it is.
func TestQuotesAndCredits(t *testing.T) {
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	orig := mustFingerprint(t, alg, fingerprint.Document{Body: evasionStory})
	hashes := func(fp fingerprint.Fingerprint) []uint64 {
		var out []uint64
		for _, s := range fp.Sentences {
			out = append(out, s.TextHash)
		}
		return out
	}
	quoted := "负责该项目的工作人员介绍，目前已有三百多个小区提交了申请，其中一百二十个已经开工建设。"
	for _, body := range []string{
		"关于这项工程，有媒体评论：“" + quoted + "”不少居民也这样看。",
		"一位居民说：「" + quoted + "」他家住在七楼。",
		"他在发言中说: \"" + quoted + "\"随后离开了会场。",
	} {
		fp := mustFingerprint(t, alg, fingerprint.Document{Body: body})
		shared := 0
		for _, h := range hashes(fp) {
			if slices.Contains(hashes(orig), h) {
				shared++
			}
		}
		if shared != 1 {
			t.Errorf("%q shares %d sentences with the story, want the one it quotes", body, shared)
		}
	}

	byline := mustFingerprint(t, alg, fingerprint.Document{Body: "本报记者 李立 J148\n" + evasionStory + "\n（责任编辑：王芳 实习生 赵小明）"})
	if got := hashes(byline); !slices.Equal(got, hashes(orig)) {
		t.Errorf("a story with a byline and an editor's line: %d sentences, want the story's %d alone", len(got), len(orig.Sentences))
	}

	briefs := strings.Join(strings.Split(strings.ReplaceAll(evasionStory, "。", "。\n"), "，"), "，\n")
	plain := mustFingerprint(t, alg, fingerprint.Document{Body: briefs})
	for _, stack := range []string{
		"来源：央视网\n编辑：王芳\n" + briefs,
		"原标题：电梯加装明年完成\n来源：新华网\n记者 张三 李四\n" + briefs,
		briefs + "\n来源：人民网\n责任编辑：赵六",
	} {
		if fp := mustFingerprint(t, alg, fingerprint.Document{Body: stack}); fp.Simhash != plain.Simhash {
			t.Errorf("credits stacked on a briefs article: %d bits from it, want 0", fingerprint.Distance(fp.Simhash, plain.Simhash))
		}
	}
}
