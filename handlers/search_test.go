package handlers_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/samples"
)

// TestSearchSourcesOverview: GET /v1/search finds a story by a word of its
// headline, its CMS id and its URL; GET /v1/sources lists the sources;
// GET /v1/overview counts the days in the configured zone; GET
// /v1/clusters sorts and counts. Parameters given twice or out of range are
// 422.
func TestSearchSourcesOverview(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, withConfig(func(c *handlers.Config) { c.Location = berlin }))
	st := samples.Stories[0]
	now := time.Now().UTC().Format(time.RFC3339)
	head := article("xwlb-20250715-14481", st.Title, st.Body)
	head["published_at"] = now
	copy1 := article("w-1", st.Title, st.Repost())
	copy1["source"], copy1["published_at"] = "sina-testEdu", now
	h := s.ingest(t, head, http.StatusCreated)
	s.ingest(t, copy1, http.StatusCreated)

	type hit struct {
		ID          int64  `json:"id"`
		ClusterID   int64  `json:"cluster_id"`
		ClusterSize int    `json:"cluster_size"`
		Match       string `json:"match"`
	}
	type result struct {
		Query    string `json:"query"`
		Words    bool   `json:"words"`
		Articles []hit  `json:"articles"`
		More     bool   `json:"more"`
	}
	for q, want := range map[string]string{"洪水": "words", "xwlb-20250715-14481": "external_id", "https://news.example.com/xwlb-20250715-14481": "url"} {
		r := s.get(t, "/v1/search?q="+url.QueryEscape(q))
		wantStatus(t, "search "+q, r, http.StatusOK)
		res := decode[result](t, r)
		last := len(res.Articles) - 1 // the head: published with its copy, ingested before it
		if last < 0 || res.Articles[last].ID != *h.ID || res.Articles[last].Match != want || res.Articles[last].ClusterSize != 2 {
			t.Errorf("search %q = %+v, want article %d found by %s in a cluster of 2", q, res, *h.ID, want)
		}
	}
	if res := decode[result](t, s.get(t, "/v1/search?q="+url.QueryEscape("洪水")+"&limit=1")); len(res.Articles) != 1 || !res.More {
		t.Errorf("search with limit 1 = %+v, want one and more", res)
	}
	sources := decode[struct{ Sources []string }](t, s.get(t, "/v1/sources?prefix=SINA"))
	if len(sources.Sources) != 1 || sources.Sources[0] != "sina-testEdu" {
		t.Errorf("sources beginning with SINA = %v", sources.Sources)
	}

	type counts struct {
		Near    int `json:"near_duplicates"`
		Exact   int `json:"exact_duplicates"`
		Partial int `json:"partial_duplicates"`
	}
	o := decode[struct {
		TimeZone string `json:"time_zone"`
		Today    struct {
			Articles int `json:"articles"`
			Clusters int `json:"clusters"`
			counts
		} `json:"today"`
		Days []struct {
			Day string `json:"day"`
			counts
		} `json:"days"`
	}](t, s.get(t, "/v1/overview?days=7"))
	today := time.Now().In(berlin).Format(time.DateOnly)
	if o.TimeZone != "Europe/Berlin" || len(o.Days) != 7 || o.Days[6].Day != today || o.Today.Articles != 2 || o.Today.Clusters != 1 ||
		o.Today.Near+o.Today.Exact+o.Today.Partial != 1 {
		t.Errorf("overview = %+v, want 7 Berlin days to %s, today 2 articles, 1 cluster, 1 duplicate", o, today)
	}

	list := decode[struct {
		Clusters []struct{ ID int64 } `json:"clusters"`
		Total    *struct {
			Clusters int `json:"clusters"`
			Articles int `json:"articles"`
		} `json:"total"`
	}](t, s.get(t, "/v1/clusters?sort=size&total=true&source_prefix=sina"))
	if len(list.Clusters) != 1 || list.Total == nil || list.Total.Clusters != 1 || list.Total.Articles != 2 {
		t.Errorf("clusters by size with total = %+v", list)
	}
	if o := decode[object](t, s.get(t, "/v1/clusters")); o["total"] != nil {
		t.Errorf("clusters without total=true: total %v", o["total"])
	}

	for _, path := range []string{"/v1/search", "/v1/search?q=a&q=b", "/v1/search?q=x&limit=0", "/v1/search?q=x&limit=201",
		"/v1/sources?prefix=a&prefix=b", "/v1/overview?days=0", "/v1/overview?days=91", "/v1/overview?days=x",
		"/v1/clusters?sort=random", "/v1/clusters?total=yes", "/v1/clusters?source=a&source_prefix=a", "/v1/clusters?sort=size&sort=latest"} {
		wantError(t, path, s.get(t, path), http.StatusUnprocessableEntity, "invalid_argument")
	}
}
