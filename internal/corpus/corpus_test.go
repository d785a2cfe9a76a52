package corpus_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/internal/corpus"
)

var (
	novelOnce sync.Once
	novel     *corpus.Novel
	novelErr  error
)

// mustNovel returns the novel, read once per test binary.
func mustNovel(tb testing.TB) *corpus.Novel {
	tb.Helper()
	novelOnce.Do(func() { novel, novelErr = corpus.LoadNovel() })
	if novelErr != nil {
		tb.Fatalf("LoadNovel() = %v", novelErr)
	}
	return novel
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6e657773)) }

func runes(s string) int { return utf8.RuneCountInString(s) }

func TestLoadNovel(t *testing.T) {
	n := mustNovel(t)
	s := n.Sentences()
	if len(s) < 7000 {
		t.Errorf("len(Sentences()) = %d, want at least 7,000", len(s))
	}
	if r := n.Runes(); r < 200_000 || r > 230_000 {
		t.Errorf("Runes() = %d, want about 215,000 (the file's 246,000 less its repeated tail)", r)
	}
	if p := n.Paragraphs(); p < 200 || p > 260 {
		t.Errorf("Paragraphs() = %d, want about 240", p)
	}
	for _, x := range s {
		last, _ := utf8.DecodeLastRuneInString(x)
		first, _ := utf8.DecodeRuneInString(x)
		if !strings.ContainsRune("。！？…”’」』", last) {
			t.Errorf("sentence %q does not end with a terminator or a closing quote", x)
		}
		if strings.ContainsRune("。！？…”’」』", first) || unicode.IsSpace(first) {
			t.Errorf("sentence %q starts with %q", x, first)
		}
		if !n.Contains(x) {
			t.Errorf("Contains(%q) = false for one of Sentences()", x)
		}
	}
	if n.Contains("这句话不在小说里。") {
		t.Error(`Contains("这句话不在小说里。") = true`)
	}
}

