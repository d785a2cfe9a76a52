package fingerprint_test

import (
	"context"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func TestSentences(t *testing.T) {
	t.Parallel()
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	body := "国家统计局今天发布了十月份全国居民消费价格数据。\n" +
		"食品价格同比上涨百分之三点二，非食品价格上涨1.5%！" +
		"短句。" + // under ten characters: not indexed
		"国家统计局今天发布了十月份全国居民消费价格数据。" + // a repeat: indexed once
		"城市和农村的价格都有上涨；专家认为物价总体平稳"
	fp, err := alg.Fingerprint(context.Background(), fingerprint.Document{Title: "标题", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range fp.Sentences {
		texts = append(texts, s.Text(fp.PlainBody))
		if s.Runes < fingerprint.MinSentenceRunes {
			t.Errorf("sentence %q of %d characters is indexed", s.Text(fp.PlainBody), s.Runes)
		}
	}
	want := []string{
		"国家统计局今天发布了十月份全国居民消费价格数据。",
		"食品价格同比上涨百分之三点二，非食品价格上涨1.5%！",
		"城市和农村的价格都有上涨；",
		"专家认为物价总体平稳",
	}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("sentences = %q, want %q", texts, want)
	}
	if all := fingerprint.SentenceTexts(fp.PlainBody, fp.Sentences); strings.Join(all, "|") != strings.Join(want, "|") {
		t.Errorf("SentenceTexts = %q, want %q", all, want)
	}
	if !fp.Sentences[0].HasSimhash {
		t.Errorf("a sentence of many content words has no simhash: %+v", fp.Sentences[0])
	}
}

// TestSentencesSplitTheSameWhateverThePunctuation checks that a repost that
// swaps full-width punctuation for half-width indexes the same sentences,
// with the same exact hashes.
func TestSentencesSplitTheSameWhateverThePunctuation(t *testing.T) {
	t.Parallel()
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	full := "国家统计局今天发布了十月份全国居民消费价格数据。食品价格同比上涨，非食品价格上涨了百分之一点五！专家认为物价总体平稳？"
	half := strings.NewReplacer("。", ".", "，", ",", "！", "!", "？", "?").Replace(full)
	a, b := mustFingerprint(t, alg, fingerprint.Document{Body: full}), mustFingerprint(t, alg, fingerprint.Document{Body: half})
	if len(a.Sentences) != 3 || len(a.Sentences) != len(b.Sentences) {
		t.Fatalf("%d and %d sentences, want 3 and 3", len(a.Sentences), len(b.Sentences))
	}
	for i := range a.Sentences {
		if a.Sentences[i].TextHash != b.Sentences[i].TextHash || a.Sentences[i].Simhash != b.Sentences[i].Simhash {
			t.Errorf("sentence %d differs between the two punctuations", i)
		}
	}
}

// TestShortSentencesHaveNoSimhash: a sentence under 20 characters is found
// by its exact hash alone, however many content words it has; a longer one
// with enough content words gets a simhash.
func TestShortSentencesHaveNoSimhash(t *testing.T) {
	t.Parallel()
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	short := "国家统计局发布全国居民消费价格数据。"      // 17 characters, 5 content words
	long := "国家统计局今天发布了十月份全国居民消费价格数据。" // 23 characters
	fp, err := alg.Fingerprint(context.Background(), fingerprint.Document{Title: "标题", Body: short + "\n" + long})
	if err != nil {
		t.Fatal(err)
	}
	if len(fp.Sentences) != 2 {
		t.Fatalf("%d sentences indexed, want 2", len(fp.Sentences))
	}
	if s := fp.Sentences[0]; s.HasSimhash || s.Runes >= 20 {
		t.Errorf("the short sentence (%d characters) has a simhash: %v", s.Runes, s.HasSimhash)
	}
	if s := fp.Sentences[1]; !s.HasSimhash {
		t.Errorf("the long sentence (%d characters) has no simhash", s.Runes)
	}
}
