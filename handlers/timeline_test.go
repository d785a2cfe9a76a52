package handlers_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/samples"
)

// TestClusterTimelineAPI: a story at 08:00 copied at 08:20 by portal, at
// 09:10 by portal and sina: GET /v1/clusters/{id}/timeline counts 1 xinhua
// and 1 portal at 08:00, then 1 portal and 1 sina at 09:00; a member's id
// and an unknown one are 404.
func TestClusterTimelineAPI(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	st := samples.Stories[0]
	day := time.Date(2026, 6, 18, 8, 0, 0, 0, time.UTC)
	ingest := func(key, source string, at time.Time) int64 {
		a := article(key, st.Title, st.Repost())
		if source == "xinhua" {
			a = article(key, st.Title, st.Body)
		}
		a["source"], a["published_at"] = source, at.Format(time.RFC3339)
		return *s.ingest(t, a, http.StatusCreated).ID
	}
	head := ingest("x", "xinhua", day)
	member := ingest("p1", "portal", day.Add(20*time.Minute))
	ingest("p2", "portal", day.Add(70*time.Minute))
	ingest("s1", "sina", day.Add(70*time.Minute))

	type count struct {
		Hour     string `json:"hour"`
		Source   string `json:"source"`
		Articles int    `json:"articles"`
	}
	got := decode[struct {
		ClusterID int64   `json:"cluster_id"`
		Hours     []count `json:"hours"`
		Truncated bool    `json:"truncated"`
	}](t, s.get(t, fmt.Sprintf("/v1/clusters/%d/timeline", head)))
	want := []count{{"2026-06-18T08:00:00Z", "portal", 1}, {"2026-06-18T08:00:00Z", "xinhua", 1},
		{"2026-06-18T09:00:00Z", "portal", 1}, {"2026-06-18T09:00:00Z", "sina", 1}}
	if got.ClusterID != head || got.Truncated || fmt.Sprint(got.Hours) != fmt.Sprint(want) {
		t.Errorf("timeline %+v, want cluster %d with %v", got, head, want)
	}
	wantError(t, "a member's timeline", s.get(t, fmt.Sprintf("/v1/clusters/%d/timeline", member)), http.StatusNotFound, "not_found")
	wantError(t, "no such cluster", s.get(t, "/v1/clusters/999999/timeline"), http.StatusNotFound, "not_found")
}
