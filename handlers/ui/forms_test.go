package ui_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/samples"
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
