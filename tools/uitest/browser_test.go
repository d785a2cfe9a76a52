package uitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

const apiKey = "uitest-key-8d1f5c"

// findChromium returns the browser to drive: NEWSDEDUP_CHROMIUM, or
// chromium (Debian's) or Chrome on the PATH. Without one the test skips,
// or fails under NEWSDEDUP_REQUIRE_BROWSER=1.
func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("NEWSDEDUP_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no chromium on the PATH: install it to run the browser test of the editors' page " +
		"(Debian: apt-get install chromium fonts-wqy-zenhei), or name it in NEWSDEDUP_CHROMIUM"
	if os.Getenv("NEWSDEDUP_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + "; NEWSDEDUP_REQUIRE_BROWSER=1 makes its absence a failure")
	}
	t.Skip(msg)
	return ""
}

// screenshotDir is where the screenshots go.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("NEWSDEDUP_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "newsdedup-ui-screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fixture is the stack and the articles the test stores.
type fixture struct {
	server *httptest.Server
	svc    *service.Service

	head, repost, shortened, hostile service.Verdict
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
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
	if err := svc.SetKeepPolicy(service.KeepPolicy{Sources: []string{"xinhua", "cctv"}}); err != nil {
		t.Fatal(err)
	}
	e, err := handlers.New(svc, handlers.Config{
		APIKeys:  []string{apiKey},
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
		Registry: prometheus.NewRegistry(),
	})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{server: httptest.NewServer(e), svc: svc}
	t.Cleanup(f.server.Close)

	// A day's news: each story from its agency, then reposts and copies.
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	at := func(h, m int) time.Time { return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute) }
	ingest := func(source, id, title, body string, published time.Time) service.Verdict {
		t.Helper()
		v, err := svc.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: title, Body: body}, ExternalID: id, Source: source,
			URL: "https://news.example.com/" + source + "/" + id, PublishedAt: published}, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	flood := samples.Stories[0]
	f.head = ingest("xinhua", "xh-0618-0412", flood.Title, flood.Body, at(4, 30))
	f.repost = ingest("portal", "web-77", flood.Title+"（图）", flood.Repost(), at(7, 5))
	f.shortened = ingest("people", "p-881", flood.Title, flood.Shortened(), at(5, 10))
	f.hostile = ingest(`"><b>evil</b>`, `"><img src=x onerror=alert(1)>`, samples.HostileTitle, flood.Hostile(), at(8, 0))
	for i, s := range samples.Stories[1:] {
		h := 9 + 2*i
		ingest("cctv", fmt.Sprintf("cctv-%d", i), s.Title, s.Body, at(h, 0))
		ingest("sina", fmt.Sprintf("sina-%d", i), s.Title, s.Repost(), at(h, 40))
		if i != 1 {
			ingest("163", fmt.Sprintf("163-%d", i), s.Title, s.Body, at(h+1, 15))
		}
	}
	for _, v := range []service.Verdict{f.repost, f.shortened, f.hostile} {
		if v.ClusterID != f.head.ID {
			t.Fatalf("%s is in cluster %d, want %d", v.ExternalID, v.ClusterID, f.head.ID)
		}
	}
	return f
}

// api calls the JSON API with the key.
func (f *fixture) api(t *testing.T, method, path string, body any, want int) map[string]any {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, f.server.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+apiKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, res.StatusCode, out, want)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return v
}

