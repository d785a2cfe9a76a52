package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

// writeTestCorpora writes small corpora of the tests' own stories into a new
// folder: Sina-like lines (numeric ids, no date) and CCTV-like ones
// (string ids, dated).
func writeTestCorpora(tb testing.TB, sina, cctv []rawTestArticle) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, list := range map[string][]rawTestArticle{corpusSina: sina, corpusCCTV: cctv} {
		if err := newscorpus.WriteLines(dir, name, list); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

type rawTestArticle struct {
	ID        any    `json:"id"`
	Title     string `json:"title"`
	Text      string `json:"text"`
	Date      string `json:"date,omitempty"`
	TitleFits *bool  `json:"title_matches_body,omitempty"`
}

func TestLoadNews(t *testing.T) {
	t.Parallel()
	no := false
	dir := writeTestCorpora(t,
		[]rawTestArticle{{ID: 1, Title: "甲", Text: testStories[0]}, {ID: 2, Title: "乙", Text: testStories[1], TitleFits: &no}},
		[]rawTestArticle{{ID: "c-1", Title: "丙", Text: testStories[2], Date: "2023-05-06"}, {ID: "c-2", Title: "丁", Text: testStories[3], Date: "2023-05-06"}})
	nc, err := loadNews(t.Context(), dir, 0)
	if err != nil || nc.Missing != "" {
		t.Fatalf("loadNews() = %v, missing %q", err, nc.Missing)
	}
	if len(nc.Articles) != 4 {
		t.Fatalf("%d articles, want 4", len(nc.Articles))
	}
	a := nc.Articles
	if a[0].ExternalID() != "sina-1" || a[2].ExternalID() != "cctv-c-1" || a[1].TitleFits || !a[2].TitleFits {
		t.Errorf("articles = %+v", a)
	}
	if !a[0].Published.Equal(newscorpus.SinaStart) || !a[1].Published.After(a[0].Published) || a[1].Published.Sub(a[0].Published) > sinaSpan {
		t.Errorf("Sina published at %v and %v, want spread from %v within %v", a[0].Published, a[1].Published, newscorpus.SinaStart, sinaSpan)
	}
	evening := time.Date(2023, 5, 6, 19, 0, 0, 0, newscorpus.Beijing)
	if !a[2].Published.Equal(evening) || !a[3].Published.Equal(evening.Add(time.Minute)) {
		t.Errorf("CCTV published at %v and %v, want %v and a minute later", a[2].Published, a[3].Published, evening)
	}
	if a[0].Chars != newscorpus.NonSpaceRunes(testStories[0]) {
		t.Errorf("Chars = %d", a[0].Chars)
	}

	limited, err := loadNews(t.Context(), dir, 1)
	if err != nil || len(limited.Articles) != 2 {
		t.Errorf("loadNews(limit 1) = %d articles, %v; want one of each corpus", len(limited.Articles), err)
	}
}

func TestLoadNewsMissing(t *testing.T) {
	t.Parallel()
	nc, err := loadNews(t.Context(), filepath.Join(t.TempDir(), "nowhere"), 0)
	if err != nil || !strings.Contains(nc.Missing, "does not exist") {
		t.Errorf("loadNews(no folder) = %v, missing %q", err, nc.Missing)
	}
	nc, err = loadNews(t.Context(), t.TempDir(), 0)
	if err != nil || !strings.Contains(nc.Missing, newscorpus.Files[corpusSina]) {
		t.Errorf("loadNews(empty folder) = %v, missing %q", err, nc.Missing)
	}
}

func TestBandOf(t *testing.T) {
	t.Parallel()
	for chars, want := range map[int]int{0: -1, 79: -1, 80: 0, 299: 0, 300: 1, 999: 1, 1000: 2, 50_000: 2} {
		if got := bandOf(chars); got != want {
			t.Errorf("bandOf(%d) = %d, want %d", chars, got, want)
		}
	}
}
