package handlers_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/newsdedup/newsdedup/internal/samples"
)

// TestSplitAloneThroughTheAPI: POST /v1/clusters/{id}/split with scope
// "alone" moves the member only — an exact copy of it, which linked to it,
// stays in the cluster, linked by the rule to the original it also copies
// — as the editors' split form does; "subtree" (and no scope) moves both;
// any other scope is 422 naming the field.
func TestSplitAloneThroughTheAPI(t *testing.T) {
	t.Parallel()
	st := samples.Stories[3]
	for _, scope := range []string{"alone", "subtree", ""} {
		t.Run("scope="+scope, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, withKeys("k1"))
			at := func(source, id, body, published string) verdict {
				a := storyArticle(source, id, st.Title, body)
				a["published_at"] = published
				return s.ingest(t, a, http.StatusCreated)
			}
			head := at("xinhua", "x-1", st.Body, "2026-06-18T08:00:00+08:00")
			member := at("portal", "w-1", st.Repost(), "2026-06-18T09:00:00+08:00")
			copied := at("blog", "b-1", st.Repost(), "2026-06-18T10:00:00+08:00")
			if copied.DuplicateOf == nil || copied.DuplicateOf.ID != *member.ID {
				t.Fatalf("the copy links to %+v, want the member %d: the test's premise", copied.DuplicateOf, *member.ID)
			}
			body := map[string]any{"article_id": *member.ID, "editor": "王芳"}
			if scope != "" {
				body["scope"] = scope
			}
			r := s.post(t, fmt.Sprintf("/v1/clusters/%d/split", *head.ID), body)
			wantStatus(t, "split "+scope, r, http.StatusOK)
			split := decode[splitResult](t, r)
			moved, cluster := []int64{*member.ID, *copied.ID}, *member.ID
			if scope == "alone" {
				moved, cluster = []int64{*member.ID}, *head.ID
			}
			slices.Sort(split.Moved)
			if split.ClusterID != *member.ID || !slices.Equal(split.Moved, moved) {
				t.Errorf("split %q: %+v, want cluster %d moving %v", scope, split, *member.ID, moved)
			}
			r = s.get(t, fmt.Sprintf("/v1/articles/%d", *copied.ID))
			wantStatus(t, "the copy", r, http.StatusOK)
			if a := decode[struct {
				ClusterID int64 `json:"cluster_id"`
			}](t, r); a.ClusterID != cluster {
				t.Errorf("split %q: the copy is in cluster %d, want %d", scope, a.ClusterID, cluster)
			}
		})
	}
	s := newServer(t, withKeys("k1"))
	head := s.ingest(t, storyArticle("xinhua", "x-1", st.Title, st.Body), http.StatusCreated)
	member := s.ingest(t, storyArticle("portal", "w-1", st.Title, st.Repost()), http.StatusCreated)
	r := s.post(t, fmt.Sprintf("/v1/clusters/%d/split", *head.ID), map[string]any{"article_id": *member.ID, "editor": "王芳", "scope": "everything"})
	if e := wantError(t, "a scope of no kind", r, http.StatusUnprocessableEntity, "invalid_argument"); e.Error.Field != "scope" {
		t.Errorf("a scope of no kind: the error names %q, want scope", e.Error.Field)
	}
}
