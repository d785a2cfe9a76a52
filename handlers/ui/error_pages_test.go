package ui_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestEveryErrorIsAnEditorsPage: whatever goes wrong under /ui/ — an
// address of no page, a method a page does not take, a form field of the
// wrong shape — the answer is a page of the editors' page (its layout, its
// language), never the API's JSON or a bare text.
func TestEveryErrorIsAnEditorsPage(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	b := s.browser(t)
	b.lang = "zh-CN,zh;q=0.9"
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	csrf := b.csrf(b.get("/ui/"))
	for _, tt := range []struct {
		what, method, path string
		form               url.Values
	}{
		{"no such page", http.MethodGet, "/ui/nothing-here", nil},
		{"no such cluster", http.MethodGet, "/ui/clusters/999999", nil},
		{"a GET of a form's address", http.MethodGet, "/ui/clusters/1/undo-split", nil},
		{"a decision id that is no number", http.MethodPost, "/ui/clusters/1/undo-split", url.Values{"csrf": {csrf}, "decision_id": {"x"}}},
		{"no decision id", http.MethodPost, "/ui/clusters/1/undo-split", url.Values{"csrf": {csrf}}},
		{"no such decision", http.MethodPost, "/ui/clusters/1/undo-split", url.Values{"csrf": {csrf}, "decision_id": {"999999"}}},
		{"an article id that is no number", http.MethodPost, "/ui/clusters/1/kept", url.Values{"csrf": {csrf}, "article_id": {"x"}}},
	} {
		p := b.do(tt.method, tt.path, tt.form, nil)
		if p.status < 400 {
			t.Errorf("%s: status %d, want an error", tt.what, p.status)
			continue
		}
		ct := p.header.Get("Content-Type")
		if !strings.HasPrefix(ct, "text/html") || !strings.Contains(p.body, `<html lang="zh`) || !strings.Contains(p.body, "返回稿件组列表") {
			t.Errorf("%s: %d %s, not an editors' page in Chinese:\n%s", tt.what, p.status, ct, p.body)
		}
		if strings.Contains(p.body, "的值无效") {
			t.Errorf("%s: the generic invalid-value text:\n%s", tt.what, p.body)
		}
	}
}
