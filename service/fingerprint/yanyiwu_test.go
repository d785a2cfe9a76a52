package fingerprint_test

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The test vectors of yanyiwu/simhash (testdata/yanyiwu, MIT): the values
// its own tests assert, and ones computed with its algorithm on gojieba
// v1.4.7's dictionaries.

func readYanyiwu(tb testing.TB, name string) string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "yanyiwu", name))
	if err != nil {
		tb.Fatal(err)
	}
	return string(data)
}

func TestYanyiwuSimhash(t *testing.T) {
	tests := []struct {
		name string // a file in testdata/yanyiwu, or empty for text
		text string
		topN int
		want uint64
	}{
		{name: "news_content.txt", topN: 5, want: 15286165794479097173},
		{name: "news_content.txt", topN: 50, want: 15646522006318703703},
		{name: "news_content.3.txt", topN: 50, want: 4279102089163686581},
		{name: "news_content.4.txt", topN: 50, want: 4279102089163686581},
		{text: "你好世界", topN: 3, want: 17676873585679812141},
		{text: "我来到北京清华大学", topN: 5, want: 0xfeb6372a8750eb1d},
		{text: "我是蓝翔技工拖拉机学院手扶拖拉机专业的。不用多久，我就会升职加薪，当上总经理，出任CEO，走上人生巅峰。", topN: 5, want: 17831459094038722629},
	}
	for _, tt := range tests {
		body, label := tt.text, tt.text
		if tt.name != "" {
			body, label = readYanyiwu(t, tt.name), tt.name
		}
		alg := fingerprint.NewYanyiwu(dict, tt.topN)
		fp := mustFingerprint(t, alg, fingerprint.Document{Body: body})
		if fp.Simhash != tt.want {
			t.Errorf("NewYanyiwu(d, %d).Fingerprint(%s).Simhash = %d, want %d (distance %d)",
				tt.topN, label, fp.Simhash, tt.want, fingerprint.Distance(fp.Simhash, tt.want))
		}
		wantVersion := fingerprint.VersionExperimental
		if tt.topN == fingerprint.DefaultYanyiwuTopN {
			wantVersion = fingerprint.VersionYanyiwu
		}
		if fp.Version != wantVersion {
			t.Errorf("NewYanyiwu(d, %d).Fingerprint(%s).Version = %d, want %d", tt.topN, label, fp.Version, wantVersion)
		}
	}
}

// yanyiwuTop5 are the top five keywords of news_content.txt with their
// lookup3 hashes and count × IDF weights; lookup3_internal_test.go checks the
// hashes against jenkins64.
var yanyiwuTop5 = []struct {
	word   string
	hash   uint64
	weight float64
}{
	{"日军", 15142046212652221781, 318.452},
	{"集团军", 2117559126361955906, 151.001},
	{"10", 14814508906697812479, 140.87},
	{"地区", 13004687738940023035, 106.978},
	{"攻占", 18264030747823598625, 103.739},
}

func TestYanyiwuKeywords(t *testing.T) {
	fp := mustFingerprint(t, fingerprint.NewYanyiwu(dict, 5), fingerprint.Document{Body: readYanyiwu(t, "news_content.txt")})
	if len(fp.Keywords) != len(yanyiwuTop5) {
		t.Fatalf("Keywords = %v, want %d of them", fp.Keywords, len(yanyiwuTop5))
	}
	var hashes []uint64
	for i, want := range yanyiwuTop5 {
		got := fp.Keywords[i]
		if got.Word != want.word || math.Abs(got.Weight-want.weight) > 1e-3 {
			t.Errorf("Keywords[%d] = %s:%.3f, want %s:%.3f", i, got.Word, got.Weight, want.word, want.weight)
		}
		hashes = append(hashes, want.hash)
	}
	slices.Sort(hashes)
	if !slices.Equal(fp.Words, fingerprint.WordSet(hashes)) {
		t.Errorf("Words = %v, want the keywords' lookup3 hashes %v", fp.Words, hashes)
	}
}

// A title goes before the body with a line break, as a caller of
// yanyiwu/simhash that joins them would.
func TestYanyiwuTitle(t *testing.T) {
	alg := fingerprint.NewYanyiwu(dict, fingerprint.DefaultYanyiwuTopN)
	body := readYanyiwu(t, "news_content.3.txt")
	const title = "金华夫妻争吵致儿子烧伤身亡"
	withTitle := mustFingerprint(t, alg, fingerprint.Document{Title: title, Body: body})
	joined := mustFingerprint(t, alg, fingerprint.Document{Body: title + "\n" + body})
	if withTitle.Simhash != joined.Simhash {
		t.Errorf("Simhash with a title = %016x, with the title joined to the body = %016x", withTitle.Simhash, joined.Simhash)
	}
}
