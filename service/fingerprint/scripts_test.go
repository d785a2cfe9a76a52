package fingerprint_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestEveryScriptMakesWords checks that bodies in scripts other than Han and
// ASCII have words in VersionNews, and that a word with letters beyond ASCII
// stays whole, as a hostile tester found they did not.
func TestEveryScriptMakesWords(t *testing.T) {
	t.Parallel()
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	tests := []struct {
		script, body string
		want         []string // words among the keywords
	}{
		{"Russian", "Президент провёл встречу с министрами правительства в Москве.", []string{"президент", "правительства", "москве"}},
		{"Korean", "대통령은 오늘 서울에서 정부 장관들과 회의를 열었다.", []string{"대통령은", "서울에서"}},
		{"Arabic", "عقد الرئيس اجتماعا مع وزراء الحكومة في القاهرة اليوم.", []string{"الرئيس", "القاهرة"}},
		{"Japanese kana", "きょうはとてもいいてんきですね。カタカナのテスト。", []string{"てん", "テス"}},
		{"Thai", "นายกรัฐมนตรีประชุมกับรัฐมนตรี", []string{"นา"}},
		{"accented Latin", "Le président français a rencontré les élèves à l'école.", []string{"français", "président", "élèves", "école"}},
		{"mixed", "华为在français市场推出新款iPhone竞品", []string{"français", "iphone", "华为"}},
	}
	for _, tt := range tests {
		fp, err := alg.Fingerprint(context.Background(), fingerprint.Document{Body: tt.body})
		if err != nil {
			t.Errorf("%s: Fingerprint(%q) = %v", tt.script, tt.body, err)
			continue
		}
		var words []string
		for _, k := range fp.Keywords {
			words = append(words, k.Word)
		}
		for _, w := range tt.want {
			if !slices.Contains(words, w) {
				t.Errorf("%s: %q is not a keyword of %q; the keywords are %q", tt.script, w, tt.body, words)
			}
		}
		for _, w := range words {
			if strings.ContainsRune(w, 'ç') && w != "français" {
				t.Errorf("%s: %q cuts a word at a letter beyond ASCII", tt.script, w)
			}
		}
	}
}

// TestNumbersDoNotCount checks that a repost that changes figures keeps its
// fingerprint in VersionNews.
func TestNumbersDoNotCount(t *testing.T) {
	t.Parallel()
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	a := mustFingerprint(t, alg, fingerprint.Document{Body: "国家统计局今天发布数据，2018年全国粮食总产量65789万吨，比上年增加1234万吨。"})
	b := mustFingerprint(t, alg, fingerprint.Document{Body: "国家统计局今天发布数据，2019年全国粮食总产量66384万吨，比上年增加595万吨。"})
	if a.Simhash != b.Simhash {
		t.Errorf("figures changed the fingerprint by %d bits", fingerprint.Distance(a.Simhash, b.Simhash))
	}
	for _, k := range a.Keywords {
		if strings.Trim(k.Word, "0123456789") == "" {
			t.Errorf("the number %q counts", k.Word)
		}
	}
}
