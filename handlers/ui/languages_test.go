package ui_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/service"
)

// messageID is what a message's id looks like, should a page show one
// instead of its text.
var messageID = regexp.MustCompile(`\b(verdict|rule|action|sort|match|status|error|list|col|filter|overview|chart|search|kept|side|fold|split|signin|reason|policy|notice|zone|lang|cluster|decisions)\.[a-z0-9_.]+\b`)

// TestLanguages: the page is in Simplified Chinese unless the browser
// prefers English or the editor chose it with the switch; every page is in
// the chosen language, with its times in the editors' zone (Beijing time
// by default): a story published at 23:09 UTC on 4 November shows as
// 2026-11-05 07:09, and the date filter finds it on 5 November.
func TestLanguages(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	ctx := context.Background()
	st := samples.Stories[0]
	ingest := func(source, id, body string, published time.Time) service.Verdict {
		t.Helper()
		v, err := s.svc.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: st.Title, Body: body}, ExternalID: id, Source: source,
			URL: "https://news.example.com/" + id, PublishedAt: published}, s.svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	published := time.Date(2026, 11, 4, 23, 9, 0, 0, time.UTC)
	head := ingest("xinhua", "x-1", st.Body, published)
	repost := ingest("portal", "w-1", st.Repost(), published.Add(time.Hour))
	if repost.ClusterID != head.ID {
		t.Fatalf("the repost is in cluster %d, want %d", repost.ClusterID, head.ID)
	}
	cluster := fmt.Sprintf("/ui/clusters/%d", head.ID)

	zh := s.browser(t)
	zh.lang = "zh-CN,zh;q=0.9"
	wantStatus(t, "sign in", zh.signIn("王芳", "k1"), http.StatusSeeOther)
	pages := []string{"/ui/", "/ui/?from=2026-11-05&to=2026-11-05", cluster, cluster + "/split?article=" + fmt.Sprint(repost.ID),
		"/ui/search?q=" + url.QueryEscape("防御 长江 zzz"), "/ui/clusters/999999", "/ui/?min_size=x"}
	for _, lang := range []struct {
		accept, html string
		words        []string
	}{
		{"zh-CN,zh;q=0.9", "zh-Hans", []string{"稿件组", "北京时间", "退出"}},
		{"", "zh-Hans", []string{"稿件组", "北京时间"}},
		{"de-DE,fr;q=0.8", "zh-Hans", []string{"稿件组"}},
		{"en-GB,en;q=0.9,zh;q=0.5", "en", []string{"Cluster", "Beijing time", "Sign out"}},
	} {
		zh.lang = lang.accept
		if lang.accept == "" {
			zh.lang = " "
		}
		for _, path := range pages {
			p := zh.get(path)
			if p.status >= 500 {
				t.Fatalf("%s in %q: status %d\n%s", path, lang.accept, p.status, p.body)
			}
			if !strings.Contains(p.body, `<html lang="`+lang.html+`">`) {
				t.Errorf("%s with Accept-Language %q: not in %s", path, lang.accept, lang.html)
			}
			for _, w := range lang.words {
				if !strings.Contains(p.body, w) {
					t.Errorf("%s with Accept-Language %q: no %q", path, lang.accept, w)
				}
			}
			if id := messageID.FindString(p.body); id != "" {
				t.Errorf("%s in %s shows the message id %q", path, lang.html, id)
			}
		}
	}

	zh.lang = "zh-CN"
	c := zh.get(cluster)
	for _, want := range []string{"2026-11-05 07:09", "近似重复", "最先入库", "保留此篇", "并排对比"} {
		if !strings.Contains(c.body, want) {
			t.Errorf("the Chinese cluster page lacks %q", want)
		}
	}
	if strings.Contains(c.body, "2026-11-04 23:09") || strings.Contains(c.body, "near_duplicate<") {
		t.Error("the Chinese cluster page shows a UTC time or a verdict's code name")
	}
	for q, want := range map[string]bool{"from=2026-11-05&to=2026-11-05": true, "from=2026-11-04&to=2026-11-04": false} {
		p := zh.get("/ui/?" + q)
		if got := strings.Contains(p.body, `href="`+cluster+`"`); got != want {
			t.Errorf("the list with %s holds the cluster: %v, want %v", q, got, want)
		}
	}

	// The switch: a cookie, whatever the browser prefers; back to the page.
	p := zh.get("/ui/lang?lang=en&next=" + url.QueryEscape(cluster+"?with="+fmt.Sprint(repost.ID)))
	wantStatus(t, "switch to English", p, http.StatusSeeOther)
	if loc := p.header.Get("Location"); loc != cluster+"?with="+fmt.Sprint(repost.ID) {
		t.Errorf("the switch leads to %s", loc)
	}
	if p := zh.get(cluster); !strings.Contains(p.body, `<html lang="en">`) || !strings.Contains(p.body, "Keep this") {
		t.Error("after switching to English, the page is not English")
	}
	wantStatus(t, "switch back", zh.get("/ui/lang?lang=zh-Hans&next=/ui/"), http.StatusSeeOther)
	if p := zh.get("/ui/"); !strings.Contains(p.body, `<html lang="zh-Hans">`) {
		t.Error("after switching back, the page is not Chinese")
	}
	for path, want := range map[string]int{
		"/ui/lang?lang=fr&next=/ui/":            http.StatusUnprocessableEntity,
		"/ui/lang?lang=en&lang=zh-Hans":         http.StatusUnprocessableEntity,
		"/ui/lang?lang=en&next=//evil.example/": http.StatusSeeOther,
	} {
		p := zh.get(path)
		wantStatus(t, path, p, want)
		if loc := p.header.Get("Location"); want == http.StatusSeeOther && loc != "/ui/" {
			t.Errorf("%s leads to %s, want /ui/", path, loc)
		}
	}
	// The sign-in page speaks the browser's language too.
	anon := s.browser(t)
	anon.lang = "zh-CN"
	if p := anon.get("/ui/signin"); !strings.Contains(p.body, "您的姓名") {
		t.Error("the sign-in page is not in Chinese")
	}
}

