package main

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// fakeDonor gives fixed text, written for the tests.
type fakeDonor struct{}

func (fakeDonor) sentence(_ *rand.Rand, _, runes int) string {
	if runes == 0 {
		return "这是一句从别的文章借来的话。"
	}
	return strings.Repeat("替", max(1, runes-1)) + "。"
}

func (fakeDonor) title(*rand.Rand, int, string) string { return "另一篇文章的标题" }

// testBody has three paragraphs of two sentences each.
const testBody = "城东的新公园今天开放。园里种了三百棵银杏树。\n" +
	"附近的居民一早就来散步。有人带着孩子放风筝。\n" +
	"管理处说，公园每天开放到晚上十点。夜里还有灯光秀。"

func TestApplyEdit(t *testing.T) {
	t.Parallel()
	sentences := sentenceCount(paragraphsOf(testBody))
	for _, e := range repostEdits {
		t.Run(e, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(1, 2))
			title, body, ok := applyEdit(rng, fakeDonor{}, 0, "城东新公园开放", testBody, e)
			if !ok {
				t.Fatalf("applyEdit(%s) cannot apply to a body of %d sentences", e, sentences)
			}
			if body == testBody && title == "城东新公园开放" {
				t.Fatalf("applyEdit(%s) changed nothing", e)
			}
			if (e == editRetitled) != (title != "城东新公园开放") {
				t.Errorf("applyEdit(%s) title = %q", e, title)
			}
			got := sentenceCount(paragraphsOf(body))
			switch e {
			case editLight:
				if strings.ContainsAny(body, "，。") || !strings.Contains(body, "城东的新公园今天开放.") {
					t.Errorf("light: %q keeps full-width punctuation or lost the text", body)
				}
				if lines := strings.Split(body, "\n"); len(lines) != 5 {
					t.Errorf("light: %d lines, want the 3 paragraphs, a byline and an editor's line", len(lines))
				}
			case editRetitled:
				if body != testBody {
					t.Errorf("retitled changed the body")
				}
			case editFirst60, editFirst80:
				if !strings.HasPrefix(strings.ReplaceAll(testBody, "\n", ""), strings.ReplaceAll(body, "\n", "")) || got >= sentences {
					t.Errorf("%s: %q is not a shorter prefix", e, body)
				}
			case editDropped:
				if got != sentences-1 {
					t.Errorf("dropped: %d sentences, want %d", got, sentences-1)
				}
			case editAdded:
				if got != sentences+1 || !strings.Contains(body, "借来的话") {
					t.Errorf("added: %d sentences, want %d with the donor's", got, sentences+1)
				}
			case editChrome:
				if strings.Contains(body, "城东的新公园今天开放") || strings.Contains(body, "夜里还有灯光秀") {
					t.Errorf("chrome: the first or last sentence is still there: %q", body)
				}
			case editMoved:
				if len(body) != len(testBody) || body == testBody {
					t.Errorf("moved: %q is not a reordering", body)
				}
			case editBoiler:
				added := utf8.RuneCountInString(body) - utf8.RuneCountInString(testBody) - strings.Count(body, "\n") + strings.Count(testBody, "\n")
				if !strings.Contains(body, testBody) || added < minBoilerplateRunes || added > maxBoilerplateRunes {
					t.Errorf("boilerplate: %d characters added, want %d–%d around the body", added, minBoilerplateRunes, maxBoilerplateRunes)
				}
			case editRewritten:
				if got != sentences || !strings.Contains(body, "替") {
					t.Errorf("rewritten: %d sentences (want %d), donor's text in it: %v", got, sentences, strings.Contains(body, "替"))
				}
			}
		})
	}
}

func TestApplyEditSkipsWhatCannotApply(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, e := range []string{editChrome, editDropped, editMoved, editFirst60, editRewritten} {
		if _, _, ok := applyEdit(rng, fakeDonor{}, 0, "标题", "只有一句话的正文。", e); ok {
			t.Errorf("applyEdit(%s) applied to a body of one sentence", e)
		}
	}
}

func TestLeading(t *testing.T) {
	t.Parallel()
	paras := [][]string{{"一二三四五六七八九十。", "一二三四五六七八九十。"}, {"一二三四五六七八九十。", "一二三四五六七八九十。", "一二三四五六七八九十。"}}
	cut, ok := leading(paras, 0.6)
	if !ok || sentenceCount(cut) != 3 {
		t.Errorf("leading(5 equal sentences, 0.6) = %q, want the first 3", cut)
	}
	cut, ok = leading(paras, 0.8)
	if !ok || sentenceCount(cut) != 4 {
		t.Errorf("leading(5 equal sentences, 0.8) = %q, want the first 4", cut)
	}
}
