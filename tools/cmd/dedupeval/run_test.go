package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A small run end to end, without the database: the three files are
// written, the JSON holds the grid, and exact copies are always found.
func TestRunSmall(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var stdout bytes.Buffer
	if err := run(t.Context(), []string{"-out", out, "-trgm=false", "-limit", "3"}, &stdout); err != nil {
		t.Fatalf("run() = %v\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "exact copies: recall 1.000") {
		t.Errorf("stdout lacks the exact copies' recall of 1:\n%s", stdout.String())
	}

	md, err := os.ReadFile(filepath.Join(out, "evaluation.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"make eval", "## In short", "## The labelled corpus", "## The defaults, and why", "## Limits", "(evaluation-pr.png)", "every exact copy is found", "`-trgm=false`"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("evaluation.md lacks %q", want)
		}
	}
	if png, err := os.ReadFile(filepath.Join(out, chartFile)); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("%s: not a PNG (%v)", chartFile, err)
	}

	data, err := os.ReadFile(filepath.Join(out, "evaluation.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Corpus struct {
			Stored, Queries int
			Pairs           int `json:"pairs"`
		} `json:"corpus"`
		Simhash []struct {
			Name   string      `json:"name"`
			Groups []jsonGroup `json:"groups"`
		} `json:"simhash"`
		Trgm *struct{} `json:"pg_trgm"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("evaluation.json: %v", err)
	}
	if doc.Corpus.Stored != 3*len(bands) || len(doc.Simhash) != len(simhashMethods()) || doc.Trgm != nil {
		t.Fatalf("evaluation.json: %d stored, %d methods, pg_trgm %v; want %d, %d, none", doc.Corpus.Stored, len(doc.Simhash), doc.Trgm != nil, 3*len(bands), len(simhashMethods()))
	}
	for _, m := range doc.Simhash {
		pairs := 0
		for _, g := range m.Groups {
			pairs += g.Pairs
			if len(g.TP) != simPoints || len(g.FP) != simPoints {
				t.Fatalf("%s %s/%s: %d and %d points, want %d", m.Name, g.Band, g.Edit, len(g.TP), len(g.FP), simPoints)
			}
			if g.Edit != editExact {
				continue
			}
			for i, tp := range g.TP {
				if tp != g.Positives {
					t.Errorf("%s %s: exact copies found %d of %d at point %d", m.Name, g.Band, tp, g.Positives, i)
				}
			}
		}
		if pairs != doc.Corpus.Pairs {
			t.Errorf("%s: groups hold %d pairs, the corpus %d", m.Name, pairs, doc.Corpus.Pairs)
		}
	}
}

func TestParseFlags(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	for _, args := range [][]string{
		{},                           // pg_trgm without a database
		{"-trgm=false", "-limit=-1"}, // negative limit
		{"-trgm=false", "extra"},     // stray argument
	} {
		if _, err := parseFlags(args); err == nil {
			t.Errorf("parseFlags(%q) = nil error, want one", args)
		}
	}
	cfg, err := parseFlags([]string{"-trgm=false"})
	if err != nil || cfg.out != "docs" || cfg.workers != 2 {
		t.Errorf("parseFlags(-trgm=false) = %+v, %v; want out docs, 2 workers", cfg, err)
	}
}