// Any run of the novel's sentences, written one after the other, splits back
// into the same sentences: the articles rely on it.
func TestSplitSentencesRoundTrip(t *testing.T) {
	s := mustNovel(t).Sentences()
	if got := corpus.SplitSentences(strings.Join(s, "")); !slices.Equal(got, s) {
		t.Fatalf("SplitSentences(all sentences joined) gives %d sentences, want %d", len(got), len(s))
	}
}

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"　\n ", nil},
		{"他来了。她走了！", []string{"他来了。", "她走了！"}},
		{"鸿渐道：“好，好。”苏小姐说：“不要你看了，”仍旧让他拿去。", []string{"鸿渐道：“好，好。”", "苏小姐说：“不要你看了，”仍旧让他拿去。"}},
		{"真的吗？！……是的。", []string{"真的吗？！……", "是的。"}},
		{"第一段没有句号\n第二段。", []string{"第一段没有句号", "第二段。"}},
		{"  前后有空白。  后一句。 ", []string{"前后有空白。", "后一句。"}},
	}
	for _, tt := range tests {
		if got := corpus.SplitSentences(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitSentences(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	n := mustNovel(t)
	build := func(seed uint64) []corpus.Article {
		rng := newRand(seed)
		out := n.Originals(rng, 20, 200, 1500)
		out = append(out, n.Overlapping(rng, 20, 50, 800)...)
		for i, e := range corpus.AllEdits {
			out = append(out, n.Apply(rng, out[i], e))
		}
		return out
	}
	a, b := build(1), build(1)
	if !slices.Equal(a, b) {
		t.Error("two runs with seed 1 gave different articles")
	}
	if c := build(2); slices.Equal(a, c) {
		t.Error("seeds 1 and 2 gave the same articles")
	}
}

// checkArticle checks the shape every cut article has.
func checkArticle(t *testing.T, a corpus.Article, minRunes, maxRunes int) {
	t.Helper()
	if r := runes(a.Body); r < minRunes || r > maxRunes {
		t.Errorf("body of %d runes, want %d–%d: %q", r, minRunes, maxRunes, a.Body)
	}
	if r := runes(a.Title); r < 8 || r > 24 {
		t.Errorf("title %q has %d runes, want 8–24", a.Title, r)
	}
	if strings.ContainsFunc(a.Title, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		t.Errorf("title %q is not one clause", a.Title)
	}
	lines := strings.Split(a.Body, "\n")
	total := 0
	for _, l := range lines {
		total += len(corpus.SplitSentences(l))
	}
	for _, l := range lines {
		if k := len(corpus.SplitSentences(l)); total > 1 && (k < 2 || k > 6) {
			t.Errorf("paragraph of %d sentences, want 2–6: %q", k, l)
		}
	}
}

// locate returns where the article's sentences run in the novel's, at or
// after sentence from: the first index, and how many. A short article may
// occur more than once; the earliest place after from is its place.
func locate(t *testing.T, sentences []string, a corpus.Article, from int) (int, int) {
	t.Helper()
	body := corpus.SplitSentences(a.Body)
	for i := from; i+len(body) <= len(sentences); i++ {
		if slices.Equal(sentences[i:i+len(body)], body) {
			return i, len(body)
		}
	}
	t.Fatalf("article %q is not a run of the novel's sentences after sentence %d", a.Title, from)
	return 0, 0
}

func TestOriginals(t *testing.T) {
	n := mustNovel(t)
	sentences := n.Sentences()
	tests := []struct {
		count, minRunes, maxRunes int
		wantAtLeast               int
	}{
		{count: 50, minRunes: 500, maxRunes: 3000, wantAtLeast: 50},
		{count: 300, minRunes: 500, maxRunes: 3000, wantAtLeast: 100}, // more than the novel holds
		{count: 200, minRunes: 50, maxRunes: 199, wantAtLeast: 200},   // short texts
		{count: 1, minRunes: 1000, maxRunes: 1050, wantAtLeast: 1},
	}
	for _, tt := range tests {
		got := n.Originals(newRand(7), tt.count, tt.minRunes, tt.maxRunes)
		if len(got) < tt.wantAtLeast || len(got) > tt.count {
			t.Errorf("Originals(%d, %d, %d) gave %d articles, want %d–%d",
				tt.count, tt.minRunes, tt.maxRunes, len(got), tt.wantAtLeast, tt.count)
		}
		end := 0
		for _, a := range got {
			checkArticle(t, a, tt.minRunes, tt.maxRunes)
			// Articles come in the novel's order, each after the one before.
			at, k := locate(t, sentences, a, end)
			end = at + k
		}
	}
}

func TestOverlapping(t *testing.T) {
	n := mustNovel(t)
	const count = 3000
	got := n.Overlapping(newRand(3), count, 300, 1000)
	if len(got) != count {
		t.Fatalf("Overlapping(%d, 300, 1000) gave %d articles", count, len(got))
	}
	distinct := make(map[corpus.Article]bool)
	for _, a := range got {
		checkArticle(t, a, 300, 1000)
		distinct[a] = true
	}
	if len(distinct) < count*9/10 {
		t.Errorf("Overlapping gave only %d distinct articles out of %d", len(distinct), count)
	}
	if got := n.Overlapping(newRand(3), 5, 10_000_000, 10_000_000); len(got) != 0 {
		t.Errorf("Overlapping of 10,000,000-rune articles gave %d", len(got))
	}
}

// editCases returns originals of varied lengths, short texts included.
func editCases(t *testing.T) []corpus.Article {
	n := mustNovel(t)
	rng := newRand(11)
	return append(n.Originals(rng, 60, 500, 3000), n.Originals(rng, 60, 60, 199)...)
}

func paragraphsOf(body string) [][]string {
	var out [][]string
	for _, l := range strings.Split(body, "\n") {
		out = append(out, corpus.SplitSentences(l))
	}
	return out
}

func TestApplyLight(t *testing.T) {
	n := mustNovel(t)
	rng := newRand(12)
	half := strings.NewReplacer("，", ",", "。", ".", "！", "!", "？", "?", "：", ":", "；", ";",
		"“", `"`, "”", `"`, "（", "(", "）", ")", "、", ",")
	lettersOf := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsPunct(r) || unicode.IsSpace(r) {
				return -1
			}
			return r
		}, s)
	}
	for _, a := range editCases(t) {
		got := n.Apply(rng, a, corpus.Light)
		if got.Title != a.Title {
			t.Errorf("Light changed the title %q to %q", a.Title, got.Title)
		}
		lines := strings.Split(got.Body, "\n")
		if len(lines) < 3 {
			t.Fatalf("Light body has %d lines, want the original's and two more", len(lines))
		}
		byline, editor := lines[0], lines[len(lines)-1]
		if middle := strings.Join(lines[1:len(lines)-1], "\n"); middle != half.Replace(a.Body) {
			t.Errorf("Light body between byline and editor line:\n%q\nwant the original with half-width punctuation:\n%q", middle, half.Replace(a.Body))
		}
		if lettersOf(strings.Join(lines[1:len(lines)-1], "")) != lettersOf(strings.ReplaceAll(a.Body, "\n", "")) {
			t.Errorf("Light changed more than punctuation in %q", a.Title)
		}
		if !strings.Contains(byline, "记者") || !strings.Contains(byline, "月") || !strings.Contains(byline, "日电") {
			t.Errorf("byline %q lacks agency, date or reporter", byline)
		}
		if !strings.Contains(editor, "编") {
			t.Errorf("editor line %q names no editor", editor)
		}
		if strings.ContainsAny(got.Body, "，。！？：；“”（）、") {
			t.Errorf("Light left full-width punctuation in %q", got.Body)
		}
	}
}

