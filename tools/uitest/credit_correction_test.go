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

// TestCreditAndCorrectionInABrowser (issue 47): a 北京晚报 story is copied
// by a portal that credits it and one that strips its byline, then
// corrected (1比4 to 1比5) and copied again. The cluster's page says when
// the original was corrected (更正于) and what changed, marks each copy's
// credit, marks the two copies made before the correction as carrying
// the superseded score and not the one made after, measures them against
// the version they copied, and the diff into one of them is of that
// version, the superseded and corrected passages side by side.
func TestCreditAndCorrectionInABrowser(t *testing.T) {
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
	sources := []service.SourceInfo{{Source: "bjwb", Owner: "bjd", Names: []string{"北京晚报"}}}
	if err := st.ReplaceSources(ctx, sources); err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(st, fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams), service.DefaultOptions,
		service.WithSources(sources))
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

	story := samples.Stories[1]
	paragraphs := strings.SplitN(story.Body, "\n", 2)
	text := paragraphs[0] + "\n首场比赛中，主队以1比4告负，球迷仍然热情不减。\n" + paragraphs[1]
	old := "本报记者 李立\n" + text
	fixed := strings.Replace(old, "1比4", "1比5", 1)
	t0 := time.Now().Add(-6 * time.Hour).Truncate(time.Minute)
	original := ingest("bjwb", "bj-1", story.Title, old, t0)
	credited := ingest("sohu", "sohu-1", story.Title, text+"\n来源：北京晚报", t0.Add(time.Hour))
	stripped := ingest("toutiao", "tt-1", story.Title, text+"\n关注我们，获取更多精彩资讯", t0.Add(2*time.Hour))
	if v := ingest("bjwb", "bj-1", story.Title, fixed, t0); v.ID != original.ID {
		t.Fatalf("the correction is article %d, want %d", v.ID, original.ID)
	}
	late := ingest("ifeng", "if-1", story.Title, strings.Replace(text, "1比4", "1比5", 1)+"\n来源：北京晚报", t0.Add(4*time.Hour))
	for _, v := range []service.Verdict{credited, stripped, late} {
		if v.ClusterID != original.ID {
			t.Fatalf("%s is in cluster %d, want %d", v.ExternalID, v.ClusterID, original.ID)
		}
	}

	b := newTab(t, srv.URL)
	b.open("/ui/")
	b.do("fill in the sign-in form",
		chromedp.SendKeys(`input[name="name"]`, "王芳", chromedp.NodeVisible),
		chromedp.SendKeys(`input[name="key"]`, apiKey, chromedp.NodeVisible))
	b.click("sign in", `form.signin button[type="submit"]`)
	b.open(fmt.Sprintf("/ui/clusters/%d?with=%d", original.ID, stripped.ID))

	if got := b.eval(`(document.querySelector('.corrected') || {}).innerText || ''`); !strings.HasPrefix(got, "更正于") {
		t.Errorf("the page says %q of the correction, want 更正于 and when", got)
	}
	if got := b.eval(`Array.from(document.querySelectorAll('section.corrections li')).map(e => e.innerText).join('|')`); !strings.Contains(got, "1比4") ||
		!strings.Contains(got, "1比5") || strings.Index(got, "1比4") > strings.Index(got, "1比5") {
		t.Errorf("the corrections panel reads %q, want the superseded 1比4 beside the corrected 1比5", got)
	}
	mark := func(id int64, sel string) string {
		return b.eval(fmt.Sprintf(`(document.querySelector('#m%d %s') || {}).innerText || ''`, id, sel))
	}
	for _, c := range []struct {
		name   string
		id     int64
		credit string
	}{{"sohu", credited.ID, "credited"}, {"toutiao", stripped.ID, "uncredited"}, {"ifeng", late.ID, "credited"}} {
		want := map[string]string{"credited": "注明来源", "uncredited": "未注明来源"}[c.credit]
		if got := mark(c.id, ".credit."+c.credit); got != want {
			t.Errorf("%s's row: credit mark %q, want %q", c.name, got, want)
		}
	}
	if got := b.eval(fmt.Sprintf(`document.querySelector('#m%d td.difference').innerText`, stripped.ID)); !strings.Contains(got, "删了原文的署名或来源") ||
		!strings.Contains(got, "更正前的第 1 版") || strings.Contains(got, "其他改动") {
		t.Errorf("the stripped copy's difference says %q, want the byline removed, against version 1, no edits of its own", got)
	}
	for _, id := range []int64{credited.ID, stripped.ID} {
		if got := mark(id, ".superseded"); got != "含更正前内容" {
			t.Errorf("copy %d made before the correction is marked %q, want 含更正前内容", id, got)
		}
	}
	if got := mark(late.ID, ".superseded"); got != "" {
		t.Errorf("the copy made after the correction is marked %q, want no mark", got)
	}

	// The diff of the original into the stripped copy is of the version it
	// copied: the score is not its edit; the note puts the two side by side.
	if got := b.eval(`(document.querySelector('#diff .corrections.against') || {}).innerText || ''`); !strings.Contains(got, "第 1 版") ||
		!strings.Contains(got, "1比4") || !strings.Contains(got, "1比5") {
		t.Errorf("the diff's note reads %q, want version 1 and the score before and after", got)
	}
	if got := b.eval(`Array.from(document.querySelectorAll('#diff .diff-text ins, #diff .diff-text del')).map(e => e.textContent).join('|')`); strings.Contains(got, "1比") ||
		!strings.Contains(got, "本报记者 李立") {
		t.Errorf("the diff's changes are %q, want the byline removed and not the score", got)
	}
	b.shoot("ui-correction.png")
}
