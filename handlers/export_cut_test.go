package handlers_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/xuri/excelize/v2"

	"github.com/newsdedup/newsdedup/handlers/tables"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestExportCutSaysSo: a decisions log of exactly service.MaxExportRows
// exports whole, without a mark; one more decision and the CSV and the
// .xlsx (read back with encoding/csv and excelize) hold the first
// MaxExportRows, latest first, then a last row marked #truncated, and the
// answer says so in X-Newsdedup-Truncated.
func TestExportCutSaysSo(t *testing.T) {
	dbURL := dbtest.URL(t)
	s := newServerOn(t, dbURL)
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	add := func(n int) {
		t.Helper()
		if _, err := conn.Exec(context.Background(), `INSERT INTO editor_decisions (action, cluster_id, editor, decided_at)
			SELECT 'reset', g, '王芳', now() - interval '1 hour' + g * interval '1 ms'
			FROM generate_series((SELECT count(*) FROM editor_decisions) + 1, (SELECT count(*) FROM editor_decisions) + $1) g`, n); err != nil {
			t.Fatal(err)
		}
	}
	read := func(what string, r response) [][]string {
		t.Helper()
		wantStatus(t, what, r, http.StatusOK)
		if what == "csv" {
			rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(r.body, []byte("\xEF\xBB\xBF")))).ReadAll()
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			return rows
		}
		f, err := excelize.OpenReader(bytes.NewReader(r.body))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer f.Close()
		rows, err := f.GetRows("Sheet1")
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return rows
	}
	get := func() map[string]response {
		start := time.Now()
		csvRes := s.do(t, request{method: http.MethodGet, path: "/v1/decisions", header: http.Header{"Accept": {"text/csv"}}})
		mid := time.Now()
		xlsxRes := s.get(t, "/v1/decisions?format=xlsx")
		t.Logf("CSV %d bytes in %v, .xlsx %d bytes in %v", len(csvRes.body), mid.Sub(start).Round(time.Millisecond),
			len(xlsxRes.body), time.Since(mid).Round(time.Millisecond))
		return map[string]response{"csv": csvRes, "xlsx": xlsxRes}
	}

	add(service.MaxExportRows)
	for what, r := range get() {
		rows := read(what, r)
		if got := r.header.Get(tables.TruncatedHeader); got != "" {
			t.Errorf("%s of exactly %d decisions: %s %q, want none", what, service.MaxExportRows, tables.TruncatedHeader, got)
		}
		if got := r.header.Get(tables.RowsHeader); got != strconv.Itoa(service.MaxExportRows) {
			t.Errorf("%s: %s %q, want %d", what, tables.RowsHeader, got, service.MaxExportRows)
		}
		if len(rows) != service.MaxExportRows+1 || rows[len(rows)-1][0] == tables.TruncatedMark {
			t.Errorf("%s of exactly %d decisions: %d rows, the last %q; want the header and every decision", what,
				service.MaxExportRows, len(rows), rows[len(rows)-1])
		}
	}

	add(1)
	latest := strconv.Itoa(service.MaxExportRows + 1) // cluster_id g: the latest decision
	for what, r := range get() {
		rows := read(what, r)
		if got := r.header.Get(tables.TruncatedHeader); got != "true" {
			t.Errorf("%s of %d decisions: %s %q, want true", what, service.MaxExportRows+1, tables.TruncatedHeader, got)
		}
		if got := r.header.Get(tables.RowsHeader); got != strconv.Itoa(service.MaxExportRows) {
			t.Errorf("%s: %s %q, want %d", what, tables.RowsHeader, got, service.MaxExportRows)
		}
		if len(rows) != service.MaxExportRows+2 {
			t.Fatalf("%s: %d rows, want the header, %d decisions and the mark", what, len(rows), service.MaxExportRows)
		}
		if rows[1][4] != latest || rows[len(rows)-2][4] != "2" {
			t.Errorf("%s: first and last decisions in clusters %s and %s, want %s and 2 (latest first, the earliest left out)",
				what, rows[1][4], rows[len(rows)-2][4], latest)
		}
		last := rows[len(rows)-1]
		if last[0] != tables.TruncatedMark || !bytes.Contains([]byte(last[1]), []byte(strconv.Itoa(service.MaxExportRows))) {
			t.Errorf("%s: the last row is %q, want %s and the rows kept", what, last, tables.TruncatedMark)
		}
	}
}

// TestDecisionLogByAction: GET /v1/decisions?action= lists the decisions
// of that action alone; an unknown action is 422 naming the field.
func TestDecisionLogByAction(t *testing.T) {
	dbURL := dbtest.URL(t)
	s := newServerOn(t, dbURL)
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `INSERT INTO editor_decisions (action, cluster_id, editor, article_source, article_external_id)
		VALUES ('reset', 1, '王芳', NULL, NULL), ('keep', 2, '李明', 'xinhua', 'x-2'), ('split', 3, '王芳', 'sina', 's-3')`); err != nil {
		t.Fatal(err)
	}
	type logBody struct {
		Decisions []struct {
			Action    string `json:"action"`
			ClusterID int64  `json:"cluster_id"`
		} `json:"decisions"`
	}
	for action, cluster := range map[string]int64{"reset": 1, "keep": 2, "split": 3} {
		got := decode[logBody](t, s.get(t, "/v1/decisions?action="+action)).Decisions
		if len(got) != 1 || got[0].Action != action || got[0].ClusterID != cluster {
			t.Errorf("action=%s: %+v, want the decision in cluster %d alone", action, got, cluster)
		}
	}
	if all := decode[logBody](t, s.get(t, "/v1/decisions")).Decisions; len(all) != 3 {
		t.Errorf("no action: %d decisions, want 3", len(all))
	}
	wantError(t, "action=delete", s.get(t, "/v1/decisions?action=delete"), http.StatusUnprocessableEntity, "invalid_argument")
}

// TestCSVCellsAreNotFormulas: a title beginning with = reads back from the
// CSV with an apostrophe before it, so that a spreadsheet shows it as text;
// the .xlsx holds it as it is, a string.
func TestCSVCellsAreNotFormulas(t *testing.T) {
	s := newServer(t)
	title := `=HYPERLINK("https://evil.example/","促消费新政出台")`
	for i, src := range []string{"bjwb", "sohu"} {
		a := article("f"+strconv.Itoa(i), title, copiedBody)
		a["source"], a["published_at"] = src, "2026-06-18T08:0"+strconv.Itoa(i)+":00+08:00"
		s.ingest(t, a, http.StatusCreated)
	}
	r := s.do(t, request{method: http.MethodGet, path: "/v1/sources/bjwb/copies?from=2026-06-18&to=2026-06-18",
		header: http.Header{"Accept": {"text/csv"}}})
	wantStatus(t, "csv", r, http.StatusOK)
	rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(r.body, []byte("\xEF\xBB\xBF")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[1][2] != "'"+title || rows[1][10] != "'"+title {
		t.Errorf("csv: %q, want the titles after an apostrophe", rows)
	}
	r = s.get(t, "/v1/sources/bjwb/copies?from=2026-06-18&to=2026-06-18&format=xlsx")
	wantStatus(t, "xlsx", r, http.StatusOK)
	f, err := excelize.OpenReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if formula, err := f.GetCellFormula("Sheet1", "C2"); err != nil || formula != "" {
		t.Errorf("xlsx: C2 is the formula %q (%v)", formula, err)
	}
	if v, err := f.GetCellValue("Sheet1", "C2"); err != nil || v != title {
		t.Errorf("xlsx: C2 is %q (%v), want the title", v, err)
	}
}
