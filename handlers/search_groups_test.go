package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/samples"
)

// TestSearchGroupedByCluster: a headline word found in a story with four
// copies and in another story: with group=cluster the five articles of
// the first are one cluster, in the order the articles are listed, and the
// other story its own; the flat list is unchanged. group=other is 422.
func TestSearchGroupedByCluster(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	flood := samples.Stories[0]
	day := time.Date(2026, 6, 18, 8, 0, 0, 0, time.UTC)
	ingest := func(key, source, title, body string, at time.Time) int64 {
		a := article(key, title, body)
		a["source"], a["published_at"] = source, at.Format(time.RFC3339)
		return *s.ingest(t, a, http.StatusCreated).ID
	}
	head := ingest("f-0", "xinhua", flood.Title, flood.Body, day)
	for i := 1; i <= 4; i++ {
		ingest(fmt.Sprintf("f-%d", i), fmt.Sprintf("portal-%d", i), flood.Title, flood.Repost(), day.Add(time.Duration(i)*time.Hour))
	}
	other := ingest("o-0", "cctv", "洪水过后重建家园", samples.Stories[1].Body, day.Add(150*time.Minute))

	type result struct {
		Articles []foundArticle `json:"articles"`
		Clusters []struct {
			ClusterID   int64   `json:"cluster_id"`
			ClusterSize int     `json:"cluster_size"`
			ArticleIDs  []int64 `json:"article_ids"`
		} `json:"clusters"`
	}
	flat := decode[result](t, s.get(t, "/v1/search?q="+url.QueryEscape("洪水")))
	if len(flat.Articles) != 6 || flat.Clusters != nil {
		t.Fatalf("flat search: %+v, want six articles and no clusters", flat)
	}
	g := decode[result](t, s.get(t, "/v1/search?group=cluster&q="+url.QueryEscape("洪水")))
	if !slices.Equal(idsOf(g.Articles), idsOf(flat.Articles)) {
		t.Errorf("grouped search lists articles %v, the flat one %v", idsOf(g.Articles), idsOf(flat.Articles))
	}
	if len(g.Clusters) != 2 {
		t.Fatalf("grouped search: clusters %+v, want 2", g.Clusters)
	}
	var storyIDs []int64
	for _, a := range g.Articles {
		if a.ClusterID == head {
			storyIDs = append(storyIDs, a.ID)
		}
	}
	// Newest first: the fourth copy (12:00) comes before the other story (10:30).
	if c := g.Clusters[0]; c.ClusterID != head || c.ClusterSize != 5 || !slices.Equal(c.ArticleIDs, storyIDs) || len(storyIDs) != 5 {
		t.Errorf("first cluster %+v, want %d of 5 with %v", c, head, storyIDs)
	}
	if c := g.Clusters[1]; c.ClusterID != other || !slices.Equal(c.ArticleIDs, []int64{other}) {
		t.Errorf("second cluster %+v, want %d alone", c, other)
	}
	wantError(t, "group=source", s.get(t, "/v1/search?group=source&q=x1"), http.StatusUnprocessableEntity, "invalid_argument")
}

type foundArticle struct {
	ID        int64 `json:"id"`
	ClusterID int64 `json:"cluster_id"`
}

func idsOf(xs []foundArticle) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = x.ID
	}
	return out
}
