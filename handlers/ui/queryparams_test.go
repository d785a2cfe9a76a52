package ui_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/samples"
)

// TestIntegerParametersOfThePage: the page's integers — the list's sizes
// and limit, the member to compare, the article to split out or keep — are
// checked before the database; one out of range is a 422 page naming it,
// never a 5xx, never silently another article.
func TestIntegerParametersOfThePage(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	st := samples.Stories[0]
	head := s.ingest(t, "xinhua", "x-1", st.Title, st.Body, "")
	s.ingest(t, "portal", "w-1", st.Title, st.Repost(), "")
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", "k1"), http.StatusSeeOther)
	cluster := fmt.Sprintf("/ui/clusters/%d", head.ID)
	csrf := b.csrf(b.get(cluster))

	for path, field := range map[string]string{
		"/ui/?max_size=2147483648":             "max_size",
		"/ui/?min_size=2147483648":             "min_size",
		"/ui/?limit=9223372036854775808":       "limit",
		cluster + "?with=-1":                   "with",
		cluster + "?with=abc":                  "with",
		cluster + "?with=99999999999999999999": "with",
		cluster + "/split?article=0":           "article",
		cluster + "/split":                     "article",
	} {
		p := b.get(path)
		wantStatus(t, "GET "+path, p, http.StatusUnprocessableEntity)
		if !strings.Contains(p.body, field) {
			t.Errorf("GET %s: the page does not name %s", path, field)
		}
	}
	for _, id := range []string{"abc", "-3", "0", ""} {
		p := b.do(http.MethodPost, cluster+"/kept", url.Values{"csrf": {csrf}, "article_id": {id}}, nil)
		wantStatus(t, "keep article_id="+id, p, http.StatusUnprocessableEntity)
		if !strings.Contains(p.body, "article_id") {
			t.Errorf("keep article_id=%q: the page does not name article_id", id)
		}
	}
	wantStatus(t, "the largest size the database holds", b.get("/ui/?max_size=2147483647"), http.StatusOK)
}

// TestRepeatedParametersOfThePage: a parameter of the page given twice is
// a 422 page naming it, in an address or in a form.
func TestRepeatedParametersOfThePage(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	st := samples.Stories[0]
	head := s.ingest(t, "xinhua", "x-1", st.Title, st.Body, "")
	repost := s.ingest(t, "portal", "w-1", st.Title, st.Repost(), "")
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", "k1"), http.StatusSeeOther)
	cluster := fmt.Sprintf("/ui/clusters/%d", head.ID)
	csrf := b.csrf(b.get(cluster))
	for path, field := range map[string]string{
		"/ui/?source=xinhua&source=portal":                                         "source",
		"/ui/?status=unique&status=":                                               "status",
		"/ui/?limit=1&limit=2":                                                     "limit",
		fmt.Sprintf("%s?with=%d&with=%d", cluster, repost.ID, head.ID):             "with",
		fmt.Sprintf("%s/split?article=%d&article=%d", cluster, repost.ID, head.ID): "article",
		"/ui/signin?next=/ui/&next=/ui/clusters/1":                                 "next",
	} {
		p := b.get(path)
		wantStatus(t, "GET "+path, p, http.StatusUnprocessableEntity)
		if !strings.Contains(p.body, field) {
			t.Errorf("GET %s: the page does not name %s", path, field)
		}
	}
	p := b.do(http.MethodPost, cluster+"/kept", url.Values{"csrf": {csrf}, "article_id": {fmt.Sprint(repost.ID), fmt.Sprint(head.ID)}}, nil)
	wantStatus(t, "keep with article_id twice", p, http.StatusUnprocessableEntity)
	if view, _ := s.svc.Cluster(context.Background(), head.ID); view.Kept.By != nil {
		t.Errorf("a form with article_id twice kept article %d", view.Kept.ID)
	}
}

// TestCursorsOfThePage: the list's next page link works, and a cursor the
// server did not give is a 422 page naming it.
func TestCursorsOfThePage(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	for i, st := range samples.Stories[:2] {
		s.ingest(t, "xinhua", fmt.Sprintf("x-%d", i), st.Title, st.Body, "")
		s.ingest(t, "portal", fmt.Sprintf("w-%d", i), st.Title, st.Repost(), "")
	}
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", "k1"), http.StatusSeeOther)
	// The totals, counted (a page of one) or read off the one page.
	for _, p := range []string{"/ui/?limit=1", "/ui/"} {
		if body := b.get(p).body; !strings.Contains(body, "2 clusters match, 4 articles.") {
			t.Errorf("%s does not say 2 clusters match, 4 articles.: %s", p, regexp.MustCompile(`<p class="totals">[^<]*`).FindString(body))
		}
	}
	first := b.get("/ui/?limit=1")
	m := regexp.MustCompile(`href="([^"]+)" rel="next"`).FindStringSubmatch(first.body)
	if m == nil {
		t.Fatalf("the first page of one has no next page link")
	}
	next := html.UnescapeString(m[1])
	wantStatus(t, "the next page", b.get(next), http.StatusOK)
	u, _ := url.Parse(next)
	q := u.Query()
	forged := q.Get("cursor") + "A"
	q.Set("cursor", forged)
	p := b.get("/ui/?" + q.Encode())
	wantStatus(t, "an edited cursor", p, http.StatusUnprocessableEntity)
	if !strings.Contains(p.body, "cursor") {
		t.Error("the page of an edited cursor does not name cursor")
	}
}
