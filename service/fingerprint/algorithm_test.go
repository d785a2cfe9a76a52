package fingerprint_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func TestErrNoWords(t *testing.T) {
	weighted := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	yanyiwu := fingerprint.NewYanyiwu(dict, fingerprint.DefaultYanyiwuTopN)
	tests := []struct {
		name string
		doc  fingerprint.Document
		// yanyiwu tells whether Yanyiwu also finds no words: it knows only
		// jieba's (Chinese) stop words.
		yanyiwu bool
	}{
		{"empty", fingerprint.Document{}, true},
		{"blank", fingerprint.Document{Body: " \t\r\n\u3000\u00a0 \n"}, true},
		{"punctuation", fingerprint.Document{Body: "，。！？……——“”《》【】!?.,;:()[]{}"}, true},
		{"symbols", fingerprint.Document{Body: "★☆→←＋＝￥$%^&*@#~|"}, false},
		{"single characters", fingerprint.Document{Body: "我 你 他 a b c 1 2 3"}, true},
		{"Chinese stop words", fingerprint.Document{Body: "的、了、我们、他们、因为、所以、但是、而且、如果、这个、那个、自己、什么"}, true},
		{"English stop words", fingerprint.Document{Body: "The and of to in is was were with which would."}, false},
		{"title without a body", fingerprint.Document{Title: "人工智能改变新闻编辑室"}, true},
		{"title and a blank body", fingerprint.Document{Title: "人工智能改变新闻编辑室", Body: "\n\u3000\n"}, true},
		{"title and stop words", fingerprint.Document{Title: "人工智能改变新闻编辑室", Body: "我们的，他们的。"}, true},
		{"HTML without visible text", fingerprint.Document{Body: "<html><head><title>标题党</title></head><body><script>var 区块链 = 1;</script><!-- 人工智能 --></body></html>", HTML: true}, true},
		{"NUL bytes", fingerprint.Document{Body: "\x00\x00 \x00"}, true},
		{"invalid UTF-8", fingerprint.Document{Body: "\xff\xfe\xc0\x80"}, true},
	}
	for _, tt := range tests {
		if _, err := weighted.Fingerprint(context.Background(), tt.doc); !errors.Is(err, fingerprint.ErrNoWords) {
			t.Errorf("%s: Weighted.Fingerprint(%q) = %v, want ErrNoWords", tt.name, tt.doc.Body, err)
		}
		if !tt.yanyiwu {
			continue
		}
		if _, err := yanyiwu.Fingerprint(context.Background(), tt.doc); !errors.Is(err, fingerprint.ErrNoWords) {
			t.Errorf("%s: Yanyiwu.Fingerprint(%q) = %v, want ErrNoWords", tt.name, tt.doc.Body, err)
		}
	}
}

func TestWeightedVersion(t *testing.T) {
	for params, want := range map[fingerprint.WeightedParams]fingerprint.Version{
		fingerprint.DefaultWeightedParams: fingerprint.VersionOneScript,
		fingerprint.WeightedParamsV3:      fingerprint.VersionNews,
		fingerprint.WeightedParamsV2:      fingerprint.VersionWeighted,
	} {
		if v := fingerprint.NewWeighted(dict, params).Version(); v != want {
			t.Errorf("NewWeighted(d, %+v).Version() = %d, want %d", params, v, want)
		}
	}
	other := fingerprint.DefaultWeightedParams
	other.TopN = 7
	alg := fingerprint.NewWeighted(dict, other)
	if v := alg.Version(); v != fingerprint.VersionExperimental {
		t.Errorf("NewWeighted(d, %+v).Version() = %d, want %d", other, v, fingerprint.VersionExperimental)
	}
	if v := fingerprint.NewYanyiwu(dict, 5).Version(); v != fingerprint.VersionExperimental {
		t.Errorf("NewYanyiwu(d, 5).Version() = %d, want %d", v, fingerprint.VersionExperimental)
	}
	a := articles(t, 31, 1)[0]
	fp := mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: a.Body})
	if len(fp.Keywords) != 7 || len(fp.Words) != 7 || fp.Version != fingerprint.VersionExperimental {
		t.Errorf("TopN 7: %d keywords, %d words, version %d; want 7, 7, %d", len(fp.Keywords), len(fp.Words), fp.Version, fingerprint.VersionExperimental)
	}
}

// Keywords come heaviest first, one per word, and Words holds one hash per
// keyword; the content hash reads the same for both algorithms.
func TestWeightedKeywords(t *testing.T) {
	weighted := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	yanyiwu := fingerprint.NewYanyiwu(dict, fingerprint.DefaultYanyiwuTopN)
	for _, a := range articles(t, 32, 10) {
		doc := fingerprint.Document{Title: a.Title, Body: a.Body}
		fp := mustFingerprint(t, weighted, doc)
		if fp.Version != fingerprint.VersionOneScript {
			t.Errorf("Version = %d, want %d", fp.Version, fingerprint.VersionOneScript)
		}
		if !slices.IsSortedFunc(fp.Keywords, func(a, b fingerprint.Keyword) int {
			switch {
			case a.Weight > b.Weight:
				return -1
			case a.Weight < b.Weight:
				return 1
			}
			return 0
		}) {
			t.Errorf("Keywords not heaviest first: %v", head(fp.Keywords))
		}
		seen := make(map[string]bool)
		for _, k := range fp.Keywords {
			if seen[k.Word] || k.Weight <= 0 || len([]rune(k.Word)) < 2 {
				t.Errorf("keyword %v: repeated, not positive, or a single rune", k)
			}
			seen[k.Word] = true
		}
		if len(fp.Words) != len(fp.Keywords) || !slices.IsSorted(fp.Words) {
			t.Errorf("%d Words for %d Keywords (sorted: %v)", len(fp.Words), len(fp.Keywords), slices.IsSorted(fp.Words))
		}
		if y := mustFingerprint(t, yanyiwu, doc); y.ContentHash != fp.ContentHash {
			t.Errorf("ContentHash differs between the algorithms for %q", a.Title)
		}
	}
}

