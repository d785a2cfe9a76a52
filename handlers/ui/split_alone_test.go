package ui_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/samples"
)

// TestSplitAlone: the split form offers to move a member alone; so split,
// the member heads a cluster of its own and an exact copy of it, which
// linked to it, stays in the cluster, linked by the rule to the original
// it also copies. The default still moves the subtree.
func TestSplitAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, scope := range []string{"alone", "subtree"} {
		t.Run(scope, func(t *testing.T) {
			t.Parallel()
			s := newStack(t)
			st := samples.Stories[3]
			day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
			head := s.ingestAt(t, "xinhua", "x-1", st.Title, st.Body, day)
			member := s.ingestAt(t, "portal", "w-1", st.Title, st.Repost(), day.Add(time.Hour))
			copied := s.ingestAt(t, "blog", "b-1", st.Title, st.Repost(), day.Add(2*time.Hour))
			if a, err := s.svc.FindArticle(ctx, copied.ID); err != nil || a.DuplicateOf != member.ID {
				t.Fatalf("the copy links to %d (%v), want the member %d: the test's premise", a.DuplicateOf, err, member.ID)
			}
			b := s.browser(t)
			b.lang = "zh-CN,zh;q=0.9"
			wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
			path := fmt.Sprintf("/ui/clusters/%d", head.ID)
			confirm := b.get(fmt.Sprintf("%s/split?article=%d", path, member.ID))
			if !strings.Contains(confirm.body, `name="scope" value="alone"`) {
				t.Fatalf("the split form offers no way to move the member alone:\n%s", confirm.body)
			}
			p := b.do(http.MethodPost, path+"/split", url.Values{"csrf": {b.csrf(confirm)}, "article_id": {fmt.Sprint(member.ID)}, "scope": {scope}}, nil)
			wantStatus(t, "split "+scope, p, http.StatusSeeOther)
			m, err1 := s.svc.FindArticle(ctx, member.ID)
			c, err2 := s.svc.FindArticle(ctx, copied.ID)
			if err1 != nil || err2 != nil || m.ClusterID != member.ID {
				t.Fatalf("the member is in cluster %d (%v %v), want its own", m.ClusterID, err1, err2)
			}
			want := member.ID
			if scope == "alone" {
				want = head.ID
			}
			if c.ClusterID != want {
				t.Errorf("split %s: the copy is in cluster %d (links to %d), want %d", scope, c.ClusterID, c.DuplicateOf, want)
			}
		})
	}
	s := newStack(t)
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	st := samples.Stories[3]
	head := s.ingest(t, "xinhua", "x-1", st.Title, st.Body, "")
	member := s.ingest(t, "portal", "w-1", st.Title, st.Repost(), "")
	path := fmt.Sprintf("/ui/clusters/%d", head.ID)
	confirm := b.get(fmt.Sprintf("%s/split?article=%d", path, member.ID))
	p := b.do(http.MethodPost, path+"/split", url.Values{"csrf": {b.csrf(confirm)}, "article_id": {fmt.Sprint(member.ID)}, "scope": {"everything"}}, nil)
	wantStatus(t, "a scope of no kind", p, http.StatusUnprocessableEntity)
}
