package fingerprint_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"  Hello，  World！ ", "hello world"},
		{"ＩＢＭ公司２０２３年", "ibm公司2023年"},
		{"“引号”里的话。", "引号 里的话"},
		{"第一段\n\n第二段\t结束\r\n", "第一段 第二段 结束"},
		{"\u3000\u3000正文开始", "正文开始"},
		{"人工\u200b智能", "人工智能"},
		{"人工\u200d智能\ufeff", "人工智能"},
		{"co\u00adoperate", "cooperate"},
		{"新华社\xff北京", "新华社 北京"},
		{"a\x00b\x00\x00c", "a b c"},
		{"３．１４", "3 14"},
		{"Ｃ＋＋与Ｇｏ", "c 与go"},
		{"价格：¥100（约$14）", "价格 100 约 14"},
		{"…—…", ""},
		{"ÀÉÎ", "àéî"},
		{"ﬁle", "file"}, // NFKC expands the ligature
	}
	for _, tt := range tests {
		if got := fingerprint.Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// halfWidth swaps full-width punctuation for half-width, as a site that
// reposts an article often does.
var halfWidth = strings.NewReplacer("，", ",", "。", ".", "！", "!", "？", "?", "：", ":", "；", ";",
	"“", `"`, "”", `"`, "（", "(", "）", ")", "、", ",")

// articles returns count originals of 500–3000 runes cut from 围城.
func articles(tb testing.TB, seed uint64, count int) []corpus.Article {
	tb.Helper()
	a := mustNovel(tb).Originals(newRand(seed), count, 500, 3000)
	if len(a) < count {
		tb.Fatalf("Originals gave %d articles, want %d", len(a), count)
	}
	return a
}

// sameFingerprint fails the test unless a and b are equal in every field.
func sameFingerprint(tb testing.TB, what string, a, b fingerprint.Fingerprint) {
	tb.Helper()
	if a.Simhash != b.Simhash {
		tb.Errorf("%s: Simhash %016x and %016x differ (distance %d)", what, a.Simhash, b.Simhash, fingerprint.Distance(a.Simhash, b.Simhash))
	}
	if !slices.Equal(a.Keywords, b.Keywords) {
		tb.Errorf("%s: Keywords differ:\n%v\n%v", what, head(a.Keywords), head(b.Keywords))
	}
	if !slices.Equal(a.Words, b.Words) {
		tb.Errorf("%s: Words differ", what)
	}
	if a.ContentHash != b.ContentHash {
		tb.Errorf("%s: ContentHash differs", what)
	}
}

func head(k []fingerprint.Keyword) []fingerprint.Keyword { return k[:min(len(k), 8)] }

func TestHalfWidthPunctuation(t *testing.T) {
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	for _, a := range articles(t, 21, 30) {
		full := mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: a.Body})
		half := mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: halfWidth.Replace(a.Body)})
		sameFingerprint(t, a.Title, full, half)
	}
}

func TestFullWidthLettersAndDigits(t *testing.T) {
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	full := mustFingerprint(t, alg, fingerprint.Document{
		Title: "ＩＢＭ发布２０２４年财报",
		Body:  "ＩＢＭ公司２０２４年营收达到６１８亿美元，ＣＥＯ表示人工智能业务增长强劲。",
	})
	half := mustFingerprint(t, alg, fingerprint.Document{
		Title: "IBM发布2024年财报",
		Body:  "IBM公司2024年营收达到618亿美元，CEO表示人工智能业务增长强劲。",
	})
	sameFingerprint(t, "full-width letters and digits", full, half)
	if !slices.ContainsFunc(half.Keywords, func(k fingerprint.Keyword) bool { return k.Word == "ibm" }) {
		t.Errorf("Keywords %v lack ibm", half.Keywords)
	}
}