// TestSearchLeadsToTheCluster: a headline's words, a CMS id, a key and a
// URL lead straight to the story's cluster, with the article found; words
// found in several clusters give a list.
func TestSearchLeadsToTheCluster(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	head := s.ingest(t, "xinhua", "xwlb-20250715-14481", samples.Stories[0].Title, samples.Stories[0].Body, "https://news.example.com/a/14481.html")
	repost := s.ingest(t, "portal", "w-1", samples.Stories[0].Title+"（图）", samples.Stories[0].Repost(), "https://portal.example.com/w-1")
	other := s.ingest(t, "cctv", "c-1", samples.Stories[1].Title, samples.Stories[1].Body, "")
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", "k1"), http.StatusSeeOther)
	for q, want := range map[string]string{
		"洪水":                                    fmt.Sprintf("/ui/clusters/%d", head.ID),
		"xwlb-20250715-14481":                   fmt.Sprintf("/ui/clusters/%d", head.ID),
		"portal w-1":                            fmt.Sprintf("/ui/clusters/%d?with=%d#m%d", head.ID, repost.ID, repost.ID),
		"portal.example.com/w-1/":               fmt.Sprintf("/ui/clusters/%d?with=%d#m%d", head.ID, repost.ID, repost.ID),
		"HTTPS://news.example.com/a/14481.html": fmt.Sprintf("/ui/clusters/%d", head.ID),
		"七号线":                                   fmt.Sprintf("/ui/clusters/%d", other.ID),
	} {
		p := b.get("/ui/search?q=" + url.QueryEscape(q))
		wantStatus(t, "search "+q, p, http.StatusSeeOther)
		if loc := p.header.Get("Location"); loc != want {
			t.Errorf("search %q leads to %s, want %s", q, loc, want)
		}
	}
	// Words in two clusters: a list of both, each leading to its cluster.
	third := s.ingest(t, "qq", "q-1", "七号线沿线洪水退去", samples.Stories[2].Body, "")
	list := b.get("/ui/search?q=" + url.QueryEscape("七号线"))
	wantStatus(t, "a search that lists", list, http.StatusOK)
	for _, id := range []int64{other.ID, third.ID} {
		if !strings.Contains(list.body, fmt.Sprintf(`href="/ui/clusters/%d"`, id)) {
			t.Errorf("the list of 七号线 does not lead to cluster %d", id)
		}
	}
	for _, path := range []string{"/ui/search?q=", "/ui/search?q=a&q=b", "/ui/search?q=" + strings.Repeat("长", 201)} {
		wantStatus(t, path, b.get(path), http.StatusUnprocessableEntity)
	}
}
