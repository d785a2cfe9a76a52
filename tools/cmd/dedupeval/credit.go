package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/service"
)

// The credit section (issue 47): copies of stored originals that credit
// them the ways a portal does — a 来源 line, a 转自 line, 据…报道, 原标题,
// the original's byline kept — and copies that do not: a third source
// credited, a promotion line added, nothing added, the original's byline
// stripped. Each is stored through POST /v1/articles/batch and its credit
// read back from its cluster (GET /v1/clusters/{id}); detected: linked in
// the original's cluster with the credit class the variant was made to
// have. It stores copies, so it runs after every other figure, or alone
// (-credit-only).

// creditSources are the corpora's sources as a sources file
// (DEDUP_SOURCES_FILE) names them, for the credit rule.
var creditSources = []service.SourceInfo{
	{Source: corpusSina, Owner: "sina", Names: []string{"新浪网", "新浪"}},
	{Source: corpusCCTV, Owner: "cctv", Names: []string{"央视网", "央视新闻", "中央电视台", "新闻联播"}},
}

// creditRow is one variant: detected of N.
type creditRow struct {
	Variant  string
	Want     string // the credit class it was made to have
	Detected int    // linked, with that class
	Linked   int    // linked in the original's cluster, whatever its class
	Of       int
}

const creditOriginals = 30

// creditVariant makes a copy of original a (its source's first names);
// ok false when it cannot apply to a.
type creditVariant struct {
	name, want string
	make       func(a *newsArticle, names []string) (string, bool)
}

// anyCredit is what a plain original must not hold: a credit line, a
// byline, a dateline — anything the credit rule could read as crediting.
var anyCredit = regexp.MustCompile(`来源|稿源|出处|转载|转自|来自|原标题|据|记者|通讯员|作者|编辑|撰文|电[）)]|\d日电|文[｜|/]`)

// edgeByline is a short line naming reporters, the names ending it (not
// 回答了中外记者的提问): what the stripped variant removes.
var edgeByline = regexp.MustCompile(`^[（(【]?[^\n]{0,12}(?:本报记者|记者|通讯员)[：:/｜| \x{3000}]*[\p{Han}·]{2,4}(?:[ \x{3000}、，,]+[\p{Han}·]{2,4})*[）)】]?$`)

var creditVariants = []creditVariant{
	{"来源 line naming the source", string(service.CreditCredited), func(a *newsArticle, n []string) (string, bool) {
		return a.Body + "\n来源：" + n[0], true
	}},
	{"转自 line on top", string(service.CreditCredited), func(a *newsArticle, n []string) (string, bool) {
		return "转自" + n[len(n)-1] + "\n" + a.Body, true
	}},
	{"据…报道 lead-in", string(service.CreditCredited), func(a *newsArticle, n []string) (string, bool) {
		return "据" + n[0] + "报道，" + a.Body, true
	}},
	{"原标题 line", string(service.CreditCredited), func(a *newsArticle, n []string) (string, bool) {
		return a.Body + "\n原标题：" + a.Title, strings.TrimSpace(a.Title) != ""
	}},
	{"a third source credited", string(service.CreditCreditsOther), func(a *newsArticle, n []string) (string, bool) {
		return a.Body + "\n来源：" + repostSites[0], true
	}},
	{"promotion line added", string(service.CreditUncredited), func(a *newsArticle, n []string) (string, bool) {
		return a.Body + "\n关注我们，获取更多精彩资讯", true
	}},
	{"an editor's line added", string(service.CreditUncredited), func(a *newsArticle, n []string) (string, bool) {
		return "（编辑：" + personName(rand.New(rand.NewPCG(uint64(len(a.Body)), 47))) + "）\n" + a.Body, true
	}},
}

// bylineVariants apply to originals with a reporter's byline among their
// first two or last three lines.
var bylineVariants = []creditVariant{
	{"the original's byline kept", string(service.CreditCredited), func(a *newsArticle, n []string) (string, bool) {
		return a.Body + "\n（责任编辑：" + personName(rand.New(rand.NewPCG(uint64(len(a.Body)), 48))) + "）", true
	}},
	{"the original's byline and credit stripped", string(service.CreditUncredited), func(a *newsArticle, n []string) (string, bool) {
		// Every short byline, credit or dateline line at either end goes;
		// the rest must credit no one.
		lines := strings.Split(strings.TrimSpace(a.Body), "\n")
		for len(lines) > 2 && creditEdgeLine(lines[0]) {
			lines = lines[1:]
		}
		for len(lines) > 2 && creditEdgeLine(lines[len(lines)-1]) {
			lines = lines[:len(lines)-1]
		}
		body := strings.Join(lines, "\n")
		return body, len(lines) > 2 && !anyCredit.MatchString(body)
	}},
}

// creditEdgeLine is a short line that credits or names a reporter.
func creditEdgeLine(line string) bool {
	line = strings.TrimSpace(line)
	return utf8.RuneCountInString(line) <= 40 && (edgeByline.MatchString(line) || anyCredit.MatchString(line))
}

