package uitest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/chromedp"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// tab is a browser tab on the page, with the steps a test takes.
type tab struct {
	t    *testing.T
	ctx  context.Context
	base string
}

// newTab starts chromium (Chinese first, as a Chinese newsroom's) at
// 1,400 × 1,000 and returns a tab of it.
func newTab(t *testing.T, base string) *tab {
	t.Helper()
	chromium := findChromium(t)
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
		opts = append(opts, chromedp.NoSandbox)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", chromium, err)
	}
	return &tab{t: t, ctx: ctx, base: base}
}

func (b *tab) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// open goes to a path of the page and waits for it to load.
func (b *tab) open(path string) {
	b.t.Helper()
	res, err := chromedp.RunResponse(b.ctx, chromedp.Navigate(b.base+path))
	if err != nil {
		b.t.Fatalf("open %s: %v", path, err)
	}
	if res.Status >= 400 {
		b.t.Fatalf("open %s: the page answered %d", path, res.Status)
	}
}

// click clicks what submits a form or follows a link, and waits for the
// page it leads to.
func (b *tab) click(what, sel string) {
	b.t.Helper()
	res, err := chromedp.RunResponse(b.ctx, chromedp.Click(sel, chromedp.NodeVisible))
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	if res.Status >= 400 {
		b.t.Fatalf("%s: the page answered %d", what, res.Status)
	}
}

func (b *tab) eval(expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func (b *tab) location() string {
	b.t.Helper()
	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		b.t.Fatal(err)
	}
	return strings.TrimPrefix(loc, b.base)
}

func (b *tab) shoot(name string) {
	b.t.Helper()
	buf, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(screenshotDir(b.t), name)
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("saved %s", path)
}

// search types q into the search box of the page and sends it.
func (b *tab) search(q string) {
	b.t.Helper()
	b.do("type "+q, chromedp.SetValue(`form.search input[name="q"]`, q, chromedp.NodeVisible))
	b.click("search "+q, `form.search button[type="submit"]`)
}

// widest says which table of the page is wider than the window, or
// whether the page is, in CSS pixels: "" when none is.
func (b *tab) widest() string {
	b.t.Helper()
	return b.eval(`(() => {
		const w = window.innerWidth, out = [];
		if (document.documentElement.scrollWidth > w) out.push("the page " + document.documentElement.scrollWidth);
		for (const t of document.querySelectorAll("table")) {
			const r = t.getBoundingClientRect();
			if (r.width > w || r.right > w + 1) out.push((t.className || "a table") + " " + Math.round(r.width) + "px to " + Math.round(r.right));
		}
		return out.join(", ");
	})()`)
}

