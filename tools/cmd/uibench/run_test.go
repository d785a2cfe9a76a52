package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestTinyRun measures a database of 6,000 articles, a few requests each,
// and writes the table into a Markdown file's section.
func TestTinyRun(t *testing.T) {
	md := filepath.Join(t.TempDir(), "ui.md")
	if err := os.WriteFile(md, []byte("# x\n<!-- uibench:begin -->\nold\n<!-- uibench:end -->\nafter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config{serverURL: dbtest.ServerURL(t), articles: 6_000, days: 3, clustersPerDay: 300, requests: 3, md: md, command: "go test ./cmd/uibench"}
	name := "uibench_6000"
	_ = dbtest.DropDatabase(context.Background(), cfg.serverURL, name) // a leftover of an interrupted run
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := bench(ctx, cfg, &out); err != nil {
		t.Fatalf("bench: %v\n%s", err, out.String())
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"| list, first page (50 clusters) |", "| cluster: diff with the original, side by side, differences, other coverage |", "| API GET /v1/clusters/{id}/other-coverage |", "| keep form (POST, then 303) |", "| search, URL |", "| search, CMS key (source and id) |", "| search, two words |", "| API GET /v1/overview |", "| who copied us, page (/ui/copies), xinhua, 7 days |", "| export: clusters, CSV (", "| export: who copied us, 30 days, .xlsx (", "6,000 articles stored", "\nafter\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("the section lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\nold\n") {
		t.Errorf("the old section is still there:\n%s", s)
	}
}