// creditCheck runs the section on the stored corpora.
func creditCheck(ctx context.Context, c *client, articles []newsArticle, st *stored, out io.Writer) ([]creditRow, error) {
	rng := rand.New(rand.NewPCG(47, 30))
	plain := pickCreditOriginals(rng, articles, st, func(a *newsArticle) bool { return !anyCredit.MatchString(a.Body) })
	bylined := pickCreditOriginals(rng, articles, st, func(a *newsArticle) bool {
		lines := strings.Split(strings.TrimSpace(a.Body), "\n")
		if len(lines) < 6 {
			return false
		}
		for _, l := range append(lines[:2:2], lines[len(lines)-3:]...) { // a byline among the first two or last three lines
			if edgeByline.MatchString(strings.TrimSpace(l)) {
				return true
			}
		}
		return false
	})
	var rows []creditRow
	for _, set := range []struct {
		originals []int
		variants  []creditVariant
	}{{plain, creditVariants}, {bylined, bylineVariants}} {
		for k, v := range set.variants {
			row, err := creditRun(ctx, c, articles, st, set.originals, v, k)
			if err != nil {
				return nil, fmt.Errorf("credit, %s: %w", v.name, err)
			}
			rows = append(rows, row)
			fmt.Fprintf(out, "  %-32s %-14s %d of %d (linked %d)\n", row.Variant, row.Want, row.Detected, row.Of, row.Linked)
		}
	}
	return rows, nil
}

// creditRun stores variant v of each original and reads its credit back.
func creditRun(ctx context.Context, c *client, articles []newsArticle, st *stored, originals []int, v creditVariant, k int) (creditRow, error) {
	row := creditRow{Variant: v.name, Want: v.want}
	var batch []articleJSON
	var from []int
	for _, i := range originals {
		a := &articles[i]
		body, ok := v.make(a, creditNamesOf(a.Corpus))
		if !ok {
			continue
		}
		copyOf := apiArticle(a)
		copyOf.Source = fmt.Sprintf("credit-%d-%d", len(v.name), k)
		copyOf.Body = body
		copyOf.PublishedAt = a.Published.Add(3 * time.Hour).Format(time.RFC3339)
		batch = append(batch, copyOf)
		from = append(from, i)
	}
	row.Of = len(batch)
	if len(batch) == 0 {
		return row, nil
	}
	results, err := c.ingestBatch(ctx, batch)
	if err != nil {
		return row, err
	}
	for n, r := range results {
		i := from[n]
		if r.Error != nil || !r.linked() || !st.sameCluster(r.DuplicateOf.ID, i) {
			continue
		}
		row.Linked++
		credit, err := c.memberCredit(ctx, r.ClusterID, r.ID)
		if err != nil {
			return row, err
		}
		if credit == v.want {
			row.Detected++
		}
	}
	return row, nil
}

// creditNamesOf are the names corpus's source goes by.
func creditNamesOf(corpus string) []string {
	for _, s := range creditSources {
		if s.Source == corpus {
			return s.Names
		}
	}
	return []string{corpus}
}

// pickCreditOriginals picks stored unique articles of 300 characters or
// more that ok accepts, half of each corpus (all of one when the other has
// none).
func pickCreditOriginals(rng *rand.Rand, articles []newsArticle, st *stored, ok func(*newsArticle) bool) []int {
	byCorpus := map[string][]int{}
	for i := range articles {
		a := &articles[i]
		if sa := st.Articles[i]; sa.Error == "" && sa.Status == statusUnique && utf8.RuneCountInString(a.Body) >= 300 && ok(a) {
			byCorpus[a.Corpus] = append(byCorpus[a.Corpus], i)
		}
	}
	corpora := make([]string, 0, len(byCorpus))
	for name := range byCorpus {
		corpora = append(corpora, name)
	}
	slices.Sort(corpora)
	var out []int
	for n, name := range corpora {
		list := byCorpus[name]
		rng.Shuffle(len(list), func(a, b int) { list[a], list[b] = list[b], list[a] })
		want := (creditOriginals - len(out)) / (len(corpora) - n)
		out = append(out, list[:min(len(list), want)]...)
	}
	return out
}

// memberCredit reads the credit of member id of cluster cluster through
// GET /v1/clusters/{id}; "" when it has none or is not listed.
func (c *client) memberCredit(ctx context.Context, cluster, id int64) (string, error) {
	var out struct {
		Members []struct {
			ID     int64   `json:"id"`
			Credit *string `json:"credit"`
		} `json:"members"`
	}
	if err := c.do(ctx, http.MethodGet, fmt.Sprintf("/v1/clusters/%d", cluster), nil, &out); err != nil {
		return "", err
	}
	for _, m := range out.Members {
		if m.ID == id && m.Credit != nil {
			return *m.Credit, nil
		}
	}
	return "", nil
}

// writeCredit writes the credit section.
func writeCredit(w io.Writer, n *newsEvaluation) {
	if len(n.Credit) == 0 {
		return
	}
	fmt.Fprintf(w, "## 5c. Credit kept or stripped\n\n")
	fmt.Fprintf(w, "Issue 47: up to %d stored originals of 300 characters and more, half of each corpus — for the first seven variants ones that hold no credit, byline or dateline of their own, for the last two ones that have a reporter's byline among their first two or last three lines (Sina's: CCTV's have none) — each copied as the variant, stored through POST /v1/articles/batch three hours after its original and its credit read from GET /v1/clusters/{id}; the sources named as a sources file would (sina: 新浪网, 新浪; cctv: 央视网, 央视新闻, 中央电视台, 新闻联播). Detected: linked in the original's cluster with the class the variant was made to have. It stores copies, so it runs last (or alone: `-credit-only`).\n\n", creditOriginals)
	t := newTable("variant", "made to be", "detected", "linked", "of")
	for _, r := range n.Credit {
		t.add(cell(r.Variant), cell(r.Want), fmt.Sprint(r.Detected), fmt.Sprint(r.Linked), fmt.Sprint(r.Of))
	}
	t.write(w)
	fmt.Fprintln(w)
}