// page returns the article as an HTML page with text no reader sees: a
// <title> and other text in <head>, a <style>, a <script>, a <noscript> and
// a comment, each holding a word that the visible text does not.
func page(title string, paragraphs []string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"zh-CN\"><head><meta charset=\"utf-8\">")
	b.WriteString("<title>人工智能 | " + title + "</title>")
	b.WriteString("<meta name=\"keywords\" content=\"区块链\">")
	b.WriteString("<style>.云计算 { color: red } /* 量子力学 */</style></head>\n<body>")
	b.WriteString("<div class=\"nav\"><!-- 比特币 加密货币 --></div>\n<article>")
	for i, p := range paragraphs {
		if i == 1 {
			// Inline markup and a character reference inside a paragraph.
			r := []rune(p)
			p = "<strong>" + string(r[:len(r)/3]) + "</strong>" + string(r[len(r)/3:])
		}
		fmt.Fprintf(&b, "<p>%s</p>\n", strings.ReplaceAll(p, "“", "&ldquo;"))
	}
	b.WriteString("</article><script>var 新冠疫苗 = \"区块链\"; if (a < b && c > d) {}</script>")
	b.WriteString("<noscript>虚拟现实</noscript>\n</body></html>")
	return b.String()
}

// hiddenWords are the words page hides in markup no reader sees, as jieba
// segments them ("比特币" gives "比特").
var hiddenWords = []string{"人工智能", "区块链", "云计算", "量子力学", "比特", "加密", "新冠", "虚拟现实"}

func TestHTMLAndPlainText(t *testing.T) {
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	for _, a := range articles(t, 22, 20) {
		paragraphs := strings.Split(a.Body, "\n")
		plain := mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: a.Body})
		html := mustFingerprint(t, alg, fingerprint.Document{
			Title: "<b>" + a.Title + "</b>",
			Body:  page(a.Title, paragraphs),
			HTML:  true,
		})
		sameFingerprint(t, a.Title, plain, html)
	}
}

func TestHTMLHiddenText(t *testing.T) {
	// Every word counted, not the default's 64 heaviest, and the short
	// lines at the ends too: the question is which text is read, not which
	// words make the cut.
	all := fingerprint.DefaultWeightedParams
	all.TopN, all.StripEdges = 0, false
	alg := fingerprint.NewWeighted(dict, all)
	a := articles(t, 23, 1)[0]
	has := func(fp fingerprint.Fingerprint, word string) bool {
		return slices.ContainsFunc(fp.Keywords, func(k fingerprint.Keyword) bool { return strings.Contains(k.Word, word) })
	}
	// Control: each hidden word counts when a reader can see it.
	visible := mustFingerprint(t, alg, fingerprint.Document{Body: a.Body + "\n" + "人工智能，区块链，云计算，量子力学，比特币，加密货币，新冠疫苗，虚拟现实", HTML: true})
	for _, w := range hiddenWords {
		if !has(visible, w) {
			t.Fatalf("control: %q is not among the keywords when it is visible", w)
		}
	}
	p := page(a.Title, strings.Split(a.Body, "\n"))
	fp := mustFingerprint(t, alg, fingerprint.Document{Body: p, HTML: true})
	text := fingerprint.HTMLText(p)
	for _, w := range hiddenWords {
		if has(fp, w) {
			t.Errorf("%q, only in markup no reader sees, is among the keywords", w)
		}
		if strings.Contains(text, w) {
			t.Errorf("HTMLText(page) holds %q, only in markup no reader sees", w)
		}
	}
	// The same for yanyiwu/simhash with HTML.
	yfp := mustFingerprint(t, fingerprint.NewYanyiwu(dict, fingerprint.DefaultYanyiwuTopN), fingerprint.Document{Body: p, HTML: true})
	for _, w := range hiddenWords {
		if has(yfp, w) {
			t.Errorf("Yanyiwu: %q, only in markup no reader sees, is among the keywords", w)
		}
	}
}

