package ui_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestClusterTimeline: a story published at 08:00 and copied at 08:20,
// 09:10, 09:40 and 12:30 draws five hourly bars of 2, 2, 0, 0 and 1, each
// stacked by source, with its sources' counts in the figures and a hostile
// source's name as text; a copy a month later widens the bars (at most 96)
// and keeps every member; a member's id is no cluster (404).
func TestClusterTimeline(t *testing.T) {
	t.Parallel()
	s := newStackWith(t, dbtest.URL(t), handlers.Config{})
	st := samples.Stories[0]
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC) // 08:00 in Beijing, the page's zone
	head := s.ingestAt(t, "xinhua", "x-1", st.Title, st.Body, day)
	var copies []int64
	for i, c := range []struct {
		source string
		after  time.Duration
	}{{"portal", 20 * time.Minute}, {"portal", 70 * time.Minute}, {`<b>evil</b>`, 100 * time.Minute}, {"sina", 270 * time.Minute}} {
		v := s.ingestAt(t, c.source, fmt.Sprintf("c-%d", i), st.Title, st.Repost(), day.Add(c.after))
		if v.ClusterID != head.ID {
			t.Fatalf("copy %d is in cluster %d, want %d", i, v.ClusterID, head.ID)
		}
		copies = append(copies, v.ID)
	}

	b := s.browser(t)
	b.lang = "zh-CN"
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	cluster := b.get(fmt.Sprintf("/ui/clusters/%d", head.ID))
	wantStatus(t, "cluster", cluster, http.StatusOK)
	if !strings.Contains(cluster.body, fmt.Sprintf(`href="/ui/clusters/%d/timeline"`, head.ID)) {
		t.Error("the cluster page does not link to its timeline")
	}
	bars := func(body string) (totals []int, froms []string) {
		for _, m := range regexp.MustCompile(`<g class="bar" data-from="([^"]+)" data-total="(\d+)">`).FindAllStringSubmatch(body, -1) {
			n, _ := strconv.Atoi(m[2])
			totals, froms = append(totals, n), append(froms, m[1])
		}
		return totals, froms
	}
	p := b.get(fmt.Sprintf("/ui/clusters/%d/timeline", head.ID))
	wantStatus(t, "timeline", p, http.StatusOK)
	totals, froms := bars(p.body)
	if fmt.Sprint(totals) != "[2 2 0 0 1]" || len(froms) == 0 || froms[0] != "2026-06-18T00:00:00Z" {
		t.Errorf("bars %v from %v, want [2 2 0 0 1] from 2026-06-18T00:00:00Z", totals, froms)
	}
	if n := strings.Count(p.body, `<rect class="src`); n != 5 {
		t.Errorf("%d stacked parts, want 5 (xinhua and portal, portal and the hostile source, sina)", n)
	}
	if !strings.Contains(p.body, "稿件组 "+strconv.FormatInt(head.ID, 10)+" 的时间线") || !strings.Contains(p.body, "共 5 篇") {
		t.Errorf("the page does not say its title and count in Chinese")
	}
	if strings.Contains(p.body, "<b>evil</b>") || !strings.Contains(p.body, "&lt;b&gt;evil&lt;/b&gt; 1") {
		t.Errorf("the hostile source is not shown as text")
	}
	if !strings.Contains(p.body, "portal 1、xinhua 1") && !strings.Contains(p.body, "portal 1、&lt;b&gt;evil") {
		t.Errorf("the figures do not list each bar's sources")
	}

	// A month later: wider bars, every member still counted.
	s.ingestAt(t, "late", "c-late", st.Title, st.Repost(), day.Add(30*24*time.Hour+4*time.Hour))
	p = b.get(fmt.Sprintf("/ui/clusters/%d/timeline", head.ID))
	wantStatus(t, "timeline after a month", p, http.StatusOK)
	totals, _ = bars(p.body)
	sum := 0
	for _, n := range totals {
		sum += n
	}
	if len(totals) > 96 || len(totals) < 30 || sum != 6 || totals[0] != 5 {
		t.Errorf("after a month: %d bars summing to %d, the first %v; want 30 to 96 bars, 6 members, the first day's 5 in the first", len(totals), sum, totals[:1])
	}
	if !strings.Contains(p.body, "每根柱子 12 小时") {
		t.Errorf("a life of 724 hours is not drawn in 12-hour bars")
	}

	wantStatus(t, "a member's timeline", b.get(fmt.Sprintf("/ui/clusters/%d/timeline", copies[0])), http.StatusNotFound)
}