// In VersionWeighted, a word of the title counts TitleWeight times an
// occurrence in the body; in VersionNews the title does not count: a copy
// under a new headline keeps its fingerprint.
func TestWeightedTitle(t *testing.T) {
	const text = "记者今天在北京采访了几位经济学家，谈今年的消费和投资。"
	v2 := fingerprint.NewWeighted(dict, fingerprint.WeightedParamsV2)
	body := mustFingerprint(t, v2, fingerprint.Document{Body: text})
	withTitle := mustFingerprint(t, v2, fingerprint.Document{Title: "区块链", Body: text})
	weight := func(fp fingerprint.Fingerprint, w string) float64 {
		for _, k := range fp.Keywords {
			if k.Word == w {
				return k.Weight
			}
		}
		return 0
	}
	if weight(body, "区块链") != 0 || weight(withTitle, "区块链") == 0 {
		t.Errorf("v2: 区块链 weighs %v without the title and %v with it; want 0 and more", weight(body, "区块链"), weight(withTitle, "区块链"))
	}
	inBody := mustFingerprint(t, v2, fingerprint.Document{Body: "区块链。" + text})
	if w, want := weight(withTitle, "区块链"), weight(inBody, "区块链")*fingerprint.WeightedParamsV2.TitleWeight; w != want {
		t.Errorf("v2: 区块链 in the title weighs %v, want %v", w, want)
	}

	news := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	for _, a := range articles(t, 33, 20) {
		one := mustFingerprint(t, news, fingerprint.Document{Title: a.Title, Body: a.Body})
		other := mustFingerprint(t, news, fingerprint.Document{Title: "区块链带来的新闻标题", Body: a.Body})
		if one.Simhash != other.Simhash || slices.Compare(one.Words, other.Words) != 0 || slices.Compare(one.Shingles, other.Shingles) != 0 {
			t.Errorf("VersionNews: a new title changed the fingerprint of %q (%d bits)", a.Title, fingerprint.Distance(one.Simhash, other.Simhash))
		}
		if one.ContentHash == other.ContentHash {
			t.Errorf("the content hash reads the title, but two titles gave the same for %q", a.Title)
		}
	}
}

// TestWeightedEdgeLines: the short lines a copy adds at either end (a byline,
// an editor's line) leave VersionNews's fingerprint as it was, whether the
// article's own last line ends with a full stop or not, and whatever the
// line breaks.
func TestWeightedEdgeLines(t *testing.T) {
	news := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	const (
		first = "国家统计局今天上午发布了十月份全国居民消费价格的最新数据，同比上涨百分之二点一，涨幅比上月有所回落"
		last  = "专家认为，随着生猪产能逐步恢复，猪肉价格有望在明年上半年回落，全年物价总体保持温和上涨的态势"
	)
	for _, stop := range []string{"。", ""} {
		for _, br := range []string{"\n", "\r\n"} {
			body := first + stop + br + last + stop
			want := mustFingerprint(t, news, fingerprint.Document{Body: body})
			for _, copied := range []string{
				"记者 王明" + br + body,
				body + br + "责任编辑：李华",
				"记者 王明" + br + body + br + "责任编辑：李华",
			} {
				got := mustFingerprint(t, news, fingerprint.Document{Body: copied})
				if got.Simhash != want.Simhash || slices.Compare(got.Words, want.Words) != 0 {
					t.Errorf("%q: %d bits and %d words from the original %q's (%d words)",
						copied, fingerprint.Distance(got.Simhash, want.Simhash), len(got.Words), body, len(want.Words))
				}
			}
		}
	}
}

// TestFingerprintBounds checks the two ways a fingerprint stops early: a
// text that NFKC expands past MaxNormalizedBytes, named by its part, and a
// context that is done.
func TestFingerprintBounds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	expanding := strings.Repeat("\ufdfa", 600_000) // 1.8 MB; about 20 MB once normalised
	for _, alg := range []fingerprint.Algorithm{
		fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams),
		fingerprint.NewYanyiwu(dict, fingerprint.DefaultYanyiwuTopN),
	} {
		_, err := alg.Fingerprint(ctx, fingerprint.Document{Title: "标题", Body: expanding})
		var tooLong *fingerprint.TooLongError
		if !errors.As(err, &tooLong) || tooLong.Part != "body" || !errors.Is(err, fingerprint.ErrTooLong) {
			t.Errorf("%T: Fingerprint(an expanding body) = %v, want a TooLongError for the body", alg, err)
		}
		canceled, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := alg.Fingerprint(canceled, fingerprint.Document{Body: "国家统计局发布数据"}); !errors.Is(err, context.Canceled) {
			t.Errorf("%T: Fingerprint(canceled context) = %v, want context.Canceled", alg, err)
		}
	}
}
