package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// Without the corpora the program says so, measures the novel alone and
// writes the three files; it needs no database.
func TestRunWithoutCorpora(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var stdout bytes.Buffer
	args := []string{"-out", out, "-corpora", filepath.Join(t.TempDir(), "absent"), "-novel-limit", "2", "-database-url", ""}
	if err := run(t.Context(), args, &stdout); err != nil {
		t.Fatalf("run() = %v\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "real corpora MISSING") {
		t.Errorf("stdout does not say the corpora are missing:\n%s", stdout.String())
	}
	md := readFile(t, filepath.Join(out, "evaluation.md"))
	for _, want := range []string{"**Corpora: MISSING**", "## In short", "## Goals", "## 6. Regression check on 围城", "围城 figures do not fall", "## Limits of the method"} {
		if !strings.Contains(md, want) {
			t.Errorf("evaluation.md lacks %q", want)
		}
	}
	if strings.Contains(md, "## 1. Natural pairs") {
		t.Errorf("evaluation.md has real-news sections without the corpora")
	}
	var doc struct {
		Corpora struct{ Missing string }
		News    *struct{}
		Goals   []goalRow
		Novel   struct {
			Service        *novelService `json:"service"`
			ServiceSkipped string        `json:"service_skipped"`
		}
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "evaluation.json"))), &doc); err != nil {
		t.Fatalf("evaluation.json: %v", err)
	}
	if doc.Corpora.Missing == "" || doc.News != nil || len(doc.Goals) != 1 {
		t.Errorf("evaluation.json: missing %q, news %v, %d goals; want the reason, no news, the 围城 goal", doc.Corpora.Missing, doc.News != nil, len(doc.Goals))
	}
	// Without a database, version 3's verdicts are not measured: the goal
	// says so.
	if doc.Novel.Service != nil || doc.Novel.ServiceSkipped == "" || doc.Goals[0].Met != nil {
		t.Errorf("evaluation.json: novel service %v, skipped %q, goal met %v; want no service, the reason, not measured",
			doc.Novel.Service != nil, doc.Novel.ServiceSkipped, doc.Goals[0].Met)
	}
	if png := readFile(t, filepath.Join(out, chartFile)); !strings.HasPrefix(png, "\x89PNG") {
		t.Errorf("%s is not a PNG", chartFile)
	}
}

