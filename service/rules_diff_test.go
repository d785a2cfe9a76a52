package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// spell returns the text the runs spell with the runs of kind skip left out.
func spell(runs []DiffRun, skip DiffKind) string {
	var b strings.Builder
	for _, r := range runs {
		if r.Kind != skip {
			b.WriteString(r.Text)
		}
	}
	return b.String()
}

func TestDiffSpellsBothTexts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ from, to string }{
		{"", ""},
		{"", "新华社北京电"},
		{"长江中下游启动洪水防御四级应急响应。", ""},
		{"长江中下游启动洪水防御四级应急响应。", "【搜狐新闻】长江中下游启动洪水防御四级应急响应。"},
		{"The flood response starts today.", "The flood response started yesterday."},
		{"第一段。\n第二段。\n第三段。", "第一段。\n第三段。\n（责任编辑：王芳）"},
		{"长江中下游启动洪水防御四级应急响应。第二句。", "【搜狐新闻】长江中下游启动洪水防御四级应急响应。"},
	} {
		runs := Diff(c.from, c.to)
		if got := spell(runs, DiffInsert); got != c.from {
			t.Errorf("Diff(%q, %q) without insertions = %q, want the first text", c.from, c.to, got)
		}
		if got := spell(runs, DiffDelete); got != c.to {
			t.Errorf("Diff(%q, %q) without deletions = %q, want the second text", c.from, c.to, got)
		}
		for i := 1; i < len(runs); i++ {
			if runs[i].Kind == runs[i-1].Kind {
				t.Errorf("Diff(%q, %q): runs %d and %d are of the same kind", c.from, c.to, i-1, i)
			}
		}
	}
}

func TestDiffMarksTheChange(t *testing.T) {
	t.Parallel()
	runs := Diff("长江中下游启动洪水防御四级应急响应。", "【搜狐新闻】长江中下游启动洪水防御四级应急响应。")
	want := []DiffRun{{DiffInsert, "【搜狐新闻】"}, {DiffEqual, "长江中下游启动洪水防御四级应急响应。"}}
	if len(runs) != len(want) || runs[0] != want[0] || runs[1] != want[1] {
		t.Errorf("Diff with a byline added = %+v, want %+v", runs, want)
	}
	// English is diffed by words: a changed word is replaced whole.
	runs = Diff("The response starts today.", "The response starts tomorrow.")
	if got := spell(runs, DiffEqual); !strings.Contains(got, "today") || !strings.Contains(got, "tomorrow") {
		t.Errorf("Diff of a changed English word changes %q, want today and tomorrow whole", got)
	}
}

func TestDiffer(t *testing.T) {
	t.Parallel()
	para := func(s string, n int) string { return strings.Repeat(s, n) }
	p1 := "国家防总决定启动洪水防御四级应急响应，派出工作组赴一线指导防汛工作。"
	p2 := "气象部门预计未来三天长江中下游仍有强降雨，部分河段水位将超过警戒线。"
	p3 := "水利部要求各地加强巡查防守，做好人员转移避险准备，确保群众生命安全。"
	p4 := "据了解，今年入汛以来全国已有多条河流发生超警洪水，防汛形势依然严峻。"
	orig := strings.Join([]string{p1, p2, p3, p4}, "\n")
	for _, c := range []struct {
		name      string
		title, to string
		want      Difference
	}{
		{"same", "标题", orig, Difference{Same: true}},
		{"byline", "标题", "【搜狐新闻】" + orig, Difference{BylineAdded: true}},
		{"editor's line", "标题", orig + "\n（责任编辑：王芳）", Difference{BylineAdded: true}},
		{"headline", "新标题", orig, Difference{HeadlineChanged: true}},
		{"first half", "标题", strings.Join([]string{p1, p2}, "\n"), Difference{FirstPercent: 50}},
		{"byline and first half", "标题", "【搜狐新闻】" + strings.Join([]string{p1, p2}, "\n"), Difference{BylineAdded: true, FirstPercent: 50}},
		{"paragraph dropped", "标题", strings.Join([]string{p1, p3, p4}, "\n"), Difference{ParagraphsDropped: 1}},
		{"paragraph added", "标题", strings.Join([]string{p1, p2, "记者在现场看到，抢险队员正在加固堤坝，附近村民已经有序转移到安置点。", p3, p4}, "\n"),
			Difference{ParagraphsAdded: 1}},
		{"boilerplate", "标题", orig + "\n" + para("Follow us on WeChat for more news every day. ", 4), Difference{BoilerplateAdded: 144}},
		{"a word", "标题", strings.Replace(orig, "三天", "五天", 1), Difference{OtherEdits: 2}},
	} {
		got := Differ("标题", orig, c.title, c.to)
		if got != c.want {
			t.Errorf("%s: Differ = %+v, want %+v", c.name, got, c.want)
		}
	}
}

