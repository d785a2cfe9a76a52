package uitest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestDiffOriginalAndCoverageInABrowser (issue 36): the original is marked
// though it was ingested after a copy; the diff puts an added byline in
// <ins> and a dropped paragraph in <del>; the other-coverage panel lists a
// story's two quoting articles; keep takes a note; after a split the
// notice leads to the new cluster.
func TestDiffOriginalAndCoverageInABrowser(t *testing.T) {
	findChromium(t)
	ctx := context.Background()
	dict, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dict.Close)
	st, err := repo.Open(ctx, dbtest.URL(t), repo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	svc, err := service.New(st, fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams), service.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	e, err := handlers.New(svc, handlers.Config{APIKeys: []string{apiKey}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Registry: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	ingest := func(source, id, title, body string, published time.Time) service.Verdict {
		t.Helper()
		v, err := svc.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: title, Body: body}, ExternalID: id, Source: source,
			PublishedAt: published}, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	flood := samples.Stories[0]
	paragraphs := strings.Split(flood.Body, "\n")
	t0 := time.Now().Add(-6 * time.Hour).Truncate(time.Minute)
	// The portal's copy is ingested first; the agency's story, published
	// three hours earlier, is the original and heads the cluster once it
	// arrives (links by publication).
	repost := ingest("sohu", "sohu-1", flood.Title, "【搜狐新闻】"+flood.Body, t0.Add(3*time.Hour))
	original := ingest("xinhua", "xinhua-1", flood.Title, flood.Body, t0)
	dropped := ingest("people", "people-1", flood.Title, paragraphs[0]+"\n"+paragraphs[2], t0.Add(time.Hour))
	quoted := strings.SplitAfter(flood.Body, "。")[1]
	ingest("jiangxi", "jx-1", "江西多地转移受灾群众",
		"江西省应急管理厅介绍，全省已转移安置受灾群众一万二千余人，开放避灾安置点三百多个。"+quoted+
			"九江、上饶等地组织党员干部挨家挨户排查隐患，确保不漏一户、不落一人。\n省气象台提醒，本周后期全省仍有一次强降雨过程，山区要严防山洪。",
		t0.Add(4*time.Hour))
	ingest("hunan", "hn-1", "湖南洞庭湖区加强堤防巡查",
		"湖南省水利厅今天召开防汛调度会，部署洞庭湖区堤防巡查和涵闸管护工作。"+quoted+
			"岳阳、常德两市已调集抢险队员八百余人，对重点堤段实行二十四小时值守。\n会议要求各级水利部门压实责任，严禁擅离职守。",
		t0.Add(5*time.Hour))
	cluster := original.ID
	if r, err := svc.FindArticle(ctx, repost.ID); err != nil || r.ClusterID != cluster {
		t.Fatalf("the portal's copy is in cluster %d (%v), want %d", r.ClusterID, err, cluster)
	}
	for _, v := range []service.Verdict{original, dropped} {
		if v.ClusterID != cluster {
			t.Fatalf("%s is in cluster %d, want %d", v.ExternalID, v.ClusterID, cluster)
		}
	}

	b := newTab(t, srv.URL)
	b.open("/ui/")
	b.do("fill in the sign-in form",
		chromedp.SendKeys(`input[name="name"]`, "王芳", chromedp.NodeVisible),
		chromedp.SendKeys(`input[name="key"]`, apiKey, chromedp.NodeVisible))
	b.click("sign in", `form.signin button[type="submit"]`)

	b.open(fmt.Sprintf("/ui/clusters/%d", cluster))
	if got := b.eval(fmt.Sprintf(`(document.querySelector('#m%d .original') || {}).textContent || ''`, original.ID)); got != "首发" {
		t.Errorf("the original's row is marked %q, want 首发", got)
	}
	if n := b.eval(`String(document.querySelectorAll('table.members .mark-cell .original').length)`); n != "1" {
		t.Errorf("%s members are marked as the original, want 1", n)
	}
	if got := b.eval(fmt.Sprintf(`document.querySelector('#m%d .mark-cell').innerText`, original.ID)); !strings.Contains(got, "转载 2 篇") {
		t.Errorf("the original's mark says %q, want 转载 2 篇 beside it", got)
	}
	// The diff of the first copy with the original: the byline inserted.
	if got := b.eval(`Array.from(document.querySelectorAll('#diff ins')).map(e => e.textContent).join('|')`); !strings.Contains(got, "【搜狐新闻】") {
		t.Errorf("the diff's insertions are %q, want the byline 【搜狐新闻】 among them", got)
	}
	if got := b.eval(fmt.Sprintf(`document.querySelector('#m%d td.difference').innerText`, repost.ID)); !strings.Contains(got, "署名") {
		t.Errorf("the repost's difference says %q, want a byline added", got)
	}
	b.shoot("ui-diff.png")

	// The shortened copy, chosen in the diff's form: its dropped paragraph deleted.
	b.do("choose the shortened copy", chromedp.SetValue(`#diff select[name="with"]`, fmt.Sprint(dropped.ID), chromedp.NodeVisible))
	b.click("show the diff", `#diff button[type="submit"]`)
	if got := b.eval(`Array.from(document.querySelectorAll('#diff del')).map(e => e.textContent).join('|')`); !strings.Contains(got, strings.TrimSpace(paragraphs[1])[:60]) {
		t.Errorf("the diff's deletions are %q, want the dropped paragraph", got)
	}

	// Other coverage: the two quoting articles, newest first.
	if got := b.eval(`Array.from(document.querySelectorAll('#other .other-article .sub')).map(e => e.innerText).join('|')`); !strings.Contains(got, "hunan") ||
		!strings.Contains(got, "jiangxi") || strings.Index(got, "hunan") > strings.Index(got, "jiangxi") {
		t.Errorf("the other coverage panel lists %q, want hunan then jiangxi", got)
	}
	b.shoot("ui-other-coverage.png")

	// Keep the repost with a note.
	b.do("write a note", chromedp.SendKeys(fmt.Sprintf(`#m%d input[name="note"]`, repost.ID), "门户稿附有编者按", chromedp.NodeVisible))
	b.click("keep with a note", fmt.Sprintf(`#m%d form.keep-form button[type="submit"]`, repost.ID))
	if got := b.eval(`document.querySelector('.kept-box').innerText`); !strings.Contains(got, "门户稿附有编者按") {
		t.Errorf("the kept member's box says %q, want the note", got)
	}

	// Split the shortened copy out, and follow the notice to its cluster.
	b.click("split", fmt.Sprintf(`#m%d a.danger`, dropped.ID))
	b.click("confirm the split", `main form button[type="submit"].danger`)
	b.click("go to the new cluster", `p.done a`)
	if loc := b.location(); loc != fmt.Sprintf("/ui/clusters/%d", dropped.ID) {
		t.Errorf("the notice led to %s, want the new cluster %d", loc, dropped.ID)
	}

	// Undo the split from the cluster it was made in: the copy is back.
	b.open(fmt.Sprintf("/ui/clusters/%d", cluster))
	b.click("undo the split", `form.undo-form button[type="submit"]`)
	if n := b.eval(fmt.Sprintf(`String(document.querySelectorAll('#m%d').length)`, dropped.ID)); n != "1" {
		t.Errorf("after undoing the split, the copy's row is not in the cluster (%s rows)", n)
	}
	if got := b.eval(`document.querySelector('section.decisions tbody tr').innerText`); !strings.Contains(got, "撤销拆出") || !strings.Contains(got, "王芳") {
		t.Errorf("the latest decision reads %q, want the undone split by 王芳", got)
	}
}