func TestHTMLText(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"纯文本", "纯文本"},
		{"<p>第一段</p><p>第二段</p>", "\n第一段\n\n第二段\n"},
		{"人工<b>智能</b>与<a href=\"x\">机器</a>学习", "人工智能与机器学习"},
		{"上一行<br>下一行<br/>末行", "上一行\n下一行\n末行"},
		{"<td>单元</td><td>格子</td>", "\n单元\n\n格子\n"},
		{"A &amp; B &lt;tag&gt; &#20013;&#x6587;", "A & B <tag> 中文"},
		{"<head><title>标题</title>头部</head><body>正文</body>", "正文"},
		{"<head>未闭合的头部<body>正文</body>", "正文"},
		{"前<script>var x = '<p>脚本</p>';</script>后", "前后"},
		{"前<style>p { x: y }</style>后<!-- 注释 -->尾", "前后尾"},
		{"<noscript>无脚本</noscript><template>模板</template>可见", "可见"},
		{"<script>未闭合的脚本", ""},
		// Browsers ignore "/>" on a non-void element: <script/> opens a script.
		{"<script/>var 区块链 = 1;</script>可见", "可见"},
		{"<style/>p { x: y }</style>可见", "可见"},
		{"<title/>标题</title>可见", "可见"},
		{"<br/>换行", "\n换行"},
		{"<p>未闭合的段落", "\n未闭合的段落"},
	}
	for _, tt := range tests {
		if got := fingerprint.HTMLText(tt.in); got != tt.want {
			t.Errorf("HTMLText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// One invalid byte in a long article neither empties the fingerprint
// (cppjieba drops a whole input at one) nor moves more than a few bits.
func TestInvalidUTF8(t *testing.T) {
	algs := []struct {
		name string
		alg  fingerprint.Algorithm
	}{
		{"Weighted", fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)},
		{"Yanyiwu", fingerprint.NewYanyiwu(dict, fingerprint.DefaultYanyiwuTopN)},
	}
	docs := articles(t, 24, 100)
	for _, alg := range algs {
		rng := newRand(24)
		inserted, overwritten := make(map[int]int), make(map[int]int)
		for _, a := range docs {
			want := mustFingerprint(t, alg.alg, fingerprint.Document{Title: a.Title, Body: a.Body})
			check := func(body string, at int, hist map[int]int) {
				t.Helper()
				if utf8.ValidString(body) {
					t.Fatalf("body still valid UTF-8")
				}
				got, err := alg.alg.Fingerprint(context.Background(), fingerprint.Document{Title: a.Title, Body: body})
				if err != nil {
					t.Fatalf("%s: Fingerprint(body with an invalid byte at %d) = %v", alg.name, at, err)
				}
				if len(got.Words) < len(want.Words)*9/10 {
					t.Errorf("%s: an invalid byte at %d leaves %d of %d words", alg.name, at, len(got.Words), len(want.Words))
				}
				hist[fingerprint.Distance(got.Simhash, want.Simhash)]++
			}
			// 0xff between two characters: the text is all there.
			r := []rune(a.Body)
			k := rng.IntN(len(r))
			at := len(string(r[:k]))
			check(a.Body[:at]+"\xff"+a.Body[at:], at, inserted)
			// A byte inside a character overwritten: that character is lost.
			b := []byte(a.Body)
			at = rng.IntN(len(b))
			b[at] = 0xc0
			check(string(b), at, overwritten)
		}
		t.Logf("%s: distances after one 0xff inserted: %s", alg.name, histogram(inserted))
		t.Logf("%s: distances after one byte overwritten: %s", alg.name, histogram(overwritten))
		// A word split in two, or one character lost, moves nothing in most
		// articles. (When the lost character belongs to the heaviest word,
		// Weighted's cubed weights can move a dozen bits: the price of the
		// exponent that keeps reposts still; the logged histogram shows it.)
		for name, hist := range map[string]map[int]int{"inserted": inserted, "overwritten": overwritten} {
			within := 0
			for d := range 4 {
				within += hist[d]
			}
			if within < len(docs)*9/10 {
				t.Errorf("%s, byte %s: %d of %d within distance 3, want 90%%", alg.name, name, within, len(docs))
			}
		}
	}
}

func TestNULBytes(t *testing.T) {
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	for _, a := range articles(t, 25, 10) {
		want := mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: a.Body})
		// A NUL after every full stop is one more separator next to one.
		got := mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: strings.ReplaceAll(a.Body, "。", "。\x00")})
		sameFingerprint(t, "NUL after every 。", want, got)
		// A NUL in the middle of the body keeps the text after it.
		r := []rune(a.Body)
		mid := string(r[:len(r)/2]) + "\x00" + string(r[len(r)/2:])
		got = mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: mid})
		if len(got.Words) < len(want.Words)*9/10 {
			t.Errorf("a NUL in the middle leaves %d of %d words", len(got.Words), len(want.Words))
		}
		if d := fingerprint.Distance(got.Simhash, want.Simhash); d > 4 {
			t.Errorf("a NUL in the middle moves %d bits, want at most 4", d)
		}
	}
	if got := fingerprint.Normalize("新闻\x00正文"); strings.ContainsRune(got, 0) {
		t.Errorf("Normalize(%q) = %q holds a NUL", "新闻\x00正文", got)
	}
	if _, err := alg.Fingerprint(context.Background(), fingerprint.Document{Body: "\x00\x00\x00"}); !errors.Is(err, fingerprint.ErrNoWords) {
		t.Errorf("Fingerprint(three NULs) = %v, want ErrNoWords", err)
	}
}