func TestApplySentenceDropped(t *testing.T) {
	n := mustNovel(t)
	rng := newRand(13)
	for _, a := range editCases(t) {
		got := n.Apply(rng, a, corpus.SentenceDropped)
		before, after := corpus.SplitSentences(a.Body), corpus.SplitSentences(got.Body)
		if got.Title != a.Title {
			t.Errorf("SentenceDropped changed the title %q to %q", a.Title, got.Title)
		}
		if len(before) == 1 {
			if got != a {
				t.Errorf("SentenceDropped changed a one-sentence article")
			}
			continue
		}
		if len(after) != len(before)-1 {
			t.Fatalf("SentenceDropped: %d sentences, want %d", len(after), len(before)-1)
		}
		k := 0
		for k < len(after) && after[k] == before[k] {
			k++
		}
		if !slices.Equal(after[k:], before[k+1:]) {
			t.Errorf("SentenceDropped did more than drop sentence %d of %q", k, a.Title)
		}
	}
}

func TestApplySentenceAdded(t *testing.T) {
	n := mustNovel(t)
	rng := newRand(14)
	for _, a := range editCases(t) {
		got := n.Apply(rng, a, corpus.SentenceAdded)
		before, after := corpus.SplitSentences(a.Body), corpus.SplitSentences(got.Body)
		if got.Title != a.Title {
			t.Errorf("SentenceAdded changed the title %q to %q", a.Title, got.Title)
		}
		if len(after) != len(before)+1 {
			t.Fatalf("SentenceAdded: %d sentences, want %d", len(after), len(before)+1)
		}
		k := 0
		for k < len(before) && after[k] == before[k] {
			k++
		}
		if !slices.Equal(after[k+1:], before[k:]) {
			t.Errorf("SentenceAdded did more than insert sentence %d into %q", k, a.Title)
		}
		if added := after[k]; !n.Contains(added) || slices.Contains(before, added) {
			t.Errorf("SentenceAdded inserted %q, not a sentence from elsewhere in the novel", added)
		}
	}
}

func TestApplyParagraphMoved(t *testing.T) {
	n := mustNovel(t)
	rng := newRand(15)
	for _, a := range editCases(t) {
		got := n.Apply(rng, a, corpus.ParagraphMoved)
		if got.Title != a.Title {
			t.Errorf("ParagraphMoved changed the title %q to %q", a.Title, got.Title)
		}
		before, after := strings.Split(a.Body, "\n"), strings.Split(got.Body, "\n")
		if len(before) < 2 {
			if got != a {
				t.Errorf("ParagraphMoved changed a one-paragraph article")
			}
			continue
		}
		if slices.Equal(before, after) {
			t.Errorf("ParagraphMoved left the order of %q as it was", a.Title)
		}
		slices.Sort(before)
		slices.Sort(after)
		if !slices.Equal(before, after) {
			t.Errorf("ParagraphMoved changed the paragraphs of %q, not only their order", a.Title)
		}
		// Moving one paragraph leaves the others in order.
		b, g := strings.Split(a.Body, "\n"), strings.Split(got.Body, "\n")
		moved := false
		for i := range b {
			rest := slices.Delete(slices.Clone(b), i, i+1)
			for j := range g {
				if g[j] == b[i] && slices.Equal(slices.Delete(slices.Clone(g), j, j+1), rest) {
					moved = true
				}
			}
		}
		if !moved {
			t.Errorf("ParagraphMoved moved more than one paragraph of %q", a.Title)
		}
	}
}

