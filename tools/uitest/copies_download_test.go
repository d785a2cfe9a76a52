package uitest

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"
)

// download clicks the link sel with chromium's downloads going into dir,
// waits for the download to complete and returns the file's name as the
// server suggested it and its bytes.
func (b *tab) download(what, sel, dir string) (name string, body []byte) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	begin := chromedp.Events(ctx, browser.DownloadWillBegin)
	progress := chromedp.Events(ctx, browser.DownloadProgress)
	b.do(what,
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
				Behavior:      browser.SetDownloadBehaviorBehaviorAllowAndName,
				DownloadPath:  dir,
				EventsEnabled: new(true),
			})
			return err
		}),
		chromedp.Click(sel, chromedp.NodeVisible),
	)
	var guid string
	for ev, err := range begin {
		if err != nil {
			b.t.Fatalf("%s: no download began: %v", what, err)
		}
		guid, name = ev.GUID, ev.SuggestedFilename
		break
	}
	for ev, err := range progress {
		if err != nil {
			b.t.Fatalf("%s: the download did not complete: %v", what, err)
		}
		if ev.GUID != guid {
			continue
		}
		if ev.State == browser.DownloadProgressStateCanceled {
			b.t.Fatalf("%s: the download was canceled", what)
		}
		if ev.State == browser.DownloadProgressStateCompleted {
			break
		}
	}
	// AllowAndName saves the file under its GUID.
	body, err := os.ReadFile(filepath.Join(dir, guid))
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	return name, body
}

// TestCopiesDownloadsInABrowser: the copyright desk's page of who copied
// xinhua, opened in chromium after signing in, lists the copies the API
// lists; its two download links, clicked, save a CSV and an .xlsx that
// read back (encoding/csv, excelize) as the same copies, field by field,
// the hostile source and title included as text.
func TestCopiesDownloadsInABrowser(t *testing.T) {
	findChromium(t)
	f := newFixture(t)
	b := newTab(t, f.server.URL)
	b.open("/ui/")
	b.do("fill in the sign-in form",
		chromedp.SendKeys(`input[name="name"]`, "王芳", chromedp.NodeVisible),
		chromedp.SendKeys(`input[name="key"]`, apiKey, chromedp.NodeVisible))
	b.click("sign in", `form.signin button[type="submit"]`)

	const filters = "source=xinhua&from=2026-06-18&to=2026-06-18"
	b.open("/ui/copies?" + filters)
	if h := b.eval(`document.querySelector("h1").textContent`); h != "谁转载了我们" {
		t.Errorf("the page's heading is %q, want 谁转载了我们 (the browser asks for Chinese)", h)
	}

	// What the API says xinhua's copies are that day: id → row fields.
	res := f.api(t, "GET", "/v1/sources/xinhua/copies?"+filters, nil, 200)
	want := map[string][]string{}
	for _, part := range []string{"copies", "own_copies"} {
		for _, x := range res[part].([]any) {
			c := x.(map[string]any)
			cp, orig := c["copy"].(map[string]any), c["original"].(map[string]any)
			id := strconv.FormatInt(int64(cp["id"].(float64)), 10)
			want[id] = []string{id, cp["source"].(string), cp["title"].(string), cp["url"].(string), c["credit"].(string),
				strconv.FormatInt(int64(orig["id"].(float64)), 10), orig["source"].(string),
				strconv.FormatInt(int64(c["cluster_id"].(float64)), 10)}
		}
	}
	for _, v := range []int64{f.repost.ID, f.shortened.ID, f.hostile.ID} {
		if want[strconv.FormatInt(v, 10)] == nil {
			t.Fatalf("the API does not list copy %d of xinhua's story: %v", v, res)
		}
	}
	rows := b.eval(`String(document.querySelectorAll("table.copies tbody tr:not(:has(td.empty))").length)`)
	if rows != strconv.Itoa(len(want)) {
		t.Errorf("the page lists %s copies, the API %d", rows, len(want))
	}

	dir := t.TempDir()
	for _, kind := range []string{"csv", "xlsx"} {
		name, body := b.download("download "+kind, "a.download-"+kind, dir)
		if !strings.HasSuffix(name, "."+kind) {
			t.Errorf("the %s download is named %q", kind, name)
		}
		var got [][]string
		if kind == "csv" {
			rest, ok := bytes.CutPrefix(body, []byte("\xEF\xBB\xBF"))
			if !ok {
				t.Errorf("the CSV has no BOM: Excel would not read its Chinese as UTF-8")
			}
			var err error
			if got, err = csv.NewReader(bytes.NewReader(rest)).ReadAll(); err != nil {
				t.Fatalf("read the CSV back: %v", err)
			}
		} else {
			x, err := excelize.OpenReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("read the .xlsx back: %v", err)
			}
			got, err = x.GetRows("Sheet1")
			x.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		if len(got) == 0 {
			t.Fatalf("%s: empty file", kind)
		}
		col := map[string]int{}
		for i, h := range got[0] {
			col[h] = i
		}
		seen := map[string]bool{}
		for _, r := range got[1:] {
			cell := func(h string) string {
				i, ok := col[h]
				if !ok || i >= len(r) {
					t.Fatalf("%s: no column %s in %q", kind, h, got[0])
				}
				return r[i]
			}
			id := cell("copy_id")
			fields := []string{id, cell("copy_source"), cell("copy_title"), cell("copy_url"), cell("credit"),
				cell("original_id"), cell("original_source"), cell("cluster_id")}
			if w, ok := want[id]; !ok {
				t.Errorf("%s: copy %s is not one the API lists", kind, id)
			} else if !slices.Equal(fields, w) {
				t.Errorf("%s: copy %s reads %q, the API says %q", kind, id, fields, w)
			}
			seen[id] = true
		}
		if len(seen) != len(want) || len(got)-1 != len(want) {
			t.Errorf("%s: %d rows (%d copies), want the API's %d", kind, len(got)-1, len(seen), len(want))
		}
		if !seen[fmt.Sprint(f.hostile.ID)] {
			t.Errorf("%s: the hostile copy is missing", kind)
		}
	}
}

