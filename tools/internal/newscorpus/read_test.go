package newscorpus

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// writeCorpus writes lines as corpus name's file in dir (WriteLines).
func writeCorpus(t *testing.T, dir, name string, lines []map[string]any) {
	t.Helper()
	if err := WriteLines(dir, name, lines); err != nil {
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

func TestReadAll(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeCorpus(t, dir, Sina, []map[string]any{
		{"id": 1, "title": "一", "text": "正文一"},
		{"id": 2, "title": "空", "text": "  \n "},
		{"id": 3, "title": "三", "text": "正文三"},
	})
	if _, _, missing, err := ReadAll(t.Context(), dir); err != nil || !strings.Contains(missing, "cctv") {
		t.Errorf("ReadAll(Sina alone) = missing %q, error %v; want CCTV missing", missing, err)
	}
	writeCorpus(t, dir, CCTV, []map[string]any{{"id": "c1", "title": "四", "text": "正文四", "date": "2022-01-02"}})
	got, blank, missing, err := ReadAll(t.Context(), dir)
	if err != nil || missing != "" {
		t.Fatalf("ReadAll() missing %q, error %v", missing, err)
	}
	var ids []string
	for _, a := range got {
		ids = append(ids, a.ExternalID())
		if a.Published.IsZero() {
			t.Errorf("%s: no publication time", a.ExternalID())
		}
	}
	if strings.Join(ids, " ") != "sina-1 sina-3 cctv-c1" || blank != 1 {
		t.Errorf("ReadAll() = %v, %d blank; want sina-1 sina-3 cctv-c1, 1 blank", ids, blank)
	}
	if _, _, missing, _ := ReadAll(t.Context(), dir+"/nowhere"); !strings.Contains(missing, "does not exist") {
		t.Errorf("ReadAll(no folder) missing = %q", missing)
	}
}
