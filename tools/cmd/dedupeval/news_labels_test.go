package main

import (
	"strings"
	"testing"
)

// testStories are short stories written for the tests, distinct from each
// other.
var testStories = []string{
	"市里新建的图书馆今天向读者开放，馆内藏书二十万册，每天开放十二个小时。馆长说，周末还会举办面向儿童的读书会。",
	"山区的果农这几天忙着采摘苹果，今年雨水充足，收成比去年好得多。合作社已经和三家超市签下了供货合同。",
	"一场寒潮将在周末影响北方地区，气温预计下降八到十度。气象台提醒市民及时添衣，出行注意防滑。",
	"本地足球队昨晚在主场以二比一战胜对手，两个进球都来自下半场。主教练赛后表示，球队的防守还有进步空间。",
	"新开通的地铁线路连接城东和城西，全程四十分钟。开通首日，不少市民专门来体验，车厢里十分热闹。",
	"一家老字号点心铺重新装修后开业，门口排起了长队。店主说，配方没有变，只是把后厨换成了开放式。",
}

func labelsOf(bodies, titles []string) *labels {
	c := make([]string, len(bodies))
	tc := make([]string, len(bodies))
	g := make([]gramSet, len(bodies))
	for i := range bodies {
		c[i], tc[i] = compact(bodies[i]), compact(titles[i])
		g[i] = gramsOf(c[i])
	}
	return buildLabels(g, c, tc, 2)
}

// The pairs are found and told apart: identical bodies (under the same and
// another headline), a near-identical body, a partial copy; unrelated
// stories are no pair at all.
func TestBuildLabels(t *testing.T) {
	t.Parallel()
	base := testStories[0] + testStories[1] + testStories[2]
	bodies := []string{
		base, // 0
		base, // 1: identical, same title
		base, // 2: identical, other title
		base + "编辑说，这条消息有所更新。", // 3: near-identical
		testStories[0], // 4: a third of 0: partial
		testStories[3], // 5: unrelated to all
		strings.Replace(testStories[4], "四十", "五十", 1), // 6: unrelated to all
	}
	titles := []string{"甲", "甲", "乙", "丙", "丁", "戊", "己"}
	l := labelsOf(bodies, titles)

	want := map[[2]int]pairKind{
		{0, 1}: kindIdentical, {0, 2}: kindIdentical, {1, 2}: kindIdentical,
		{0, 3}: kindNearIdentical, {1, 3}: kindNearIdentical, {2, 3}: kindNearIdentical,
		{0, 4}: kindPartial, {1, 4}: kindPartial, {2, 4}: kindPartial, {3, 4}: kindPartial,
	}
	for i := range bodies {
		for j := i + 1; j < len(bodies); j++ {
			p, ok := l.of(i, j)
			k, wanted := want[[2]int{i, j}]
			switch {
			case ok != wanted:
				t.Errorf("pair (%d, %d) labelled: %v, want %v", i, j, ok, wanted)
			case ok && p.kind() != k:
				t.Errorf("pair (%d, %d) is kind %d (%+v), want %d", i, j, p.kind(), p, k)
			}
		}
	}
	if p, _ := l.of(0, 1); !p.SameTitle {
		t.Errorf("pair (0, 1) has the same title, labelled %+v", p)
	}
	if p, _ := l.of(0, 2); p.SameTitle || classOf(p) != classIdenticalOtherTitle {
		t.Errorf("pair (0, 2) has another title, labelled %+v (%s)", p, classOf(p))
	}
	if p, _ := l.of(2, 0); p.A != 0 || p.B != 2 {
		t.Errorf("of(2, 0) = %+v, want the pair (0, 2)", p)
	}
}
