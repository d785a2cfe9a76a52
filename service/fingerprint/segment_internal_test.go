package fingerprint

import (
	"context"
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"
)

// TestSegmentAgreesWithCut holds the one tagging pass over a body's pieces
// to what cutting the whole normalised body at once finds, word for word,
// and to tagging each piece on its own: the article's counts and its
// sentences' words must not depend on how the body was cut.
func TestSegmentAgreesWithCut(t *testing.T) {
	d, novel := dictionaryAndNovel(t)
	texts := []string{
		string(novel[:200_000]),
		"Le président français a dit: «Привет». 大韩民国 대통령은 오늘 서울에서 iPhone手机2018年发布。\nカタカナのテスト。3.5%的增长！",
	}
	ctx := context.Background()
	for _, allScripts := range []bool{false, true} {
		for _, text := range texts {
			pieces, err := d.segment(ctx, text, allScripts, false)
			if err != nil {
				t.Fatal(err)
			}
			fromPieces := map[string]float64{}
			for _, p := range pieces {
				for _, w := range p.words {
					fromPieces[w.word]++
				}
			}
			whole := map[string]float64{}
			if _, err := d.countWordsIn(ctx, Normalize(text), 1, wordRules{allScripts: allScripts}, whole, math.MaxInt); err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(fromPieces, whole) {
				t.Errorf("allScripts %v, text of %d bytes: the pieces count %d words, the whole text %d", allScripts, len(text), len(fromPieces), len(whole))
			}
			for _, p := range pieces[:min(len(pieces), 300)] {
				one := []piece{{normal: p.normal}}
				d.tag(one, allScripts)
				if got, want := words(p.words), words(one[0].words); got != want {
					t.Errorf("piece %q: tagged with the others %s, alone %s", p.normal, got, want)
				}
			}
		}
	}
}

func words(ts []taggedWord) string {
	var out []string
	for _, t := range ts {
		out = append(out, fmt.Sprintf("%s/%v", t.word, t.content))
	}
	return strings.Join(out, " ")
}

// TestPartOfSpeechAgreesWithTheTagger holds the looked-up parts of speech to
// what cppjieba's tagger says of every word of a long text.
func TestPartOfSpeechAgreesWithTheTagger(t *testing.T) {
	d, novel := dictionaryAndNovel(t)
	text := Normalize(string(novel)) + " AT&T c# 云计算 区块链 蓝翔 iphone 2018 3g 4k电视 ωμέγα"
	checked := 0
	for _, tagged := range d.jieba.Tag(text) {
		i := strings.LastIndexByte(tagged, '/')
		word, pos := tagged[:i], tagged[i+1:]
		if got, want := d.isContent(word), contentPOS(pos); got != want {
			t.Errorf("%q: looked up as content %v, the tagger says %s", word, got, pos)
		}
		checked++
	}
	if checked < 100_000 {
		t.Errorf("only %d words checked", checked)
	}
}
