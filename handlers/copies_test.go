package handlers_test

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/newsdedup/newsdedup/handlers/tables"
)

const otherBody = "国家航天局宣布，新一代载人飞船试验船成功返回，着陆场区天气良好，返回舱外观完好。专家表示，此次试验验证了多项关键技术，为后续任务奠定了坚实基础。"

const copiedBody = "北京市今日发布新一轮促进消费政策，涵盖汽车、家电、餐饮等多个领域，预计带动消费超过百亿元。市商务局负责人表示，政策将持续到年底，并根据效果适时调整。"

// copiesServer stores a bjwb story and its copies: by bjwb-app (its own
// section) 10 minutes after, sohu 30 minutes after, toutiao 2 hours after,
// and a story of xinhua's copied by sohu.
func copiesServer(t *testing.T) *server {
	t.Helper()
	s := newServer(t)
	for _, c := range []struct{ source, key, title, body, at string }{
		{"bjwb", "a1", "促消费新政出台", copiedBody, "2026-06-18T08:00:00+08:00"},
		{"bjwb-app", "b1", "促消费新政出台", copiedBody, "2026-06-18T08:10:00+08:00"},
		{"sohu", "s1", "促消费新政出台", copiedBody, "2026-06-18T08:30:00+08:00"},
		{"toutiao", "t1", "促消费新政出台", copiedBody, "2026-06-18T10:00:00+08:00"},
		{"xinhua", "x1", "另一条新闻", otherBody, "2026-06-18T09:00:00+08:00"},
		{"sohu", "s2", "另一条新闻", otherBody, "2026-06-18T09:20:00+08:00"},
	} {
		a := article(c.key, c.title, c.body)
		a["source"], a["published_at"] = c.source, c.at
		s.ingest(t, a, http.StatusCreated)
	}
	return s
}

type copiesBody struct {
	BySource []struct {
		Source             string  `json:"source"`
		SameOwner          bool    `json:"same_owner"`
		Copies             int     `json:"copies"`
		MedianDelaySeconds float64 `json:"median_delay_seconds"`
	} `json:"by_source"`
	Copies []struct {
		Copy struct {
			Source string `json:"source"`
		} `json:"copy"`
		Original struct {
			Source string `json:"source"`
		} `json:"original"`
		Credit       string  `json:"credit"`
		DelaySeconds float64 `json:"delay_seconds"`
		ClusterID    int64   `json:"cluster_id"`
	} `json:"copies"`
	OwnCopies []struct {
		Copy struct {
			Source string `json:"source"`
		} `json:"copy"`
	} `json:"own_copies"`
}