// TestTimelineAndLogsInABrowser: a cluster's timeline, reached from its
// page, draws a bar for each hour its members came in (their heights in
// the proportions of the counts) and names its sources in the legend; the
// decisions log across clusters lists a keep made through the API; and
// neither page, nor the deliveries', the copies' or a search's, is wider
// than the window at 1,400 pixels or at a phone's 390.
func TestTimelineAndLogsInABrowser(t *testing.T) {
	findChromium(t)
	f := newFixture(t)
	f.api(t, "PUT", fmt.Sprintf("/v1/clusters/%d/kept", f.head.ID), map[string]any{"article_id": f.shortened.ID, "editor": "李明", "note": "人民网稿更完整"}, 200)
	b := newTab(t, f.server.URL)
	b.open("/ui/")
	b.do("fill in the sign-in form",
		chromedp.SendKeys(`input[name="name"]`, "王芳", chromedp.NodeVisible),
		chromedp.SendKeys(`input[name="key"]`, apiKey, chromedp.NodeVisible))
	b.click("sign in", `form.signin button[type="submit"]`)

	b.open(fmt.Sprintf("/ui/clusters/%d", f.head.ID))
	b.click("open the timeline", `a.timeline-link`)
	if loc := b.location(); loc != fmt.Sprintf("/ui/clusters/%d/timeline", f.head.ID) {
		t.Fatalf("the timeline link leads to %s", loc)
	}
	// The fixture's story: xinhua 04:30, people 05:10, portal 07:05 and
	// the hostile source 08:00 (UTC): bars of 1, 1, 0, 1, 1 from 04:00.
	bars := b.eval(`[...document.querySelectorAll("svg.timeline g.bar")].map(g => g.dataset.total + ":" +
		Math.round([...g.querySelectorAll("rect")].reduce((h, r) => h + r.getBoundingClientRect().height, 0))).join(" ")`)
	var totals, heights []string
	for _, bar := range strings.Fields(bars) {
		n, h, _ := strings.Cut(bar, ":")
		totals, heights = append(totals, n), append(heights, h)
	}
	if strings.Join(totals, " ") != "1 1 0 1 1" {
		t.Errorf("the timeline's bars count %v, want 1 1 0 1 1", totals)
	}
	for i, h := range heights {
		if (totals[i] == "0") != (h == "0") || (i > 0 && totals[i] != "0" && heights[0] != h) {
			t.Errorf("bar %d is %s px high for %s members (the first: %s px)", i, h, totals[i], heights[0])
		}
	}
	if legend := b.eval(`document.querySelector("ul.timeline-keys").innerText`); !strings.Contains(legend, "xinhua") || !strings.Contains(legend, `"><b>evil</b>`) {
		t.Errorf("the legend reads %q, want every source, the hostile one as text", legend)
	}
	if n := b.eval(`String([...document.querySelectorAll("b")].filter(b => b.textContent === "evil").length)`); n != "0" {
		t.Errorf("%s <b>evil</b> elements: a source's markup was read as HTML", n)
	}
	b.shoot("ui-timeline.png")

	b.open("/ui/decisions")
	if row := b.eval(`document.querySelector("table.decision-log tbody tr").innerText`); !strings.Contains(row, "李明") || !strings.Contains(row, "保留") || !strings.Contains(row, "人民网稿更完整") {
		t.Errorf("the decisions log's first row reads %q, want 李明's keep with the note", row)
	}

	pages := []string{fmt.Sprintf("/ui/clusters/%d/timeline", f.head.ID), "/ui/decisions", "/ui/deliveries",
		"/ui/copies?source=xinhua&from=2026-06-18&to=2026-06-18", "/ui/search?q=" + url.QueryEscape("洪水")}
	for _, size := range [][2]int64{{1400, 1000}, {390, 844}} {
		b.do("resize", chromedp.EmulateViewport(size[0], size[1]))
		for _, p := range pages {
			b.open(p)
			if wide := b.widest(); wide != "" {
				t.Errorf("at %d px, %s: wider than the window: %s", size[0], p, wide)
			}
		}
	}
}
