package ui_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestSearchPageGroupsByCluster: 洪水 finds a story with four copies and
// another story; the page lists two clusters, the story's first (its
// latest copy is the newest headline) with its five articles under it,
// each linking into it, and says so in Chinese; a hostile headline found
// stays text.
func TestSearchPageGroupsByCluster(t *testing.T) {
	t.Parallel()
	s := newStackWith(t, dbtest.URL(t), handlers.Config{})
	flood := samples.Stories[0]
	day := time.Date(2026, 6, 18, 8, 0, 0, 0, time.UTC)
	head := s.ingestAt(t, "xinhua", "f-0", flood.Title, flood.Body, day)
	for i := 1; i <= 4; i++ {
		s.ingestAt(t, fmt.Sprintf("portal-%d", i), fmt.Sprintf("f-%d", i), flood.Title, flood.Repost(), day.Add(time.Duration(i)*time.Hour))
	}
	other := s.ingestAt(t, "cctv", "o-0", "洪水过后<script>alert(1)</script>重建", samples.Stories[1].Body, day.Add(150*time.Minute))

	b := s.browser(t)
	b.lang = "zh-CN"
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	p := b.get("/ui/search?q=" + url.QueryEscape("洪水"))
	wantStatus(t, "search", p, http.StatusOK)
	groups := regexp.MustCompile(`(?s)<tbody class="group" id="g(\d+)">(.*?)</tbody>`).FindAllStringSubmatch(p.body, -1)
	if len(groups) != 2 || groups[0][1] != fmt.Sprint(head.ID) || groups[1][1] != fmt.Sprint(other.ID) {
		t.Fatalf("groups %d, want clusters %d then %d:\n%s", len(groups), head.ID, other.ID, p.body)
	}
	links := regexp.MustCompile(`class="story headline" href="/ui/clusters/(\d+)`).FindAllStringSubmatch(groups[0][2], -1)
	if len(links) != 5 {
		t.Errorf("the story's group lists %d articles, want 5", len(links))
	}
	for _, l := range links {
		if l[1] != fmt.Sprint(head.ID) {
			t.Errorf("an article of the story's group links to cluster %s", l[1])
		}
	}
	if !strings.Contains(groups[0][2], "（5 篇）") || !strings.Contains(groups[0][2], "找到其中 5 篇") || !strings.Contains(p.body, "分属 2 个稿件组") {
		t.Errorf("the groups do not say their sizes in Chinese:\n%s", groups[0][2])
	}
	if strings.Contains(p.body, "<script>alert(1)") || !strings.Contains(groups[1][2], "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("the hostile headline is not escaped:\n%s", groups[1][2])
	}
}