func TestZeroWidthInsideWord(t *testing.T) {
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	for _, a := range articles(t, 26, 10) {
		want := mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: a.Body})
		// A zero-width space (or joiner, or BOM) between every two runes.
		for _, zw := range []string{"\u200b", "\u200d", "\ufeff"} {
			var b strings.Builder
			for _, r := range a.Body {
				b.WriteRune(r)
				b.WriteString(zw)
			}
			got := mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: b.String()})
			sameFingerprint(t, fmt.Sprintf("%U between every two runes", []rune(zw)[0]), want, got)
		}
	}
}

func TestDeterministic(t *testing.T) {
	algs := []fingerprint.Algorithm{
		fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams),
		fingerprint.NewYanyiwu(dict, fingerprint.DefaultYanyiwuTopN),
	}
	docs := articles(t, 27, 16)
	for _, alg := range algs {
		want := make([]fingerprint.Fingerprint, len(docs))
		for i, a := range docs {
			want[i] = mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: a.Body})
		}
		for run := range 50 {
			for i, a := range docs[:4] {
				got := mustFingerprint(t, alg, fingerprint.Document{Title: a.Title, Body: a.Body})
				sameFingerprint(t, fmt.Sprintf("version %d, run %d", alg.Version(), run), want[i], got)
			}
		}
		// Eight goroutines at once, each over every document, 50 times.
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for g := range 8 {
			wg.Go(func() {
				for run := range 50 {
					i := (g + run) % len(docs)
					got, err := alg.Fingerprint(context.Background(), fingerprint.Document{Title: docs[i].Title, Body: docs[i].Body})
					if err != nil || got.Simhash != want[i].Simhash || !slices.Equal(got.Words, want[i].Words) {
						errs <- fmt.Sprintf("goroutine %d, document %d: %016x, %v; want %016x", g, i, got.Simhash, err, want[i].Simhash)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("version %d: %s", alg.Version(), e)
		}
	}
}

// histogram formats a distribution of distances as "d=0:12, d=1:3".
func histogram(h map[int]int) string {
	var parts []string
	for d := range 65 {
		if n := h[d]; n > 0 {
			parts = append(parts, fmt.Sprintf("d=%d:%d", d, n))
		}
	}
	return strings.Join(parts, ", ")
}
