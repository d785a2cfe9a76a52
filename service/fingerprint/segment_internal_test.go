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

// readSegmentedCases are texts whose normalisation is unusual where a
// piece ends: a combining mark, a format character, spaces between Han
// characters and invalid bytes after a delimiter, full-width delimiters,
// Traditional script, decimals, a colon before a quotation, credit lines.
var readSegmentedCases = []string{
	"",
	"。",
	"中。\u0301文！\u200b字？ 字\n\n字",
	"中 。 文；\u3000中　文\r\n第二行 第 二 行",
	"中。\xff\xfe文．字：“引用的话。”\n來源：某報\n責任編輯：王小明",
	"3.5%的增长，第 3.5 条。Ａ．Ｂ！ＣＤ？ 〔注〕",
	"臺灣的記者說：「這是一個測試。」\n\u00a0\u00a0本報記者 李立\nfoo.Bar;baz!qux?",
	"a\u0308。\u0338=\u0338!\u0338;\u0338:\u0338",
	"\u1100\u1161。\u11a8很好。ﬁ ﬃ ℃ ㍻ ①②",
	"\ufdfa\ufdfa。\ufdfa",
	"<p>标题</p><p>正文 第一句。第二句！</p>",
}

// TestReadSegmentedAgreesWithRead holds readSegmented, which normalises a
// body once, to read followed by segment, which normalise it twice: the
// same text (content hash, matched body, title) and the same pieces, for
// every algorithm's settings, on the cases above, the fuzz seeds and 围城.
func TestReadSegmentedAgreesWithRead(t *testing.T) {
	d, novel := dictionaryAndNovel(t)
	texts := append([]string{string(novel[:300_000])}, readSegmentedCases...)
	for _, title := range []string{"", "標題 測試", "\ufdfa"} {
		for _, body := range texts {
			for _, html := range []bool{false, true} {
				checkReadSegmented(t, d, Document{Title: title, Body: body, HTML: html})
			}
		}
	}
}

// FuzzReadSegmented is TestReadSegmentedAgreesWithRead on any text.
func FuzzReadSegmented(f *testing.F) {
	for _, s := range readSegmentedCases {
		f.Add("标题", s)
	}
	d, err := Load(DefaultDictDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(d.Close)
	f.Fuzz(func(t *testing.T, title, body string) {
		for _, html := range []bool{false, true} {
			checkReadSegmented(t, d, Document{Title: title, Body: body, HTML: html})
		}
	})
}

func checkReadSegmented(t *testing.T, d *Dictionary, doc Document) {
	t.Helper()
	ctx := context.Background()
	for _, oneScript := range []bool{false, true} {
		for _, allScripts := range []bool{false, true} {
			want, err := read(doc, oneScript)
			var wantPieces []piece
			if err == nil {
				wantPieces, err = d.segment(ctx, want.plainBody, allScripts, oneScript)
			}
			got, gotPieces, gotErr := d.readSegmented(ctx, doc, allScripts, oneScript)
			if fmt.Sprint(err) != fmt.Sprint(gotErr) {
				t.Fatalf("%q (one script %v): error %v, want %v", doc.Body, oneScript, gotErr, err)
			}
			if got != want {
				t.Fatalf("%q (one script %v): read\n%+v\nwant\n%+v", doc.Body, oneScript, got, want)
			}
			if fmt.Sprintf("%+v", gotPieces) != fmt.Sprintf("%+v", wantPieces) {
				t.Fatalf("%q (one script %v, all scripts %v): pieces\n%+v\nwant\n%+v", doc.Body, oneScript, allScripts, gotPieces, wantPieces)
			}
		}
	}
}

// TestCutPiecesBoundsTheBody holds the body cutPieces returns, and its
// refusal, to normalize's at MaxNormalizedBytes: a body that is exactly
// the bound once normalised is kept, one byte more is refused.
func TestCutPiecesBoundsTheBody(t *testing.T) {
	piece := strings.Repeat("a", 999) + "。"
	exact := strings.Repeat(piece, MaxNormalizedBytes/1000) + strings.Repeat("a", MaxNormalizedBytes%1000)
	for _, body := range []string{exact, exact + "a", exact + "。a", "。" + exact + "。"} {
		want, wantOK := normalize(body, MaxNormalizedBytes)
		_, got, ok := cutPieces(body, true, true)
		if ok != wantOK || (ok && got != want) {
			t.Errorf("body of %d bytes: kept %v (%d bytes), want %v (%d bytes)", len(body), ok, len(got), wantOK, len(want))
		}
	}
}
