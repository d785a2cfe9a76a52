package ui_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/samples"
)

// TestUndoneSplitOffersNoUndo: once a split is undone its decision offers
// no undo button, and a second undo sent anyway (an old tab) is an editors'
// page in the editor's language that says why, not a generic "the value of
// decision_id is invalid".
func TestUndoneSplitOffersNoUndo(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	st := samples.Stories[2]
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	head := s.ingestAt(t, "xinhua", "x-1", st.Title, st.Body, day)
	short := s.ingestAt(t, "people", "p-1", st.Title, st.Shortened(), day.Add(2*time.Hour))
	b := s.browser(t)
	b.lang = "zh-CN,zh;q=0.9"
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	path := fmt.Sprintf("/ui/clusters/%d", head.ID)

	confirm := b.get(fmt.Sprintf("%s/split?article=%d", path, short.ID))
	wantStatus(t, "split", b.do(http.MethodPost, path+"/split", url.Values{"csrf": {b.csrf(confirm)}, "article_id": {fmt.Sprint(short.ID)}}, nil), http.StatusSeeOther)
	p := b.get(path)
	undoForm := regexp.MustCompile(`name="decision_id" value="(\d+)"`)
	m := undoForm.FindStringSubmatch(p.body)
	if m == nil {
		t.Fatal("the split offers no undo")
	}
	csrf := b.csrf(p)
	undo := func() page {
		return b.do(http.MethodPost, path+"/undo-split", url.Values{"csrf": {csrf}, "decision_id": {m[1]}}, nil)
	}
	wantStatus(t, "undo the split", undo(), http.StatusSeeOther)
	if p := b.get(path); undoForm.MatchString(p.body) {
		t.Error("the undone split still offers an undo button")
	}

	p = undo()
	wantStatus(t, "undo the split again", p, http.StatusUnprocessableEntity)
	for _, want := range []string{`<html lang="zh`, "这次拆出无法撤销", `href="/ui/"`} {
		if !strings.Contains(p.body, want) {
			t.Errorf("the second undo's page lacks %q:\n%s", want, p.body)
		}
	}
	if strings.Contains(p.body, "的值无效") {
		t.Errorf("the second undo's page is the generic invalid-value text:\n%s", p.body)
	}
}
