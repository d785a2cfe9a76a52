package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

const importArticle = "国务院总理李克强主持召开国务院常务会议，部署进一步促进消费，扩大内需，稳定经济增长，并研究推进城镇老旧小区改造。" +
	"会议指出，今年以来，各地区各部门认真贯彻党中央、国务院决策部署，消费市场总体平稳，但也面临一些新的困难和挑战。" +
	"会议要求，要加大政策支持力度，促进汽车、家电等大宗消费，发展服务消费，推动线上线下消费融合，增强消费对经济发展的基础性作用。"

func importLine(externalID, body string, extra ...string) string {
	m := map[string]string{"external_id": externalID, "source": "imp", "title": "国务院常务会议部署促进消费", "body": body}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// importFile is a small import: every verdict, a repeat, bad lines, a blank
// line, CRLF endings and no final newline.
var importFile = strings.Join([]string{
	importLine("i-1", importArticle, "published_at", "2024-05-01T08:00:00+08:00", "url", "https://example.com/1"),     // 1 unique
	importLine("i-2", strings.Replace(importArticle, "会议要求", "会议强调", 1), "published_at", "2024-05-01T09:30:00+08:00"), // 2 near_duplicate of i-1
	importLine("i-3", importArticle),     // 3 exact_duplicate of i-1
	`{"external_id":"i-4","body":"oops"`, // 4 malformed JSON
	"",                                   // 5 blank: skipped
	importLine("i-5", "明天北京将迎来大范围降雨，气温明显下降，请市民注意出行安全。交通部门提醒，雨天路滑，驾车出行请减速慢行。", "content_type", "text"),                    // 6 unique
	importLine("i-1", importArticle, "published_at", "2024-05-01T08:00:00+08:00", "url", "https://example.com/1") + "\r", // 7 already stored
	importLine("i-6", "   "),                                  // 8 invalid: blank body
	`{"external_id":7,"body":"正文"}`,                           // 9 invalid: a number
	importLine("i-8", importArticle, "published_at", "May 1"), // 10 invalid: bad time
	importLine("i-9", "天气", "content_type", "pdf"),            // 11 invalid: content type
}, "\n")

// summaryCounts reads the numbers of an import summary.
func summaryCounts(t *testing.T, out string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z_ ()]+?)\s+(\d+)$`).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[2])
		counts[m[1]] = n
	}
	return counts
}

func TestImport(t *testing.T) {
	t.Parallel()
	dbURL := dbtest.URL(t)
	path := filepath.Join(t.TempDir(), "articles.jsonl")
	if err := os.WriteFile(path, []byte(importFile), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DATABASE_URL": dbURL}

	// From a file.
	a, stdout, stderr := testApp(t, env)
	if err := a.run(context.Background(), []string{"import", path}); err != nil {
		t.Fatalf("import %s = %v; stderr:\n%s", path, err, stderr)
	}
	out := stdout.String()
	want := map[string]int{
		"articles read":   10,
		"stored (new)":    4, // i-1, i-2, i-3, i-5
		"already stored":  1,
		"unique":          3, // i-1, i-5 and the repeat of i-1
		"near_duplicate":  1,
		"exact_duplicate": 1,
		"invalid lines":   5,
	}
	if got := summaryCounts(t, out); !mapsEqual(got, want) {
		t.Errorf("import summary counts = %v, want %v; summary:\n%s", got, want, out)
	}
	for _, line := range []string{"line 4: the JSON ends before the value is complete", "line 8: body:", "line 9: external_id: must be a string", "line 10: published_at:", "line 11: content_type:"} {
		if !strings.Contains(out, line) {
			t.Errorf("import summary lacks %q:\n%s", line, out)
		}
	}
	if !regexp.MustCompile(`articles/s`).MatchString(out) {
		t.Errorf("import summary lacks the rate:\n%s", out)
	}

	// The articles are stored, with the API's verdicts.
	store, err := repo.Open(context.Background(), dbURL, repo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	wantStatus := map[string]service.Status{
		"i-1": service.StatusUnique, "i-2": service.StatusNearDuplicate,
		"i-3": service.StatusExactDuplicate, "i-5": service.StatusUnique,
	}
	var first service.Article
	for id, status := range wantStatus {
		art, err := store.ArticleByKey(context.Background(), "imp", id)
		if err != nil {
			t.Errorf("stored article %s: %v", id, err)
			continue
		}
		if art.Status != status {
			t.Errorf("stored article %s status = %s, want %s", id, art.Status, status)
		}
		if id == "i-1" {
			first = art
		}
	}
	if first.URL != "https://example.com/1" || first.PublishedAt.UTC().Format("2006-01-02T15:04") != "2024-05-01T00:00" {
		t.Errorf("stored i-1 = url %q published %v, want the line's", first.URL, first.PublishedAt)
	}
	for _, id := range []string{"i-4", "i-6", "i-8", "i-9"} {
		if _, err := store.ArticleByKey(context.Background(), "imp", id); err == nil {
			t.Errorf("invalid article %s was stored", id)
		}
	}

	// Again, from standard input: everything valid is already stored.
	a, stdout, stderr = testApp(t, env)
	a.stdin = strings.NewReader(importFile)
	a.progressInterval = 0 // a progress line at every update
	if err := a.run(context.Background(), []string{"import", "-"}); err != nil {
		t.Fatalf("import - = %v; stderr:\n%s", err, stderr)
	}
	want["stored (new)"], want["already stored"] = 0, 5
	if got := summaryCounts(t, stdout.String()); !mapsEqual(got, want) {
		t.Errorf("second import summary counts = %v, want %v; summary:\n%s", got, want, stdout)
	}
	if !strings.Contains(stderr.String(), "import: ") || !strings.Contains(stderr.String(), "articles/s") {
		t.Errorf("import to a non-terminal printed no progress line; stderr:\n%s", stderr)
	}
}

func TestImportDatabaseDown(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "articles.jsonl")
	if err := os.WriteFile(path, []byte(importFile), 0o600); err != nil {
		t.Fatal(err)
	}
	a, _, _ := testApp(t, map[string]string{"DATABASE_URL": "postgres://postgres:pw-9d1c@127.0.0.1:1/x?sslmode=disable&connect_timeout=2"})
	err := a.run(context.Background(), []string{"import", path})
	if err == nil {
		t.Fatal("import with the database down = nil, want an error")
	}
	if !strings.Contains(err.Error(), "unavailable") {
		t.Errorf("import with the database down = %v, want it to say the database is unavailable", err)
	}
	if strings.Contains(err.Error(), "pw-9d1c") {
		t.Errorf("import error shows the password: %v", err)
	}
}

func TestImportMissingFile(t *testing.T) {
	t.Parallel()
	a, _, _ := testApp(t, map[string]string{"DATABASE_URL": "postgres://127.0.0.1:1/x"})
	if err := a.run(context.Background(), []string{"import", filepath.Join(t.TempDir(), "nope.jsonl")}); err == nil || !strings.Contains(err.Error(), "nope.jsonl") {
		t.Errorf("import of a missing file = %v, want an error naming it", err)
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