// TestSearchLanguagesAndLayoutInABrowser: the Chinese page and the English
// one; the search box finds a story by a Chinese word of its headline, by
// its CMS id and by its URL and leads to its cluster; the overview's bars
// say what SQL counts; and no table is wider than the window — at 1,400
// pixels and at a phone's 390 — with a 300-character headline that never
// breaks, 32 members and a 20,000-character body, folded after a
// screenful.
func TestSearchLanguagesAndLayoutInABrowser(t *testing.T) {
	findChromium(t) // skip, or fail, before building anything
	ctx := context.Background()
	dict, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dict.Close)
	dbURL := dbtest.URL(t)
	st, err := repo.Open(ctx, dbURL, repo.Options{})
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

	// The last days' news, published relative to now so that the
	// overview's 30 days hold them.
	ingest := func(source, id, title, body string, published time.Time) service.Verdict {
		t.Helper()
		v, err := svc.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: title, Body: body}, ExternalID: id, Source: source,
			URL: "https://news.example.com/" + source + "/" + id, PublishedAt: published}, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	now := time.Now()
	flood := samples.Stories[0]
	head := ingest("xinhua", "xwlb-20250715-14481", flood.Title, flood.Body, now.Add(-30*time.Minute))
	repost := ingest("sina-testEdu", "web-77", flood.Title+"（图）", flood.Repost(), now.Add(-15*time.Minute))
	for d, s := range samples.Stories[1:] {
		at := now.AddDate(0, 0, -2*d-1)
		ingest("cctv", fmt.Sprintf("cctv-%d", d), s.Title, s.Body, at)
		ingest("sina-sports", fmt.Sprintf("sina-%d", d), s.Title, s.Repost(), at.Add(40*time.Minute))
		ingest("163", fmt.Sprintf("163-%d", d), s.Title, s.Body, at.Add(90*time.Minute))
	}
	// Another story of the economy: 经济 is in two clusters' headlines.
	ingest("people", "p-economy-1", "全国经济运行总体平稳 消费市场持续回暖",
		"国家统计局今天发布的月度数据显示，社会消费品零售总额同比增长，服务零售额增速快于商品零售额。"+
			"多地推出以旧换新补贴，家电和汽车销售明显回升，线上实物商品零售额占比继续提高。"+
			"分析人士认为，居民收入稳步增加和就业形势总体稳定，为消费市场回暖提供了支撑。", now.Add(-26*time.Hour))
	// A story whose headline is 300 characters without a break, 20,000
	// characters long, copied 31 times.
	longTitle := "https://news.example.com/2026/11/" + strings.Repeat("yangtze-flood-defence-level-four-response-", 7)
	longTitle = longTitle[:300]
	// Its body is sentences drawn from words of its own, Chinese and
	// English, so that it copies none of the other stories.
	words := strings.Fields("防汛 抢险 水利部 堤防 巡查 volunteers 转移 群众 安置点 物资 调度 river levels 预警 " +
		"气象台 降雨 rainfall 水库 泄洪 加固 监测 sensors 夜间 值守 救援队 boats 通信 保障 恢复 供电 道路 抢通")
	rng := rand.New(rand.NewPCG(35, 2026))
	var body strings.Builder
	for i := 0; utf8.RuneCountInString(body.String()) < 20_000; i++ {
		fmt.Fprintf(&body, "第%d段：", i+1)
		for range 8 + rng.IntN(10) {
			body.WriteString(words[rng.IntN(len(words))])
		}
		body.WriteString("。\n")
	}
	longBody := string([]rune(body.String())[:20_000])
	big := ingest("xinhua", "long-0", longTitle, longBody, now.Add(-5*time.Hour))
	for i := 1; i < 32; i++ {
		v := ingest(fmt.Sprintf("portal-%02d", i), fmt.Sprintf("long-%d", i), longTitle, longBody, now.Add(-5*time.Hour+time.Duration(i)*time.Minute))
		if v.ClusterID != big.ID || big.ClusterID != big.ID {
			t.Fatalf("copy %d of the long story is in cluster %d, the story in %d, want both in %d", i, v.ClusterID, big.ClusterID, big.ID)
		}
	}

	b := newTab(t, srv.URL)
	b.open("/ui/")
	b.do("fill in the sign-in form",
		chromedp.SendKeys(`input[name="name"]`, "王芳", chromedp.NodeVisible),
		chromedp.SendKeys(`input[name="key"]`, apiKey, chromedp.NodeVisible))
	b.click("sign in", `form.signin button[type="submit"]`)

	// The Chinese page, by the browser's language.
	if lang := b.eval(`document.documentElement.lang`); lang != "zh-Hans" {
		t.Errorf("the page's language is %q, want zh-Hans (the browser asks for zh-CN)", lang)
	}
	for _, want := range []string{"今日概览", "稿件组", "北京时间", "转载最多的来源"} {
		if !strings.Contains(b.eval(`document.body.innerText`), want) {
			t.Errorf("the Chinese list lacks %q", want)
		}
	}

	// The chart's bars are what SQL counts, day by day in Beijing time,
	// and their heights are to one scale.
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	rows, err := pool.Query(ctx, `
		SELECT to_char(published_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD'),
		       count(*) FILTER (WHERE status = 'near_duplicate'), count(*) FILTER (WHERE status = 'exact_duplicate'),
		       count(*) FILTER (WHERE status = 'partial_duplicate')
		FROM articles WHERE status <> 'unique' GROUP BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for rows.Next() {
		var day string
		var near, exact, partial int
		if err := rows.Scan(&day, &near, &exact, &partial); err != nil {
			t.Fatal(err)
		}
		want[day] = fmt.Sprintf("%d/%d/%d", near, exact, partial)
	}
	if err := rows.Err(); err != nil || len(want) < 3 {
		t.Fatalf("SQL counted duplicates on %d days (%v), want at least 3", len(want), err)
	}
	bars := b.eval(`[...document.querySelectorAll("svg.days a.bar")].map(a => {
		const h = [...a.querySelectorAll("rect")].reduce((s, r) => s + parseFloat(r.getAttribute("height")), 0);
		return [a.dataset.key, a.dataset.near + "/" + a.dataset.exact + "/" + a.dataset.partial, a.dataset.total, h.toFixed(2)].join(" ");
	}).join("\n")`)
	scale := 0.0
	got := map[string]string{}
	for _, line := range strings.Split(bars, "\n") {
		f := strings.Fields(line)
		if len(f) != 4 {
			t.Fatalf("a bar: %q", line)
		}
		total, _ := strconv.Atoi(f[2])
		height, _ := strconv.ParseFloat(f[3], 64)
		if total > 0 {
			got[f[0]] = f[1]
			if scale == 0 {
				scale = height / float64(total)
			} else if d := height/float64(total) - scale; d > 0.05 || d < -0.05 {
				t.Errorf("bar %s: %.2f px for %d, the scale is %.3f px a duplicate", f[0], height, total, scale)
			}
		} else if height != 0 {
			t.Errorf("bar %s: %.2f px for nothing", f[0], height)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the chart's bars %v, SQL counts %v", got, want)
	}
	b.shoot("ui-overview.png")

	// Search: a Chinese word of the headline, a CMS id, a URL.
	cluster := fmt.Sprintf("/ui/clusters/%d", head.ID)
	for q, wantLoc := range map[string]string{
		"洪水":                  cluster,
		"xwlb-20250715-14481": cluster,
		"https://news.example.com/sina-testEdu/web-77": fmt.Sprintf("%s?with=%d#m%d", cluster, repost.ID, repost.ID),
	} {
		b.open("/ui/")
		b.search(q)
		if loc := b.location(); loc != wantLoc {
			t.Errorf("searching %q leads to %s, want %s", q, loc, wantLoc)
		}
	}
	// A word of two stories: a list of them.
	b.search("经济")
	if !strings.HasPrefix(b.location(), "/ui/search?") || b.eval(`String(document.querySelectorAll("table.results tbody tr").length)`) == "0" {
		t.Errorf("searching 经济 gives %s with no list", b.location())
	}
	// The source filter takes a prefix: sina is sina-testEdu and sina-sports.
	b.open("/ui/?source=sina")
	if n := b.eval(`String(document.querySelectorAll("table.clusters tbody tr a.story").length)`); n != "4" {
		t.Errorf("the list of source sina holds %s clusters, want 4 (of sina-testEdu and sina-sports)", n)
	}
	if hint := b.eval(`document.querySelector("p.hint") ? document.querySelector("p.hint").textContent : ""`); !strings.Contains(hint, "sina-testEdu") {
		t.Errorf("the list of source sina does not say which sources it took: %q", hint)
	}

	// The English page, by the switch, and back.
	b.open("/ui/")
	b.click("switch to English", `nav.langs a[hreflang="en"]`)
	if lang := b.eval(`document.documentElement.lang`); lang != "en" || !strings.Contains(b.eval(`document.body.innerText`), "At a glance") {
		t.Errorf("after the switch the page is %q without its English words", lang)
	}
	b.open(cluster)
	if text := b.eval(`document.body.innerText`); !strings.Contains(text, "Keep this") || !strings.Contains(text, "near copy") {
		t.Error("the English cluster page lacks its words")
	}
	b.click("switch back to Chinese", `nav.langs a[hreflang="zh-Hans"]`)
	if lang := b.eval(`document.documentElement.lang`); lang != "zh-Hans" {
		t.Errorf("after switching back the page is %q", lang)
	}

	// Layout: nothing wider than the window, at 1,400 pixels and at 390.
	bigCluster := fmt.Sprintf("/ui/clusters/%d", big.ID)
	pages := []string{"/ui/", bigCluster, fmt.Sprintf("%s?with=%d", bigCluster, big.ID+5), "/ui/search?q=" + url.QueryEscape("yangtze 洪水"),
		"/ui/?sort=size", fmt.Sprintf("/ui/clusters/%d/split?article=%d", big.ID, big.ID+3)}
	for _, size := range [][2]int64{{1400, 1000}, {390, 844}} {
		b.do("resize", chromedp.EmulateViewport(size[0], size[1]))
		for _, p := range pages {
			b.open(p)
			if wide := b.widest(); wide != "" {
				t.Errorf("at %d px, %s: wider than the window: %s", size[0], p, wide)
			}
		}
		b.open(bigCluster)
		if n := b.eval(`String(document.querySelectorAll("table.members tbody tr").length)`); n != "32" {
			t.Errorf("the big cluster lists %s members, want 32", n)
		}
		// The body folds after a screenful, and unfolds on request.
		folded := b.eval(`String(Math.round(document.querySelector("section#side .right .text").getBoundingClientRect().height))`)
		if h, _ := strconv.Atoi(folded); h == 0 || h > 4*int(size[1]) {
			t.Errorf("at %d px, the folded text is %s px high", size[0], folded)
		}
		b.do("unfold", chromedp.Click(`section#side .right details.fold > summary`, chromedp.NodeVisible))
		opened := b.eval(`String(Math.round(document.querySelector("section#side .right .text").getBoundingClientRect().height))`)
		if h, _ := strconv.Atoi(opened); h <= 2*mustAtoi(folded) {
			t.Errorf("at %d px, unfolding the text takes it from %s px to %s px only", size[0], folded, opened)
		}
		if wide := b.widest(); wide != "" {
			t.Errorf("at %d px, the unfolded cluster: wider than the window: %s", size[0], wide)
		}
		if size[0] == 390 {
			b.open("/ui/")
			b.shoot("ui-phone.png")
		}
	}
	b.do("resize", chromedp.EmulateViewport(1400, 1000))
	b.open("/ui/search?q=" + url.QueryEscape("经济"))
	b.shoot("ui-search.png")
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