// TestCopies: bjwb's report lists sohu's and toutiao's copies with their
// delays, bjwb-app's apart as its own section's, and not xinhua's story;
// the same as CSV (Accept: text/csv, a BOM, read back with encoding/csv)
// and as .xlsx (read back with excelize).
func TestCopies(t *testing.T) {
	s := copiesServer(t)
	const q = "?from=2026-06-18&to=2026-06-18"
	r := s.get(t, "/v1/sources/bjwb/copies"+q)
	wantStatus(t, "copies", r, http.StatusOK)
	b := decode[copiesBody](t, r)
	delays := map[string]float64{}
	for _, c := range b.Copies {
		if c.Original.Source != "bjwb" || c.Credit == "" || c.ClusterID == 0 {
			t.Errorf("copy %+v: want a credited-or-not copy of bjwb's in a cluster", c)
		}
		delays[c.Copy.Source] = c.DelaySeconds
	}
	if len(b.Copies) != 2 || delays["sohu"] != 1800 || delays["toutiao"] != 7200 {
		t.Errorf("copies %+v, want sohu after 1800 s and toutiao after 7200 s", b.Copies)
	}
	if len(b.OwnCopies) != 1 || b.OwnCopies[0].Copy.Source != "bjwb-app" {
		t.Errorf("own copies %+v, want bjwb-app's alone", b.OwnCopies)
	}
	if len(b.BySource) != 3 {
		t.Errorf("by source %+v, want bjwb-app, sohu, toutiao", b.BySource)
	}
	for _, n := range b.BySource {
		if n.SameOwner != (n.Source == "bjwb-app") || n.Copies != 1 {
			t.Errorf("by source %+v: one copy each, same owner only for bjwb-app", n)
		}
	}
	// The period filters: the day before holds none.
	if b := decode[copiesBody](t, s.get(t, "/v1/sources/bjwb/copies?from=2026-06-17&to=2026-06-17")); len(b.Copies)+len(b.OwnCopies) != 0 {
		t.Errorf("the day before: %+v, want none", b)
	}
	wantError(t, "bad credit", s.get(t, "/v1/sources/bjwb/copies?credit=maybe"), http.StatusUnprocessableEntity, "invalid_argument")

	// CSV.
	r = s.do(t, request{method: http.MethodGet, path: "/v1/sources/bjwb/copies" + q, header: http.Header{"Accept": {"text/csv"}}})
	wantStatus(t, "csv", r, http.StatusOK)
	if !bytes.HasPrefix(r.body, []byte("\xEF\xBB\xBF")) {
		t.Fatalf("csv does not begin with a BOM: %q", r.body[:min(len(r.body), 16)])
	}
	recs, err := csv.NewReader(bytes.NewReader(r.body[3:])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	checkCopiesTable(t, "csv", recs)

	// xlsx.
	r = s.get(t, "/v1/sources/bjwb/copies"+q+"&format=xlsx")
	wantStatus(t, "xlsx", r, http.StatusOK)
	f, err := excelize.OpenReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	checkCopiesTable(t, "xlsx", rows)
}

// checkCopiesTable checks an export of bjwb's copies: the header, three
// copies, each with its title in Chinese, a delay in minutes and its own
// section's copy marked.
func checkCopiesTable(t *testing.T, what string, rows [][]string) {
	t.Helper()
	if len(rows) != 4 {
		t.Fatalf("%s: %d rows, want a header and 3 copies: %q", what, len(rows), rows)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if len(col) != len(tables.CopiesHeader) {
		t.Fatalf("%s: header %q, want %q", what, rows[0], tables.CopiesHeader)
	}
	delays := map[string]string{}
	for _, row := range rows[1:] {
		src := row[col["copy_source"]]
		delays[src] = row[col["delay_minutes"]]
		if row[col["copy_title"]] != "促消费新政出台" || row[col["original_source"]] != "bjwb" {
			t.Errorf("%s: row %q: want bjwb's story", what, row)
		}
		if same, _ := strconv.ParseBool(row[col["same_owner"]]); same != (src == "bjwb-app") {
			t.Errorf("%s: row %q: same_owner %v", what, row, same)
		}
	}
	if delays["bjwb-app"] != "10" || delays["sohu"] != "30" || delays["toutiao"] != "120" {
		t.Errorf("%s: delays in minutes %v, want bjwb-app 10, sohu 30, toutiao 120", what, delays)
	}
}

// TestClustersExport: GET /v1/clusters as CSV and .xlsx holds the
// clusters the JSON list holds, with its filters, read back by a CSV
// parser and excelize.
func TestClustersExport(t *testing.T) {
	s := copiesServer(t)
	for _, filter := range []string{"", "?source=xinhua"} {
		list := decode[struct {
			Clusters []struct {
				ID   int64 `json:"id"`
				Size int   `json:"size"`
			} `json:"clusters"`
		}](t, s.get(t, "/v1/clusters"+filter))
		want := map[string]string{}
		for _, c := range list.Clusters {
			want[strconv.FormatInt(c.ID, 10)] = strconv.Itoa(c.Size)
		}
		if len(want) == 0 {
			t.Fatalf("%q: no clusters listed", filter)
		}
		r := s.do(t, request{method: http.MethodGet, path: "/v1/clusters" + filter, header: http.Header{"Accept": {"text/csv"}}})
		wantStatus(t, "clusters csv", r, http.StatusOK)
		body, ok := bytes.CutPrefix(r.body, []byte("\xEF\xBB\xBF"))
		if !ok {
			t.Fatal("clusters csv without a BOM")
		}
		recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		sep := "?"
		if filter != "" {
			sep = "&"
		}
		r = s.get(t, "/v1/clusters"+filter+sep+"format=xlsx")
		wantStatus(t, "clusters xlsx", r, http.StatusOK)
		f, err := excelize.OpenReader(bytes.NewReader(r.body))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := f.GetRows("Sheet1")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for what, table := range map[string][][]string{"csv": recs, "xlsx": rows} {
			if len(table) != len(want)+1 || table[0][0] != "cluster_id" || table[0][5] != "size" {
				t.Errorf("%q %s: %q, want a header and %d clusters", filter, what, table, len(want))
				continue
			}
			for _, row := range table[1:] {
				if want[row[0]] != row[5] {
					t.Errorf("%q %s: cluster %s of size %s, want %v", filter, what, row[0], row[5], want)
				}
			}
		}
	}
}

// TestMembersExport: a cluster's members as CSV and .xlsx, each with its
// credit and difference columns as the JSON cluster gives them.
func TestMembersExport(t *testing.T) {
	s := copiesServer(t)
	cl := decode[struct {
		Members []struct {
			ID     int64  `json:"id"`
			Source string `json:"source"`
			Credit string `json:"credit"`
		} `json:"members"`
	}](t, s.get(t, "/v1/clusters/1"))
	if len(cl.Members) != 4 {
		t.Fatalf("cluster 1 has %d members, want 4", len(cl.Members))
	}
	want := map[string]string{}
	for _, m := range cl.Members {
		want[strconv.FormatInt(m.ID, 10)] = m.Source + "/" + m.Credit
	}
	r := s.do(t, request{method: http.MethodGet, path: "/v1/clusters/1", header: http.Header{"Accept": {"text/csv"}}})
	wantStatus(t, "members csv", r, http.StatusOK)
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(r.body, []byte("\xEF\xBB\xBF")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	r = s.get(t, "/v1/clusters/1?format=xlsx")
	wantStatus(t, "members xlsx", r, http.StatusOK)
	f, err := excelize.OpenReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows("Sheet1")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for what, table := range map[string][][]string{"csv": recs, "xlsx": rows} {
		if len(table) != 5 || table[0][10] != "credit" || table[0][11] != "same_as_original" {
			t.Fatalf("%s: %q, want a header and 4 members", what, table)
		}
		for _, row := range table[1:] {
			if got := row[1] + "/" + safe(row, 10); got != want[row[0]] {
				t.Errorf("%s: member %s is %q, want %q", what, row[0], got, want[row[0]])
			}
			if row[0] != "1" && (len(row) != len(table[0]) || row[11] == "") {
				t.Errorf("%s: copy %s has no difference columns: %q", what, row[0], row)
			}
		}
	}
}

func safe(row []string, i int) string {
	if i < len(row) {
		return row[i]
	}
	return ""
}

// TestDecisionLog: two editors' decisions in two clusters are listed
// across clusters, by editor, and read back from CSV and .xlsx.
func TestDecisionLog(t *testing.T) {
	s := copiesServer(t)
	clusters := decode[struct {
		Clusters []struct {
			ID int64 `json:"id"`
		} `json:"clusters"`
	}](t, s.get(t, "/v1/clusters")).Clusters
	if len(clusters) != 2 {
		t.Fatalf("clusters %v, want 2", clusters)
	}
	for i, c := range clusters {
		id := c.ID
		r := s.do(t, request{method: http.MethodPut, path: "/v1/clusters/" + strconv.FormatInt(id, 10) + "/kept",
			body: bytes.NewReader(jsonBytes(t, map[string]any{"article_id": id, "editor": []string{"王芳", "李明"}[i], "note": "首发"}))})
		wantStatus(t, "keep", r, http.StatusOK)
	}
	type logBody struct {
		Decisions []struct {
			Editor    string `json:"editor"`
			ClusterID int64  `json:"cluster_id"`
		} `json:"decisions"`
	}
	all := decode[logBody](t, s.get(t, "/v1/decisions"))
	if len(all.Decisions) != 2 || all.Decisions[0].Editor != "李明" {
		t.Errorf("decisions %+v, want both, the latest (李明's) first", all.Decisions)
	}
	if one := decode[logBody](t, s.get(t, "/v1/decisions?editor="+url.QueryEscape("王芳"))); len(one.Decisions) != 1 || one.Decisions[0].Editor != "王芳" {
		t.Errorf("王芳's decisions %+v, want one", one.Decisions)
	}
	r := s.do(t, request{method: http.MethodGet, path: "/v1/decisions", header: http.Header{"Accept": {"text/csv"}}})
	wantStatus(t, "decisions csv", r, http.StatusOK)
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(r.body, []byte("\xEF\xBB\xBF")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	r = s.get(t, "/v1/decisions?format=xlsx")
	wantStatus(t, "decisions xlsx", r, http.StatusOK)
	f, err := excelize.OpenReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows("Sheet1")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for what, table := range map[string][][]string{"csv": recs, "xlsx": rows} {
		if len(table) != 3 || table[0][2] != "editor" || table[1][2] != "李明" || table[2][2] != "王芳" || table[1][8] != "首发" {
			t.Errorf("%s: %q, want a header, 李明's and 王芳's decisions with their notes", what, table)
		}
	}
}

// TestOverviewOwnSections: in the last 24 hours, sina-sports copied two
// stories of its own owner's sections and sohu one of another outlet's;
// sohu tops the sources that copy most, sina-sports follows with its two
// copies counted as its own sections'.
func TestOverviewOwnSections(t *testing.T) {
	s := newServer(t)
	now := time.Now()
	at := func(h int) string { return now.Add(time.Duration(-h) * time.Hour).Format(time.RFC3339) }
	for _, c := range []struct{ source, key, body, at string }{
		{"sina-edu", "e1", copiedBody, at(5)},
		{"sina-sports", "s1", copiedBody, at(4)},
		{"sohu", "h1", copiedBody, at(3)},
		{"sina-news", "n1", otherBody, at(5)},
		{"sina-sports", "s2", otherBody, at(2)},
	} {
		a := article(c.key, "标题"+c.key, c.body)
		a["source"], a["published_at"] = c.source, c.at
		s.ingest(t, a, http.StatusCreated)
	}
	o := decode[struct {
		Last24h struct {
			TopSources []struct {
				Source      string `json:"source"`
				Exact       int    `json:"exact_duplicates"`
				Near        int    `json:"near_duplicates"`
				OwnSections int    `json:"own_sections"`
			} `json:"top_sources"`
		} `json:"last_24_hours"`
	}](t, s.get(t, "/v1/overview"))
	top := o.Last24h.TopSources
	if len(top) != 2 || top[0].Source != "sohu" || top[0].OwnSections != 0 ||
		top[1].Source != "sina-sports" || top[1].OwnSections != 2 || top[1].Exact+top[1].Near != 2 {
		t.Errorf("top sources %+v, want sohu (1 other outlet's) before sina-sports (2, both its own sections')", top)
	}
}

// TestClustersActiveFrom: a story first published days ago that got a new
// copy today is listed by active_from=today, which a from=today filter
// (by first publication) misses.
func TestClustersActiveFrom(t *testing.T) {
	s := newServer(t)
	old := time.Now().Add(-72 * time.Hour).Format(time.RFC3339)
	for _, c := range []struct{ source, key string }{{"bjwb", "o1"}, {"sohu", "o2"}} {
		a := article(c.key, "旧稿", copiedBody)
		a["source"], a["published_at"] = c.source, old
		s.ingest(t, a, http.StatusCreated)
	}
	type list struct {
		Clusters []struct {
			ID int64 `json:"id"`
		} `json:"clusters"`
	}
	today := time.Now().UTC().Format(time.DateOnly)
	tomorrow := time.Now().UTC().Add(48 * time.Hour).Format(time.DateOnly)
	for q, want := range map[string]int{
		"from=" + today:           0, // first published days ago
		"active_from=" + today:    1, // its copy stored today
		"active_from=" + tomorrow: 0,
	} {
		if got := decode[list](t, s.get(t, "/v1/clusters?"+q)); len(got.Clusters) != want {
			t.Errorf("%s: %d clusters, want %d", q, len(got.Clusters), want)
		}
	}
	wantError(t, "bad active_from", s.get(t, "/v1/clusters?active_from=today"), http.StatusUnprocessableEntity, "invalid_argument")
}
