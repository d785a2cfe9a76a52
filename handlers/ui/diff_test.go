package ui_test

import (
	"context"
	"encoding/json"
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

// ingestAt stores an article published at the given time.
func (s *stack) ingestAt(t *testing.T, source, id, title, body string, published time.Time) service.Verdict {
	t.Helper()
	v, err := s.svc.Ingest(context.Background(), service.ArticleInput{
		Text: service.Text{Title: title, Body: body}, ExternalID: id, Source: source, PublishedAt: published,
	}, s.svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// row is the members' table row of article id.
func row(t *testing.T, body string, id int64) string {
	t.Helper()
	m := regexp.MustCompile(fmt.Sprintf(`(?s)<tr id="m%d"[^>]*>.*?</tr>`, id)).FindString(body)
	if m == "" {
		t.Fatalf("no row for article %d", id)
	}
	return m
}

// TestOriginalAndDiff: the member published first is named the original
// though it was ingested later, each copy's row says how it differs from
// it, and the diff marks an added byline in <ins> and a dropped paragraph
// in <del>.
func TestOriginalAndDiff(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	st := samples.Stories[0]
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	paragraphs := strings.Split(st.Body, "\n")
	repost := s.ingestAt(t, "portal", "w-1", st.Title, "【搜狐新闻】"+st.Body, day.Add(3*time.Hour))
	original := s.ingestAt(t, "xinhua", "x-1", st.Title, st.Body, day)
	dropped := s.ingestAt(t, "people", "p-1", st.Title, paragraphs[0]+"\n"+paragraphs[2], day.Add(time.Hour))
	// Published first though ingested after the repost, the original heads
	// the cluster, and the repost is relinked to it (links by publication).
	for _, v := range []service.Verdict{original, dropped} {
		if v.ClusterID != original.ID {
			t.Fatalf("%s in cluster %d, want the original's %d", v.ExternalID, v.ClusterID, original.ID)
		}
	}
	b := s.browser(t)
	b.lang = "en"
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	path := fmt.Sprintf("/ui/clusters/%d", original.ID)
	p := b.get(path)
	wantStatus(t, "cluster", p, http.StatusOK)

	if r := row(t, p.body, original.ID); !strings.Contains(r, `class="original"`) || !strings.Contains(r, "2 copies") {
		t.Errorf("the original's row has no mark or no count of copies:\n%s", r)
	}
	for _, id := range []int64{repost.ID, dropped.ID} {
		if strings.Contains(row(t, p.body, id), `class="original"`) {
			t.Errorf("article %d, a copy, is marked as the original", id)
		}
	}
	if r := row(t, p.body, repost.ID); !strings.Contains(r, "byline or editor&#39;s line added") {
		t.Errorf("the repost's row does not say a byline was added:\n%s", r)
	}
	if r := row(t, p.body, dropped.ID); !strings.Contains(r, "1 paragraph dropped") {
		t.Errorf("the shortened copy's row does not say a paragraph was dropped:\n%s", r)
	}

	// By default the first copy is diffed with the original.
	if !strings.Contains(p.body, `<ins><span class="sr">added: </span>【搜狐新闻】</ins>`) {
		t.Errorf("the byline is not inserted in the diff:\n%s", section(p.body, "diff"))
	}
	p = b.get(fmt.Sprintf("%s?base=%d&with=%d", path, original.ID, dropped.ID))
	wantStatus(t, "diff", p, http.StatusOK)
	del := regexp.MustCompile(`(?s)<del><span class="sr">deleted: </span>(.*?)</del>`).FindStringSubmatch(p.body)
	if del == nil || !strings.Contains(del[1], strings.TrimSpace(paragraphs[1])[:60]) {
		t.Errorf("the dropped paragraph is not deleted in the diff:\n%s", section(p.body, "diff"))
	}
	// Any two members: the repost into the shortened copy.
	p = b.get(fmt.Sprintf("%s?base=%d&with=%d", path, repost.ID, dropped.ID))
	if !strings.Contains(p.body, `<del><span class="sr">deleted: </span>【搜狐新闻】</del>`) {
		t.Errorf("the repost's byline is not deleted in its diff with the shortened copy:\n%s", section(p.body, "diff"))
	}
}

// testKey is the API key of the tests that read the API too.
const testKey = "ui-test-key-7f3a"

// section is the page's section with this id, for a failure's message.
func section(body, id string) string {
	return regexp.MustCompile(`(?s)<section id="` + id + `".*?</section>`).FindString(body)
}

// TestOtherCoverage: two articles that are no copies of a story but quote
// a sentence of it are listed on its cluster's page, newest first, each
// with its source and a link to its own cluster.
func TestOtherCoverage(t *testing.T) {
	t.Parallel()
	s := newStack(t, testKey)
	st := samples.Stories[0]
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	quoted := strings.SplitAfter(st.Body, "。")[1] // the second sentence
	story := s.ingestAt(t, "xinhua", "x-1", st.Title, st.Body, day)
	copyOf := s.ingestAt(t, "portal", "w-1", st.Title, "【搜狐新闻】"+st.Body, day.Add(time.Hour))
	first := s.ingestAt(t, "jiangxi", "jx-1", "江西多地转移受灾群众",
		"江西省应急管理厅介绍，全省已转移安置受灾群众一万二千余人，开放避灾安置点三百多个。"+quoted+
			"九江、上饶等地组织党员干部挨家挨户排查隐患，确保不漏一户、不落一人。\n省气象台提醒，本周后期全省仍有一次强降雨过程，山区要严防山洪。",
		day.Add(2*time.Hour))
	second := s.ingestAt(t, "hunan", "hn-1", "湖南洞庭湖区加强堤防巡查",
		"湖南省水利厅今天召开防汛调度会，部署洞庭湖区堤防巡查和涵闸管护工作。"+quoted+
			"岳阳、常德两市已调集抢险队员八百余人，对重点堤段实行二十四小时值守。\n会议要求各级水利部门压实责任，严禁擅离职守。",
		day.Add(3*time.Hour))
	if copyOf.ClusterID != story.ID {
		t.Fatalf("the copy is in cluster %d, want %d", copyOf.ClusterID, story.ID)
	}
	for _, v := range []service.Verdict{first, second} {
		if v.ClusterID == story.ID {
			t.Fatalf("%s, a story of its own, joined the cluster (%s)", v.ExternalID, v.Status)
		}
	}
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", testKey), http.StatusSeeOther)
	p := b.get(fmt.Sprintf("/ui/clusters/%d", story.ID))
	wantStatus(t, "cluster", p, http.StatusOK)
	panel := section(p.body, "other")
	if !strings.Contains(panel, "2 articles outside this cluster") {
		t.Fatalf("the other coverage panel does not count two articles:\n%s", panel)
	}
	if !strings.Contains(panel, "#"+fmt.Sprint(second.ID)+" · hunan") || !strings.Contains(panel, "#"+fmt.Sprint(first.ID)+" · jiangxi") {
		t.Errorf("the panel does not name both articles with their sources:\n%s", panel)
	}
	if i, j := strings.Index(panel, "hunan"), strings.Index(panel, "jiangxi"); i < 0 || j < 0 || i > j {
		t.Errorf("the panel does not list the newest first:\n%s", panel)
	}
	if !strings.Contains(panel, fmt.Sprintf(`href="/ui/clusters/%d"`, second.ClusterID)) || !strings.Contains(panel, strings.TrimSuffix(quoted, "。")[:30]) {
		t.Errorf("the panel has no link to the quoting article's cluster, or not the sentence shared:\n%s", panel)
	}
	if strings.Contains(panel, "w-1") || strings.Contains(panel, "· portal ·") {
		t.Errorf("the panel lists a member of the cluster:\n%s", panel)
	}

	// The list counts them, in the page and in GET /v1/clusters, and links
	// the count to the panel.
	list := b.get("/ui/")
	wantStatus(t, "list", list, http.StatusOK)
	other := regexp.MustCompile(`(?s)<td data-label="Other coverage"[^>]*>(.*?)</td>`).FindAllStringSubmatch(list.body, -1)
	if len(other) != 1 || !strings.Contains(other[0][1], fmt.Sprintf(`href="/ui/clusters/%d#other">2 articles</a>`, story.ID)) {
		t.Errorf("the list's other-coverage cells: %q, want one linking 2 articles to the panel", other)
	}
	api := b.do(http.MethodGet, "/v1/clusters?limit=10", nil, http.Header{"Authorization": {"Bearer " + testKey}})
	wantStatus(t, "GET /v1/clusters", api, http.StatusOK)
	var got struct {
		Clusters []struct {
			ID            int64 `json:"id"`
			OtherCoverage struct {
				Articles int  `json:"articles"`
				More     bool `json:"more"`
			} `json:"other_coverage"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(api.body), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Clusters) != 1 || got.Clusters[0].ID != story.ID || got.Clusters[0].OtherCoverage.Articles != 2 || got.Clusters[0].OtherCoverage.More {
		t.Errorf("GET /v1/clusters: %+v, want cluster %d with 2 articles of other coverage", got.Clusters, story.ID)
	}
}

// TestKeepWithNoteAndSplitLink: the keep form takes a note, shown with the
// kept member and in the decisions; after a split the notice and the
// decisions link to the new cluster.
func TestKeepWithNoteAndSplitLink(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	st := samples.Stories[1]
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	head := s.ingestAt(t, "xinhua", "x-1", st.Title, st.Body, day)
	repost := s.ingestAt(t, "portal", "w-1", st.Title, st.Repost(), day.Add(time.Hour))
	short := s.ingestAt(t, "people", "p-1", st.Title, st.Shortened(), day.Add(2*time.Hour))
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	path := fmt.Sprintf("/ui/clusters/%d", head.ID)
	p := b.get(path)
	if !strings.Contains(row(t, p.body, repost.ID), `name="note"`) {
		t.Fatalf("the keep form has no note:\n%s", row(t, p.body, repost.ID))
	}
	p = b.do(http.MethodPost, path+"/kept", url.Values{"csrf": {b.csrf(p)}, "article_id": {fmt.Sprint(repost.ID)}, "note": {"门户稿附有编者按"}}, nil)
	wantStatus(t, "keep with a note", p, http.StatusSeeOther)
	p = b.get(path)
	if view, _ := s.svc.Cluster(context.Background(), head.ID); view.Kept.ID != repost.ID || view.Kept.By == nil || view.Kept.By.Note != "门户稿附有编者按" {
		t.Fatalf("after keep with a note: %+v", view.Kept)
	}
	if strings.Count(p.body, "门户稿附有编者按") < 2 {
		t.Errorf("the note is not shown with the kept member and in the decisions")
	}

	confirm := b.get(fmt.Sprintf("%s/split?article=%d", path, short.ID))
	p = b.do(http.MethodPost, path+"/split", url.Values{"csrf": {b.csrf(confirm)}, "article_id": {fmt.Sprint(short.ID)}}, nil)
	wantStatus(t, "split", p, http.StatusSeeOther)
	p = b.get(p.header.Get("Location"))
	link := fmt.Sprintf(`<a href="/ui/clusters/%d">Go to its new cluster →</a>`, short.ID)
	if !strings.Contains(p.body, link) {
		t.Errorf("the notice after the split does not link to the new cluster:\n%s", regexp.MustCompile(`(?s)<p class="done".*?</p>`).FindString(p.body))
	}
	if !strings.Contains(p.body, fmt.Sprintf(`<a href="/ui/clusters/%d">its cluster %d</a>`, short.ID, short.ID)) {
		t.Errorf("the decisions do not link to the new cluster")
	}

	// Undo the split: the copy rejoins, and the undo is a decision.
	undoID := regexp.MustCompile(`name="decision_id" value="(\d+)"`).FindStringSubmatch(p.body)
	if undoID == nil {
		t.Fatal("the split's decision has no undo form")
	}
	undo := func() page {
		return b.do(http.MethodPost, path+"/undo-split", url.Values{"csrf": {b.csrf(p)}, "decision_id": {undoID[1]}, "note": {"误拆"}}, nil)
	}
	wantStatus(t, "undo the split", undo(), http.StatusSeeOther)
	if a, err := s.svc.FindArticle(context.Background(), short.ID); err != nil || a.ClusterID != head.ID {
		t.Errorf("after undoing the split, the copy is in cluster %d (%v), want %d", a.ClusterID, err, head.ID)
	}
	view, err := s.svc.Cluster(context.Background(), head.ID)
	if err != nil || len(view.Decisions) == 0 || view.Decisions[0].Action != service.ActionUndoSplit || view.Decisions[0].Editor != "王芳" ||
		view.Decisions[0].Note != "误拆" || view.Decisions[0].ArticleID != short.ID {
		t.Errorf("the cluster's latest decision is not the undo: %+v, %v", view.Decisions, err)
	}
	p = b.get(path)
	if !strings.Contains(p.body, "split undone") || !strings.Contains(p.body, fmt.Sprintf(`id="m%d"`, short.ID)) {
		t.Errorf("the page does not show the undo, or the copy back in the cluster")
	}
	// Twice is refused.
	wantStatus(t, "undo the split again", undo(), http.StatusUnprocessableEntity)
}