// The whole program on small corpora of the test's own articles, against
// the real database: the service stores them, links the copies, checks the
// reposts, and the report holds every section.
func TestRunEndToEnd(t *testing.T) {
	server := dbtest.ServerURL(t)
	sina, cctv := syntheticCorpora()
	dir := writeTestCorpora(t, sina, cctv)
	out := t.TempDir()
	var stdout bytes.Buffer
	args := []string{"-out", out, "-corpora", dir, "-database-url", server, "-db-prefix", "dedupevaltest_",
		"-per-band", "4", "-sentence-links", "20", "-novel-limit", "2"}
	if err := run(t.Context(), args, &stdout); err != nil {
		t.Fatalf("run() = %v\n%s", err, stdout.String())
	}
	md := readFile(t, filepath.Join(out, "evaluation.md"))
	for _, want := range []string{"## 1. Natural pairs linked", "## 2. Precision", "## 3. Reposts", "## 3b. Digests", "## 4. Candidate load",
		"## 5. Sentence links", "## 7. The parameters, chosen by a rule", "★", "†"} {
		if !strings.Contains(md, want) {
			t.Errorf("evaluation.md lacks %q", want)
		}
	}
	var doc struct {
		News struct {
			Natural []jsonNatural `json:"natural_pairs"`
			Reposts repostResults `json:"reposts"`
			Sweep   sweepResult   `json:"sweep"`
			Service figures       `json:"service"`
		} `json:"news"`
		Novel struct {
			Service *novelService `json:"service"`
		} `json:"novel"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "evaluation.json"))), &doc); err != nil {
		t.Fatalf("evaluation.json: %v", err)
	}
	n := doc.News
	// The identical body under another headline is linked: distance 0,
	// all its text shared.
	if r := n.Service.IdenticalOtherTitle; r.Of != 1 || r.Hit != 1 {
		t.Errorf("identical bodies under other headlines: %+v, want 1 of 1 linked", r)
	}
	// A retitled repost keeps its body: always detected.
	for b, c := range n.Reposts.Counts[editRetitled] {
		if c.Detected != c.Reposts || (b > 0 && c.Reposts == 0) {
			t.Errorf("retitled reposts in band %d: %d of %d detected", b, c.Detected, c.Reposts)
		}
	}
	if len(n.Sweep.Points) != len(sweepExponents)*len(sweepCaps)*len(sweepOverlaps) || n.Sweep.Chosen < 0 {
		t.Errorf("sweep: %d points, chosen %d", len(n.Sweep.Points), n.Sweep.Chosen)
	}
	if _, ok := n.Sweep.shipped(); !ok {
		t.Errorf("the sweep holds no point of the shipped setting")
	}
	// 围城's originals went into the service, and its exact copies came
	// back as exact duplicates of them.
	ns := doc.Novel.Service
	if ns == nil {
		t.Fatalf("evaluation.json: no service figures for 围城")
	}
	exact := 0
	for _, g := range ns.Groups {
		if g.Edit == editExact {
			exact++
			if g.Reposts == 0 || g.Exact != g.Reposts {
				t.Errorf("围城, band %s: %d of %d exact copies judged exact_duplicate", g.Band, g.Exact, g.Reposts)
			}
		}
	}
	if exact == 0 || ns.IngestRefused != 0 {
		t.Errorf("围城: %d groups of exact copies, %d originals refused", exact, ns.IngestRefused)
	}
}

func readFile(tb testing.TB, path string) string {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return string(data)
}

// syntheticCorpora makes articles from sentences of the test's own, every
// sentence different: stories of every band in both corpora, and in Sina
// an identical body under another headline and a near-identical one.
func syntheticCorpora() (sina, cctv []rawTestArticle) {
	places := []string{"城东", "城西", "南湖", "北山", "江边", "老街", "新区", "港口"}
	things := []string{"图书馆", "菜市场", "体育馆", "公园", "医院", "学校", "车站", "博物馆"}
	acts := []string{"开放", "翻新", "扩建", "搬迁", "试运行", "举办活动", "延长时间", "增加座位"}
	sentence := func(k, j int) string {
		return fmt.Sprintf("%s的%s%s，第%d期工程的第%d个项目已经完成，附近居民第%d次来看热闹。",
			places[(k+j)%len(places)], things[(k*3+j)%len(things)], acts[(k+j*5)%len(acts)], k+1, j+1, k*7+j+2)
	}
	body := func(k, sentences int) string {
		var b strings.Builder
		for j := range sentences {
			b.WriteString(sentence(k, j))
			if j%3 == 2 {
				b.WriteByte('\n')
			}
		}
		return b.String()
	}
	lengths := []int{4, 9, 30} // about 160, 360 and 1,200 characters
	for k := range 9 {
		n := lengths[k%len(lengths)]
		sina = append(sina, rawTestArticle{ID: k + 1, Title: fmt.Sprintf("新浪测试稿件第%d号", k+1), Text: body(k, n)})
		cctv = append(cctv, rawTestArticle{ID: fmt.Sprintf("t-%d", k), Title: fmt.Sprintf("联播测试稿件第%d号", k+1),
			Text: body(100+k, n), Date: fmt.Sprintf("2024-03-%02d", 1+k)})
	}
	sina = append(sina,
		rawTestArticle{ID: 100, Title: "同一篇稿件换了标题", Text: sina[4].Text},
		rawTestArticle{ID: 101, Title: "同一篇稿件加了一句", Text: sina[5].Text + "记者最后补充说，项目明年还会继续。"})
	return sina, cctv
}
