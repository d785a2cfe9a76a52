package newscorpus

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeCorpus writes lines as a plain .jsonl corpus file named after corpus
// name into dir. The text is the test's own.
func writeCorpus(t *testing.T, dir, name string, lines []map[string]any) {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		data, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, Files[name]), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeCorpus(t, dir, Sina, []map[string]any{
		{"id": 7, "title": "测试标题", "text": "第一 句。\n第二句。", "title_matches_body": false},
		{"id": 8, "title": "另一个", "text": "正文"},
		{"id": 9, "title": "第三个", "text": "不读"},
	})
	got, err := Read(t.Context(), dir, Sina, 2)
	if err != nil {
		t.Fatalf("Read() error: %v", err)
	}
	if len(got) != 2 {
		t.Fatalf("Read(limit 2) = %d articles", len(got))
	}
	if got[0].ExternalID() != "sina-7" || got[0].TitleFits || !got[1].TitleFits || got[0].Chars != 8 || got[1].Body != "正文" {
		t.Errorf("Read() = %+v", got)
	}
	if err := SetPublished(got); err != nil {
		t.Fatal(err)
	}
	if !got[0].Published.Equal(SinaStart) || got[1].Published.Sub(got[0].Published) != SinaSpan/2 {
		t.Errorf("published at %v and %v", got[0].Published, got[1].Published)
	}
}

func TestReadMissing(t *testing.T) {
	t.Parallel()
	if _, err := Read(t.Context(), t.TempDir(), CCTV, 0); !errors.Is(err, ErrMissing) {
		t.Errorf("Read(empty folder) error = %v, want ErrMissing", err)
	}
}

func TestSetPublishedCCTV(t *testing.T) {
	t.Parallel()
	a := []Article{{Corpus: CCTV, ID: "a", Date: "2023-05-06"}, {Corpus: CCTV, ID: "b", Date: "2023-05-06"}}
	if err := SetPublished(a); err != nil {
		t.Fatal(err)
	}
	evening := time.Date(2023, 5, 6, 19, 0, 0, 0, Beijing)
	if !a[0].Published.Equal(evening) || !a[1].Published.Equal(evening.Add(time.Minute)) {
		t.Errorf("published at %v and %v", a[0].Published, a[1].Published)
	}
}
