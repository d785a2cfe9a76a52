package ui_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/service"
)

// TestFormsReadTheirBodyOnly: a form's fields and security token come
// from its body; a POST whose address carries a query — the token above
// all — is refused and changes nothing, whatever its body holds.
func TestFormsReadTheirBodyOnly(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	st := samples.Stories[0]
	head := s.ingest(t, "xinhua", "x-1", st.Title, st.Body, "")
	repost := s.ingest(t, "portal", "w-1", st.Title, st.Repost(), "")
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", "k1"), http.StatusSeeOther)
	cluster := fmt.Sprintf("/ui/clusters/%d", head.ID)
	csrf := b.csrf(b.get(cluster))
	article := fmt.Sprint(repost.ID)
	q := func(v url.Values) string { return "?" + v.Encode() }

	for name, tt := range map[string]struct {
		path string
		body url.Values
	}{
		"everything in the address, an empty body": {cluster + "/kept" + q(url.Values{"csrf": {csrf}, "article_id": {article}}), url.Values{}},
		"the token in the address":                 {cluster + "/kept" + q(url.Values{"csrf": {csrf}}), url.Values{"article_id": {article}}},
		"the article in the address":               {cluster + "/kept" + q(url.Values{"article_id": {article}}), url.Values{"csrf": {csrf}}},
		"the token in both":                        {cluster + "/kept" + q(url.Values{"csrf": {csrf}}), url.Values{"csrf": {csrf}, "article_id": {article}}},
		"a split from the address":                 {cluster + "/split" + q(url.Values{"csrf": {csrf}, "article_id": {article}}), url.Values{}},
		"a note in the address":                    {cluster + "/split" + q(url.Values{"note": {"x"}}), url.Values{"csrf": {csrf}, "article_id": {article}}},
		"a reset from the address":                 {cluster + "/reset" + q(url.Values{"csrf": {csrf}}), url.Values{}},
		"a sign-out from the address":              {"/ui/signout" + q(url.Values{"csrf": {csrf}}), url.Values{}},
	} {
		p := b.do(http.MethodPost, tt.path, tt.body, nil)
		wantStatus(t, name, p, http.StatusBadRequest)
		if !strings.Contains(p.body, "must carry no query") {
			t.Errorf("%s: the page does not say why", name)
		}
	}
	view, err := s.svc.Cluster(context.Background(), head.ID)
	if err != nil || view.Kept.By != nil || len(view.Decisions) != 0 || view.Size != 2 {
		t.Fatalf("after forms in addresses: kept %+v, %d decisions, size %d, %v; want nothing recorded", view.Kept, len(view.Decisions), view.Size, err)
	}
	wantStatus(t, "still signed in", b.get("/ui/"), http.StatusOK)

	// Signing in from an address is refused too: no session.
	b2 := s.browser(t)
	token := b2.csrf(b2.get("/ui/signin"))
	p := b2.do(http.MethodPost, "/ui/signin"+q(url.Values{"csrf": {token}, "name": {"李明"}, "key": {"k1"}}), url.Values{}, nil)
	wantStatus(t, "sign in from the address", p, http.StatusBadRequest)
	if b2.cookie("newsdedup_session") != nil {
		t.Error("a sign-in from the address gave a session")
	}

	// The same form from its body is recorded.
	p = b.do(http.MethodPost, cluster+"/kept", url.Values{"csrf": {csrf}, "article_id": {article}}, nil)
	wantStatus(t, "keep from the body", p, http.StatusSeeOther)
	if view, _ := s.svc.Cluster(context.Background(), head.ID); view.Kept.ID != repost.ID || view.Kept.By == nil {
		t.Errorf("keep from the body: kept %+v", view.Kept)
	}
}

