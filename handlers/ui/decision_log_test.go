package ui_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/internal/webhook"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestDecisionLogPage: 王芳 keeps a copy in one cluster with a hostile
// note, 李明 keeps a copy in another; the page across clusters lists both,
// latest first, in Chinese; filtered by editor or action it lists what
// matches, and its downloads (read back with encoding/csv and excelize)
// keep the filters; a bad action is a 422 page naming the field.
func TestDecisionLogPage(t *testing.T) {
	t.Parallel()
	s := newStackWith(t, dbtest.URL(t), handlers.Config{})
	ctx := context.Background()
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	var heads, copies []int64
	for i, st := range samples.Stories[:2] {
		h := s.ingestAt(t, "xinhua", "x"+itoa(int64(i)), st.Title, st.Body, day)
		c := s.ingestAt(t, "portal", "p"+itoa(int64(i)), st.Title, st.Repost(), day.Add(time.Hour))
		heads, copies = append(heads, h.ID), append(copies, c.ID)
	}
	const note = `<img src=x onerror=alert(1)>首发有误`
	if _, err := s.svc.Keep(ctx, heads[0], copies[0], service.DecisionInput{Editor: "王芳", Note: note}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.svc.Keep(ctx, heads[1], copies[1], service.DecisionInput{Editor: "李明"}); err != nil {
		t.Fatal(err)
	}

	b := s.browser(t)
	b.lang = "zh-CN"
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	rows := regexp.MustCompile(`(?s)<tbody>(.*?)</tbody>`)
	editors := func(body string) []string {
		var out []string
		for _, m := range regexp.MustCompile(`<td data-label="编辑">([^<]*)</td>`).FindAllStringSubmatch(rows.FindString(body), -1) {
			out = append(out, m[1])
		}
		return out
	}
	p := b.get("/ui/decisions")
	wantStatus(t, "decisions", p, http.StatusOK)
	if got := editors(p.body); strings.Join(got, ",") != "李明,王芳" {
		t.Errorf("the log lists %v, want 李明's then 王芳's", got)
	}
	if !strings.Contains(p.body, "<h1>编辑决定记录</h1>") || !strings.Contains(p.body, ">保留<") {
		t.Errorf("the page is not in Chinese")
	}
	if strings.Contains(p.body, "<img src=x") || !strings.Contains(p.body, "&lt;img src=x onerror=alert(1)&gt;首发有误") {
		t.Errorf("the hostile note is not shown as text")
	}
	p = b.get("/ui/decisions?editor=" + url.QueryEscape("王芳"))
	wantStatus(t, "王芳's decisions", p, http.StatusOK)
	if got := editors(p.body); strings.Join(got, ",") != "王芳" {
		t.Errorf("王芳's decisions: %v", got)
	}
	if got := editors(b.get("/ui/decisions?action=split").body); len(got) != 0 {
		t.Errorf("splits: %v, want none", got)
	}

	links := regexp.MustCompile(`class="download-(csv|xlsx)" href="([^"]+)"`).FindAllStringSubmatch(p.body, -1)
	if len(links) != 2 {
		t.Fatalf("download links %q", links)
	}
	for _, l := range links {
		d := b.get(strings.ReplaceAll(l[2], "&amp;", "&"))
		wantStatus(t, l[1], d, http.StatusOK)
		var table [][]string
		var err error
		if l[1] == "csv" {
			table, err = csv.NewReader(bytes.NewReader(bytes.TrimPrefix([]byte(d.body), []byte("\xEF\xBB\xBF")))).ReadAll()
		} else {
			var f *excelize.File
			if f, err = excelize.OpenReader(strings.NewReader(d.body)); err == nil {
				table, err = f.GetRows("Sheet1")
				f.Close()
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", l[1], err)
		}
		if len(table) != 2 || table[1][2] != "王芳" || table[1][4] != itoa(heads[0]) || table[1][8] != note {
			t.Errorf("%s: %q, want the header and 王芳's decision with its note", l[1], table)
		}
	}

	bad := b.get("/ui/decisions?action=delete")
	wantStatus(t, "a bad action", bad, http.StatusUnprocessableEntity)
	if !strings.Contains(bad.body, "<code>action</code>") {
		t.Errorf("the 422 page does not name the field")
	}
}

// TestDeliveriesPage: one subscription's receiver refuses with a hostile
// error, another's takes the alert; the page lists both deliveries of the
// copy, delivered and given up, each with its attempts, answer and id;
// failed=true lists the refused one alone. Without alerts the page says
// how to configure them.
func TestDeliveriesPage(t *testing.T) {
	t.Parallel()
	w := &webhook.Worker{Desk: []string{"bjwb"}, MaxAttempts: 1}
	s := newStackWith(t, dbtest.URL(t), handlers.Config{Webhooks: w})
	w.Store = s.st
	st := samples.Stories[2]
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	s.ingestAt(t, "bjwb", "b-1", st.Title, st.Body, day)
	s.ingestAt(t, "toutiao", "t-1", st.Title, st.Body, day.Add(2*time.Hour))
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "<script>alert(1)</script>", http.StatusForbidden)
	}))
	defer refuse.Close()
	take := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer take.Close()
	w.Config = webhook.Config{Subscriptions: []webhook.Subscription{
		{Name: "legal-desk", URL: refuse.URL, Secret: "k", Format: webhook.FormatJSON},
		{Name: "newsroom", URL: take.URL, Secret: "k", Format: webhook.FormatJSON},
	}}
	for range 3 {
		if _, err := w.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}

	b := s.browser(t)
	b.lang = "zh-CN"
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	p := b.get("/ui/deliveries")
	wantStatus(t, "deliveries", p, http.StatusOK)
	states := regexp.MustCompile(`<tr class="(delivered|gave-up|waiting)">\s*<td[^>]*>.*?</td>\s*<td[^>]*>([^<]*)</td>`).FindAllStringSubmatch(p.body, -1)
	got := map[string]string{}
	for _, m := range states {
		got[m[2]] = m[1]
	}
	if len(states) != 2 || got["legal-desk"] != "gave-up" || got["newsroom"] != "delivered" {
		t.Errorf("deliveries %v, want legal-desk given up and newsroom delivered", got)
	}
	if !strings.Contains(p.body, "<h1>提醒投递</h1>") || !strings.Contains(p.body, "已送达") || !strings.Contains(p.body, "已放弃") {
		t.Errorf("the page does not say the states in Chinese")
	}
	if strings.Contains(p.body, "<script>alert(1)") || !strings.Contains(p.body, "403") {
		t.Errorf("the refusal is not shown as text with its status")
	}
	if n := len(regexp.MustCompile(`<code class="sub">[0-9a-f-]{36}</code>`).FindAllString(p.body, -1)); n != 2 {
		t.Errorf("%d delivery ids shown, want 2", n)
	}
	failed := b.get("/ui/deliveries?failed=true")
	wantStatus(t, "failed", failed, http.StatusOK)
	if strings.Count(failed.body, `<tr class="gave-up">`) != 1 || strings.Contains(failed.body, `<tr class="delivered">`) {
		t.Errorf("failed=true does not list the refused delivery alone")
	}

	off := newStackWith(t, dbtest.URL(t), handlers.Config{})
	ob := off.browser(t)
	ob.lang = "zh-CN"
	wantStatus(t, "sign in", ob.signIn("王芳", ""), http.StatusSeeOther)
	if p := ob.get("/ui/deliveries"); p.status != http.StatusOK || !strings.Contains(p.body, "DEDUP_WEBHOOKS_FILE") {
		t.Errorf("without alerts: %d, want the page saying how to configure them", p.status)
	}
}