func TestApplyRewritten(t *testing.T) {
	n := mustNovel(t)
	rng := newRand(16)
	var fractions []float64
	for _, a := range editCases(t) {
		got := n.Apply(rng, a, corpus.Rewritten)
		if got.Title != a.Title {
			t.Errorf("Rewritten changed the title %q to %q", a.Title, got.Title)
		}
		before, after := paragraphsOf(a.Body), paragraphsOf(got.Body)
		if len(after) != len(before) {
			t.Fatalf("Rewritten: %d paragraphs, want %d", len(after), len(before))
		}
		flat := slices.Concat(before...)
		total, replaced, count := 0, 0, 0
		for i := range before {
			if len(after[i]) != len(before[i]) {
				t.Fatalf("Rewritten: paragraph %d has %d sentences, want %d", i, len(after[i]), len(before[i]))
			}
			for j, s := range before[i] {
				total += runes(s)
				if after[i][j] == s {
					continue
				}
				replaced += runes(s)
				count++
				if r := after[i][j]; !n.Contains(r) || slices.Contains(flat, r) {
					t.Errorf("Rewritten put %q, not a sentence from elsewhere in the novel", r)
				}
			}
		}
		if len(flat) == 1 {
			if got != a {
				t.Errorf("Rewritten changed a one-sentence article")
			}
			continue
		}
		if count == 0 || count == len(flat) {
			t.Errorf("Rewritten replaced %d of %d sentences", count, len(flat))
		}
		f := float64(replaced) / float64(total)
		fractions = append(fractions, f)
		// Sentences are whole, so a short body cannot always land on 20%.
		if count > 1 && f > 0.25 {
			t.Errorf("Rewritten replaced %.0f%% of %q's runes, want about 20%%", 100*f, a.Title)
		}
	}
	slices.Sort(fractions)
	median := fractions[len(fractions)/2]
	t.Logf("replaced share: min %.2f, median %.2f, max %.2f", fractions[0], median, fractions[len(fractions)-1])
	if median < 0.15 || median > 0.25 {
		t.Errorf("median replaced share %.2f, want about 0.20", median)
	}
}

func TestApplyBoilerplate(t *testing.T) {
	n := mustNovel(t)
	rng := newRand(17)
	seen := make(map[string]bool)
	for _, a := range editCases(t) {
		got := n.Apply(rng, a, corpus.Boilerplate)
		if got.Title != a.Title {
			t.Errorf("Boilerplate changed the title %q to %q", a.Title, got.Title)
		}
		i := strings.Index(got.Body, "\n"+a.Body+"\n")
		if i < 0 {
			t.Fatalf("Boilerplate body does not hold the original body between lines of its own:\n%s", got.Body)
		}
		header, footer := got.Body[:i], got.Body[i+len(a.Body)+2:]
		if header == "" || footer == "" {
			t.Errorf("Boilerplate header %q, footer %q: want both", header, footer)
		}
		added := runes(strings.ReplaceAll(header+footer, "\n", ""))
		if added < 100 || added > 300 {
			t.Errorf("Boilerplate added %d runes, want 100–300", added)
		}
		for _, l := range strings.Split(header+"\n"+footer, "\n") {
			seen[strings.TrimRightFunc(l, unicode.IsDigit)] = true
		}
	}
	if len(seen) < 30 {
		t.Errorf("Boilerplate used only %d different lines, want a varied set", len(seen))
	}
}

func TestApplyHeadlineChanged(t *testing.T) {
	n := mustNovel(t)
	rng := newRand(18)
	for _, a := range editCases(t) {
		got := n.Apply(rng, a, corpus.HeadlineChanged)
		if got.Body != a.Body {
			t.Errorf("HeadlineChanged changed the body of %q", a.Title)
		}
		if got.Title == a.Title {
			t.Errorf("HeadlineChanged kept the title %q", a.Title)
		}
		if r := runes(got.Title); r < 8 || r > 24 {
			t.Errorf("HeadlineChanged title %q has %d runes, want 8–24", got.Title, r)
		}
	}
}

func TestApplyUnknownEdit(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error(`Apply(…, "reversed") did not panic`)
		}
	}()
	mustNovel(t).Apply(newRand(1), corpus.Article{Title: "标题", Body: "正文。"}, "reversed")
}

// Every Edit changes an article of several paragraphs.
func TestAllEditsChange(t *testing.T) {
	n := mustNovel(t)
	rng := newRand(19)
	for _, a := range n.Originals(rng, 20, 800, 2000) {
		for _, e := range corpus.AllEdits {
			if got := n.Apply(rng, a, e); got == a {
				t.Errorf("Apply(%s) left %q unchanged", e, a.Title)
			}
		}
	}
}

// TestNovelHasNoRepeat checks that the novel as loaded never repeats a run
// of sentences: the file in gojieba's module repeats its last ~31,000
// characters, and LoadNovel leaves them out.
func TestNovelHasNoRepeat(t *testing.T) {
	n := mustNovel(t)
	if n.DroppedSentences() == 0 {
		t.Error("LoadNovel dropped no sentence, but the file repeats its tail")
	}
	seen := make(map[string]bool)
	run := 0
	for i, s := range n.Sentences() {
		if seen[s] && len([]rune(s)) > 6 {
			if run++; run >= 5 {
				t.Fatalf("sentences %d–%d repeat earlier ones: %q", i-run+1, i, s)
			}
		} else {
			run = 0
		}
		seen[s] = true
	}
	t.Logf("%d sentences, %d runes; %d repeated sentences left out", len(n.Sentences()), n.Runes(), n.DroppedSentences())
}