// TestNoticesComeFromTheServer: the page announces a decision only after
// the form that recorded it, once, as the cluster's record tells it; an
// address that names a decision announces nothing, and a notice cookie
// naming another cluster's decision neither.
func TestNoticesComeFromTheServer(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	st := samples.Stories[1]
	head := s.ingest(t, "xinhua", "x-1", st.Title, st.Body, "")
	repost := s.ingest(t, "portal", "w-1", st.Title, st.Repost(), "")
	short := s.ingest(t, "people", "p-1", st.Title, st.Shortened(), "")
	other := s.ingest(t, "xinhua", "x-2", samples.Stories[0].Title, samples.Stories[0].Body, "")
	otherCopy := s.ingest(t, "portal", "w-2", samples.Stories[0].Title, samples.Stories[0].Repost(), "")
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", "k1"), http.StatusSeeOther)
	cluster := fmt.Sprintf("/ui/clusters/%d", head.ID)
	notice := regexp.MustCompile(`<p class="done"[^>]*>([^<]*)(?: <a [^>]*>[^<]*</a>)?</p>`) // a split's notice links to the new cluster

	for _, q := range []string{
		fmt.Sprintf("?done=split&article=%d", repost.ID),
		fmt.Sprintf("?done=kept&article=%d", short.ID),
		"?done=reset",
	} {
		p := b.get(cluster + q)
		wantStatus(t, "GET "+cluster+q, p, http.StatusOK)
		if m := notice.FindStringSubmatch(p.body); m != nil {
			t.Errorf("GET %s%s announces %q", cluster, q, m[1])
		}
	}

	csrf := b.csrf(b.get(cluster))
	p := b.do(http.MethodPost, cluster+"/kept", url.Values{"csrf": {csrf}, "article_id": {fmt.Sprint(short.ID)}, "note": {"第一行\r\n第二行"}}, nil)
	wantStatus(t, "keep", p, http.StatusSeeOther)
	if loc := p.header.Get("Location"); loc != cluster {
		t.Errorf("after keep, to %q, want %q", loc, cluster)
	}
	p = b.get(cluster)
	if m := notice.FindStringSubmatch(p.body); m == nil || m[1] != fmt.Sprintf("Article %d is now the kept member of this cluster.", short.ID) {
		t.Errorf("after keep, the notice is %q", m)
	}
	if !strings.Contains(p.body, `class="note">第一行`+"\r\n"+`第二行<`) {
		t.Error("the note is not shown with its line break")
	}
	if m := notice.FindStringSubmatch(b.get(cluster).body); m != nil {
		t.Errorf("reloaded, the page announces %q again", m[1])
	}

	// A notice cookie naming another cluster's decision says nothing here.
	d, err := s.svc.Keep(context.Background(), other.ID, otherCopy.ID, service.DecisionInput{Editor: "李明"})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(s.URL + "/ui/")
	b.jar.SetCookies(u, []*http.Cookie{{Name: "newsdedup_done", Value: fmt.Sprint(d.ID), Path: "/ui/"}})
	if m := notice.FindStringSubmatch(b.get(cluster).body); m != nil {
		t.Errorf("a notice cookie of another cluster's decision: the page announces %q", m[1])
	}

	// A split, announced from its record.
	csrf = b.csrf(b.get(cluster))
	p = b.do(http.MethodPost, cluster+"/split", url.Values{"csrf": {csrf}, "article_id": {fmt.Sprint(repost.ID)}}, nil)
	wantStatus(t, "split", p, http.StatusSeeOther)
	if m := notice.FindStringSubmatch(b.get(p.header.Get("Location")).body); m == nil || !strings.Contains(m[1], fmt.Sprintf("Article %d was split out", repost.ID)) {
		t.Errorf("after the split, the notice is %q", m)
	}
}

// TestEditorNamesWithoutFormatCharacters: a name holding a bidirectional
// control or a zero-width character signs nobody in.
func TestEditorNamesWithoutFormatCharacters(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	for _, name := range []string{"\u202egnp.exe", "王\u200b芳", "\u2067王芳"} {
		b := s.browser(t)
		p := b.signIn(name, "k1")
		wantStatus(t, fmt.Sprintf("sign in as %+q", name), p, http.StatusUnprocessableEntity)
		if b.cookie("newsdedup_session") != nil {
			t.Errorf("signed in as %+q", name)
		}
	}
}
