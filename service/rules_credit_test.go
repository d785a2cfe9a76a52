package service_test

import (
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/service"
)

func TestClassifyCredit(t *testing.T) {
	t.Parallel()
	const story = "北京市今天发布新的交通管理措施，自下月起中心城区部分道路实行单向通行。\n市交通委表示，新措施将缓解早晚高峰拥堵，市民可通过官方渠道查询路线。\n"
	bjwb := service.CreditSide{Names: []string{"bjwb", "bjwb", "北京晚报", "北晚新视觉"}, Title: "中心城区部分道路将单向通行",
		Body: "本报记者 李立\n" + story}
	xinhua := service.CreditSide{Names: []string{"xinhua", "xinhua", "新华社", "新华网"}, Title: "新华社电",
		Body: "新华社北京3月1日电（记者 王芳）" + story}
	xinhua2 := service.CreditSide{Names: []string{"xinhua"}, Body: story + "　　新华社记者王浩明、李立"}
	sohu := []string{"sohu-news", "sohu", "搜狐", "搜狐网"}
	for _, tc := range []struct {
		name     string
		original service.CreditSide
		copy     string
		want     service.Credit
	}{
		{"credited by name", bjwb, story + "来源：北京晚报", service.CreditCredited},
		{"credited by another of its names", bjwb, story + "（转自：北晚新视觉网）", service.CreditCredited},
		{"credited by 据…报道", bjwb, "据北京晚报报道，" + story, service.CreditCredited},
		{"credited by byline", bjwb, "记者 李立\n" + story, service.CreditCredited},
		{"credited by a byline line without a space", xinhua2, story + "　　新华社记者王浩明、李立", service.CreditCredited},
		{"stripped byline line without a space", xinhua2, story, service.CreditUncredited},
		{"a name ending in 文 before a colon is no byline", service.CreditSide{Names: []string{"xinhua"}, Body: "叶诗文：我不想留下遗憾\n" + story}, "叶诗文：我不想留下遗憾\n" + story, service.CreditUncredited},
		{"credited by 文｜ byline", service.CreditSide{Names: []string{"xinhua"}, Body: "文｜李立\n" + story}, "文｜李立\n" + story, service.CreditCredited},
		{"记者 in running text is no byline", service.CreditSide{Names: []string{"xinhua"}, Body: story + "记者了解到，措施已获批准。"}, story + "记者了解到，措施已获批准。", service.CreditUncredited},
		{"credited by 原标题", bjwb, story + "原标题：中心城区部分道路将单向通行", service.CreditCredited},
		{"credited by an agency's dateline", xinhua, "新华社北京3月1日电 " + story, service.CreditCredited},
		{"credits the original's own credit", service.CreditSide{Names: []string{"qq"}, Body: story + "来源：北京晚报"}, story + "来源：北京晚报", service.CreditCredited},
		{"credits another", bjwb, story + "来源：新京报", service.CreditCreditsOther},
		{"credits another by 据…报道", bjwb, "据人民日报报道，" + story, service.CreditCreditsOther},
		{"stripped byline", bjwb, story, service.CreditUncredited},
		{"stripped byline, promo line added", bjwb, story + "关注搜狐新闻，获取更多精彩内容！", service.CreditUncredited},
		{"own byline instead of the original's", bjwb, "搜狐记者 张三\n" + story, service.CreditUncredited},
		{"credits itself only", bjwb, story + "来源：搜狐网", service.CreditUncredited},
		{"another author's byline", bjwb, "记者 赵四\n" + story, service.CreditUncredited},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := service.ClassifyCredit(tc.original, service.CreditSide{Names: sohu, Body: tc.copy})
			if got != tc.want {
				t.Errorf("ClassifyCredit(%q) = %q, want %q", tc.copy, got, tc.want)
			}
		})
	}
}

func TestParseSources(t *testing.T) {
	t.Parallel()
	in := "# known sources\n\nxinhua owner=xinhua 新华社,新华网\ncctv-news 央视新闻， 央视网\nbjwb owner=bjd 北京晚报\n"
	got, err := service.ParseSources(strings.NewReader(in))
	if err != nil {
		t.Fatalf("ParseSources: %v", err)
	}
	want := []service.SourceInfo{
		{Source: "xinhua", Owner: "xinhua", Names: []string{"新华社", "新华网"}},
		{Source: "cctv-news", Owner: "cctv", Names: []string{"央视新闻", "央视网"}},
		{Source: "bjwb", Owner: "bjd", Names: []string{"北京晚报"}},
	}
	if len(got) != len(want) {
		t.Fatalf("ParseSources = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Source != want[i].Source || got[i].Owner != want[i].Owner || strings.Join(got[i].Names, "|") != strings.Join(want[i].Names, "|") {
			t.Errorf("ParseSources[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := service.ParseSources(strings.NewReader("a x\na y\n")); err == nil {
		t.Error("ParseSources of a source listed twice: no error")
	}
	srcs := map[string]service.SourceInfo{"bjwb": {Source: "bjwb", Owner: "bjd"}}
	for src, want := range map[string]string{"bjwb": "bjd", "cctv-news": "cctv", "sohu": "sohu", "-x": "-x"} {
		if got := service.SourceOwner(srcs, src); got != want {
			t.Errorf("SourceOwner(%q) = %q, want %q", src, got, want)
		}
	}
}
