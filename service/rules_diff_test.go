package service

import (
	"strings"
	"testing"
	"time"
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