// A byline the original had and the copy dropped is told from one added.
func TestDifferBylineRemoved(t *testing.T) {
	t.Parallel()
	body := "国家防总决定启动洪水防御四级应急响应，派出工作组赴一线指导防汛工作。\n气象部门预计未来三天长江中下游仍有强降雨。"
	for _, c := range []struct {
		name     string
		from, to string
		want     Difference
	}{
		{"byline removed", "本报记者 李立\n" + body, body, Difference{BylineRemoved: true}},
		{"credit removed", body + "\n来源：北京晚报", body, Difference{BylineRemoved: true}},
		{"byline removed, promo added", "本报记者 李立\n" + body, body + "\n关注我们，获取更多资讯", Difference{BylineRemoved: true, BylineAdded: true}},
		{"byline added", body, "【搜狐新闻】" + body, Difference{BylineAdded: true}},
	} {
		if got := Differ("标题", c.from, "标题", c.to); got != c.want {
			t.Errorf("%s: Differ = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestOriginalOf(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 11, 5, 7, 9, 0, 0, time.UTC)
	m := func(id int64, minutes int) KeepCandidate {
		return KeepCandidate{ID: id, ClusterID: 1, PublishedAt: day.Add(time.Duration(minutes) * time.Minute)}
	}
	digest := m(4, -600)
	digest.Status, digest.Coverage = StatusPartialDuplicate, Coverage{This: 0.3, That: 0.95}
	for _, c := range []struct {
		name    string
		members []KeepCandidate
		want    int64
	}{
		{"alone", []KeepCandidate{m(1, 0)}, 1},
		{"published first, ingested later", []KeepCandidate{m(1, 180), m(2, 0), m(3, 60)}, 2},
		{"same time: lowest id", []KeepCandidate{m(3, 0), m(2, 0)}, 2},
		{"a digest published earlier is not the original", []KeepCandidate{m(1, 0), m(2, 30), digest}, 1},
		{"only digests", []KeepCandidate{digest}, 4},
	} {
		got := originalOf(c.members)
		if got.ID != c.want || got.Copies != len(c.members)-1 {
			t.Errorf("%s: originalOf = %+v, want id %d with %d copies", c.name, got, c.want, len(c.members)-1)
		}
	}
}

// TestDiffBounded: texts that repeat one word, whose diff cost go-diff a
// minute of CPU before its timeout applied (issue 44), are diffed within
// the test's deadline; the runs spell both texts' starts, and say they were
// truncated; a context that is done stops the diff.
func TestDiffBounded(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	long := func(n int) (string, string) { return hostilePair(n) }
	for _, n := range []int{3000, 30000, 480000} {
		from, to := long(n)
		type result struct {
			d   TextDiff
			err error
		}
		done := make(chan result, 1)
		go func() {
			d, err := DiffWithin(ctx, from, to)
			done <- result{d, err}
		}()
		var r result
		select {
		case r = <-done:
		case <-ctx.Done():
			t.Fatalf("the diff of %d repeated characters did not finish within the test's deadline", n)
		}
		if r.err != nil {
			t.Fatalf("DiffWithin of %d characters: %v", n, r.err)
		}
		gotFrom, gotTo := spell(r.d.Runs, DiffInsert), spell(r.d.Runs, DiffDelete)
		if long := utf8.RuneCountInString(from) > MaxDiffRunes; r.d.Truncated != long {
			t.Errorf("DiffWithin of %d characters: truncated %v, want %v", n, r.d.Truncated, long)
		}
		if !strings.HasPrefix(from, gotFrom) || !strings.HasPrefix(to, gotTo) ||
			(!r.d.Truncated && (gotFrom != from || gotTo != to)) {
			t.Errorf("DiffWithin of %d characters: runs spell %d and %d characters, not the texts' starts", n, len(gotFrom), len(gotTo))
		}
		if r.d.Truncated && (utf8.RuneCountInString(gotFrom) > MaxDiffRunes || utf8.RuneCountInString(gotTo) > MaxDiffRunes) {
			t.Errorf("DiffWithin of %d characters: runs spell %d and %d characters, more than MaxDiffRunes", n,
				utf8.RuneCountInString(gotFrom), utf8.RuneCountInString(gotTo))
		}
	}

	canceled, stop := context.WithCancel(context.Background())
	stop()
	from, to := long(480000)
	if d, err := DiffWithin(canceled, from, to); !errors.Is(err, context.Canceled) || d.Runs != nil {
		t.Errorf("DiffWithin with a canceled context = %d runs, %v; want none, context.Canceled", len(d.Runs), err)
	}
}

// TestDiffLongTexts: long texts diffed by units then by tokens still mark
// what changed where it changed, and spell both texts.
func TestDiffLongTexts(t *testing.T) {
	t.Parallel()
	var paras []string
	for i := range 300 {
		paras = append(paras, fmt.Sprintf("第%d段：国家防总决定启动洪水防御四级应急响应，派出工作组赴一线指导防汛工作。", i))
	}
	from := strings.Join(paras, "\n")
	edited := slices.Clone(paras)
	edited[40] = "记者在现场看到，抢险队员正在加固堤坝。"
	edited = slices.Delete(edited, 200, 201)
	to := "【搜狐新闻】" + strings.Join(edited, "\n")
	d, err := DiffWithin(context.Background(), from, to)
	if err != nil {
		t.Fatal(err)
	}
	if d.Truncated || spell(d.Runs, DiffInsert) != from || spell(d.Runs, DiffDelete) != to {
		t.Fatalf("DiffWithin of %d characters: truncated %v or the runs do not spell the texts", utf8.RuneCountInString(from), d.Truncated)
	}
	changed := spell(d.Runs, DiffEqual)
	if n := utf8.RuneCountInString(changed); n > 200 || !strings.Contains(changed, "抢险队员") || !strings.Contains(changed, "200") {
		t.Errorf("DiffWithin changes %d characters (%.80q…), want the byline, paragraph 40 and paragraph 200", n, changed)
	}
}

// TestDifferTruncated: a copy of a text longer than MaxDiffRunes is compared
// in its start, and the difference says it was truncated: a byline before
// it is seen; its end is judged when one text was compared whole (a copy
// that stops early, one with much added), not otherwise.
func TestDifferTruncated(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := 0; b.Len() < 3*(MaxDiffRunes+5000); i++ {
		fmt.Fprintf(&b, "第%d句：国家防总决定启动洪水防御四级应急响应，编号%d。\n", i, i)
	}
	orig := b.String()
	half := orig[:strings.Index(orig[len(orig)/2:], "\n")+len(orig)/2+1]
	for _, c := range []struct {
		name string
		to   string
		want Difference
	}{
		{"with a byline, cut in half", "【搜狐新闻】" + half, Difference{BylineAdded: true, FirstPercent: 50, Truncated: true}},
		{"its first 90 %", orig[:strings.LastIndex(orig[:len(orig)*9/10], "\n")+1], Difference{FirstPercent: 90}},
		{"a word changed early", strings.Replace(orig, "第3句：国家", "第3句：我国", 1), Difference{OtherEdits: 2}},
	} {
		if got := Differ("标题", orig, "标题", c.to); got != c.want {
			t.Errorf("Differ of a long text %s = %+v, want %+v", c.name, got, c.want)
		}
	}
	// The characters past the window are counted with the line breaks
	// between them.
	got := Differ("标题", orig, "标题", orig+strings.ReplaceAll(orig, "第", "另"))
	if got.BoilerplateAdded < visible(orig) || got.BoilerplateAdded > utf8.RuneCountInString(orig) || !got.Truncated ||
		got.OtherEdits+got.ParagraphsAdded+got.ParagraphsDropped > 0 {
		t.Errorf("Differ of a long text with as much added = %+v, want %d to %d characters of boilerplate added, truncated",
			got, visible(orig), utf8.RuneCountInString(orig))
	}
	if got := Differ("标题", orig, "标题", orig); got != (Difference{Same: true}) {
		t.Errorf("Differ of a long text and itself = %+v, want the same", got)
	}
}

// A copy that drops the original's byline, before a text that begins with
// the byline's first character, is told as a byline removed: the shared
// start does not split the byline from its line.
func TestDifferBylineBeforeTheSameCharacter(t *testing.T) {
	body := "本市轨道交通七号线今天上午全线开通运营，线路全长四十二公里，设车站二十六座。\n据介绍，七号线采用全自动无人驾驶技术，列车最高运行速度每小时一百公里。"
	d := Differ("", "本报记者 李立\n"+body, "", body)
	if !d.BylineRemoved || d.OtherEdits != 0 {
		t.Errorf("Differ(byline + text, text) = %+v, want the byline removed and nothing else", d)
	}
}