// TestEditorsPageInABrowser signs in, opens a cluster, checks the marked
// shared text and that hostile articles stay text, keeps another member
// and sees the API agree, splits one out and sees it stay apart when it is
// sent again; it saves screenshots of the list and of the cluster.
func TestEditorsPageInABrowser(t *testing.T) {
	chromium := findChromium(t)
	f := newFixture(t)
	base := f.server.URL

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("accept-lang", "zh-CN,zh"),
		chromedp.WindowSize(1400, 1000),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // chromium refuses to run as root with its sandbox
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	defer cancelTab()

	// Start the browser before anything listens to it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", chromium, err)
	}
	// A dialog would mean markup of an article ran: count them, and close
	// them so the page does not hang.
	var dialogs atomic.Int32
	go func() {
		for _, err := range chromedp.Events(ctx, page.JavascriptDialogOpening) {
			if err != nil {
				return
			}
			dialogs.Add(1)
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	// click clicks what submits a form or follows a link, and waits for the
	// page it leads to.
	click := func(what string, sel string) {
		t.Helper()
		res, err := chromedp.RunResponse(ctx, chromedp.Click(sel, chromedp.NodeVisible))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if res.Status >= 400 {
			t.Fatalf("%s: the page answered %d", what, res.Status)
		}
	}
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	location := func() string {
		t.Helper()
		loc, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimPrefix(loc, base)
	}
	shoot := func(name string) {
		t.Helper()
		buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		path := filepath.Join(screenshotDir(t), name)
		if err := os.WriteFile(path, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("saved %s", path)
	}
	pwned := func(where string) {
		t.Helper()
		if got := eval(`String(window.__pwned)`); got != "undefined" {
			t.Errorf("%s: window.__pwned = %s: an article's markup ran", where, got)
		}
		if n := eval(`String(document.querySelectorAll("img, script, svg:not(.chart-svg)").length + [...document.querySelectorAll("b")].filter(b => b.textContent === "evil").length)`); n != "0" {
			t.Errorf("%s: %s elements an article's text would have made", where, n)
		}
	}

	// Signing in: the list redirects to the form, which comes back to it.
	do("open the list", chromedp.Navigate(base+"/ui/"))
	if loc := location(); !strings.HasPrefix(loc, "/ui/signin") {
		t.Fatalf("before signing in the list leads to %s, want the sign-in form", loc)
	}
	do("fill in the sign-in form",
		chromedp.SendKeys(`input[name="name"]`, "王芳", chromedp.NodeVisible),
		chromedp.SendKeys(`input[name="key"]`, apiKey, chromedp.NodeVisible),
	)
	click("sign in", `form.signin button[type="submit"]`)
	if loc := location(); loc != "/ui/" {
		t.Fatalf("after signing in: %s, want /ui/", loc)
	}
	do("the list", chromedp.WaitVisible(`table.clusters`))
	if n := eval(`String(document.querySelectorAll("table.clusters tbody tr").length)`); n != "4" {
		t.Errorf("the list shows %s clusters, want 4", n)
	}
	pwned("the list")
	shoot("ui-clusters.png")

	// A filter, through the form.
	do("filter by source", chromedp.SetValue(`input[name="source"]`, "people"))
	click("filter", `form.filters button[type="submit"]`)
	if n := eval(`String(document.querySelectorAll("table.clusters tbody tr").length)`); n != "1" {
		t.Errorf("filtered by source people, the list shows %s clusters, want 1", n)
	}

	// The cluster, from its link in the list.
	click("open the cluster", fmt.Sprintf(`a.story[href="/ui/clusters/%d"]`, f.head.ID))
	do("the cluster", chromedp.WaitVisible(`section#side`))
	if kept := eval(`document.querySelector("tr.kept").id`); kept != fmt.Sprintf("m%d", f.head.ID) {
		t.Errorf("the kept member is %s, want the xinhua original m%d (preferred source)", kept, f.head.ID)
	}
	// Shared text is marked in both columns, and every mark is a shared
	// keyword.
	for _, side := range []string{"left", "right"} {
		n := eval(fmt.Sprintf(`String(document.querySelectorAll("section#side .%s .text mark").length)`, side))
		if n == "0" {
			t.Errorf("the %s text marks nothing", side)
		}
	}
	if bad := eval(`(() => {
		const words = document.querySelector("p.shared span").textContent.split(", ");
		return [...document.querySelectorAll("section#side mark")].map(m => m.textContent)
			.filter(t => !words.some(w => t.toLowerCase().includes(w))).join("|");
	})()`); bad != "" {
		t.Errorf("marked text that is no shared keyword: %s", bad)
	}

	// The hostile repost, side by side: its markup is text.
	do("compare the hostile repost", chromedp.Navigate(fmt.Sprintf("%s/ui/clusters/%d?with=%d#side", base, f.head.ID, f.hostile.ID)))
	right := eval(`document.querySelector("section#side .right .text").textContent`)
	if !strings.HasPrefix(right, `"><img src=x onerror=window.__pwned=1>`) || !strings.Contains(right, "<script>window.__pwned=1</script>") {
		t.Errorf("the hostile repost's text is not shown as text: %.120q", right)
	}
	if title := eval(`document.querySelector("section#side .right h3").textContent`); title != samples.HostileTitle {
		t.Errorf("the hostile title is shown as %q", title)
	}
	if href := eval(`document.querySelector("section#side .right header a") ? document.querySelector("section#side .right header a").getAttribute("href") : ""`); strings.HasPrefix(href, "javascript") {
		t.Errorf("a link to the hostile article's URL: %s", href)
	}
	pwned("the cluster with a hostile repost")

	// Keep another member: the people copy, with the button in its row.
	click("keep the people copy", fmt.Sprintf(`tr#m%d form button[type="submit"]`, f.shortened.ID))
	if done := eval(`document.querySelector("p.done").textContent`); !strings.Contains(done, "现在是本稿件组的保留稿件") {
		t.Errorf("after keep, the page says %q", done)
	}
	if kept := eval(`document.querySelector("tr.kept").id`); kept != fmt.Sprintf("m%d", f.shortened.ID) {
		t.Errorf("after keep, the kept row is %s", kept)
	}
	c := f.api(t, "GET", fmt.Sprintf("/v1/clusters/%d", f.head.ID), nil, 200)
	k := c["kept"].(map[string]any)
	if int64(k["id"].(float64)) != f.shortened.ID || k["rule"] != "editor" || k["decision"].(map[string]any)["editor"] != "王芳" {
		t.Errorf("the API after keeping in the page: kept %v", k)
	}

	// Split the portal repost out: the confirmation page, a note, the form.
	click("split the repost out", fmt.Sprintf(`tr#m%d a.danger`, f.repost.ID))
	do("the note", chromedp.SendKeys(`textarea[name="note"]`, "另一家媒体的改写稿", chromedp.NodeVisible))
	click("confirm the split", `form.split button[type="submit"]`)
	if done := eval(`document.querySelector("p.done").textContent`); !strings.Contains(done, "已拆出") {
		t.Errorf("after the split, the page says %q", done)
	}
	if n := eval(fmt.Sprintf(`String(document.querySelectorAll("tr#m%d").length)`, f.repost.ID)); n != "0" {
		t.Error("the split-out repost is still listed in the cluster")
	}
	// The log names what was done, latest first, not the buttons that did it.
	if what := eval(`[...document.querySelectorAll("section.decisions td:nth-child(3)")].map(td => td.textContent).join(",")`); what != "拆出,保留" {
		t.Errorf("the decisions read %q, want 拆出,保留", what)
	}
	a := f.api(t, "GET", fmt.Sprintf("/v1/articles/%d", f.repost.ID), nil, 200)
	if int64(a["cluster_id"].(float64)) != f.repost.ID {
		t.Errorf("the API after the split: the repost is in cluster %v, want its own", a["cluster_id"])
	}

	// Sent again, with the same text and an edited one, it stays apart.
	flood := samples.Stories[0]
	for i, body := range []string{flood.Repost(), flood.Repost() + "\n（本网编辑：赵六）"} {
		status := 200
		if i == 1 {
			status = 201
		}
		v := f.api(t, "POST", "/v1/articles", map[string]any{"source": "portal", "external_id": "web-77", "title": flood.Title + "（图）",
			"body": body, "published_at": "2026-06-18T07:05:00Z"}, status)
		if int64(v["cluster_id"].(float64)) == f.head.ID {
			t.Errorf("re-ingest %d of the split-out repost: it joined cluster %d again: %v", i, f.head.ID, v)
		}
	}
	members := f.api(t, "GET", fmt.Sprintf("/v1/clusters/%d", f.head.ID), nil, 200)["members"].([]any)
	for _, m := range members {
		if int64(m.(map[string]any)["id"].(float64)) == f.repost.ID {
			t.Error("after re-ingest, the repost is a member of the cluster it was split from")
		}
	}

	// The cluster as an editor sees it now, for the README.
	do("reload", chromedp.Navigate(fmt.Sprintf("%s/ui/clusters/%d?with=%d", base, f.head.ID, f.head.ID)))
	if n := eval(`String(document.querySelectorAll("section.decisions tbody tr").length)`); n != "2" {
		t.Errorf("the decisions list shows %s rows, want 2 (keep, split)", n)
	}
	pwned("the cluster after the decisions")
	shoot("ui-cluster.png")

	if n := dialogs.Load(); n != 0 {
		t.Errorf("%d JavaScript dialogs opened: an article's markup ran", n)
	}
}
