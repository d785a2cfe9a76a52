package handlers

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/service"
)

// Finding a story and the day at a glance, as the editors' page shows
// them: GET /v1/search, GET /v1/sources and GET /v1/overview.

// search is GET /v1/search?q=…&limit=…&group=cluster: the articles a
// query names by id, CMS key or URL, then those whose headline holds its
// words, newest first; with group=cluster, also the clusters they are in.
func (a *api) search(c echo.Context) error {
	q := c.QueryParams()
	if err := queryparam.Once(q, "q", "group"); err != nil {
		return err
	}
	grouped := false
	switch g := q.Get("group"); g {
	case "":
	case "cluster":
		grouped = true
	default:
		return service.Invalid("group", "must be cluster, not %q", g)
	}
	limit, ok, err := queryparam.Int(q, "limit", 1, service.MaxSearchLimit)
	if err != nil {
		return err
	}
	if !ok {
		limit = service.DefaultSearchLimit
	}
	r, err := a.svc.Search(c.Request().Context(), q.Get("q"), int(limit))
	if err != nil {
		return err
	}
	out := searchResponse{Query: r.Terms.Text, Words: r.Terms.Words, More: r.More, Articles: make([]searchHitResponse, 0, len(r.Hits))}
	for _, h := range r.Hits {
		out.Articles = append(out.Articles, searchHitResponse{ID: h.ID, ExternalID: h.ExternalID, Source: h.Source, Title: h.Title,
			URL: h.URL, PublishedAt: timestamp(h.PublishedAt), Status: h.Status, ClusterID: h.ClusterID, ClusterSize: h.ClusterSize, Match: h.Match})
	}
	if grouped {
		out.Clusters = []searchGroupResponse{}
		for _, g := range r.ByCluster() {
			ids := make([]int64, len(g.Hits))
			for i, h := range g.Hits {
				ids[i] = h.ID
			}
			out.Clusters = append(out.Clusters, searchGroupResponse{ClusterID: g.ClusterID, ClusterSize: g.ClusterSize, ArticleIDs: ids})
		}
	}
	return c.JSON(http.StatusOK, out)
}

type searchResponse struct {
	Query    string                `json:"query"`
	Words    bool                  `json:"words"`
	Articles []searchHitResponse   `json:"articles"`
	More     bool                  `json:"more"`
	Clusters []searchGroupResponse `json:"clusters,omitempty"` // group=cluster
}

// searchGroupResponse is a cluster the found articles are in, with those
// of them it holds, in the order of articles.
type searchGroupResponse struct {
	ClusterID   int64   `json:"cluster_id"`
	ClusterSize int     `json:"cluster_size"`
	ArticleIDs  []int64 `json:"article_ids"`
}

type searchHitResponse struct {
	ID          int64               `json:"id"`
	ExternalID  string              `json:"external_id"`
	Source      string              `json:"source"`
	Title       string              `json:"title"`
	URL         string              `json:"url"`
	PublishedAt string              `json:"published_at"`
	Status      service.Status      `json:"status"`
	ClusterID   int64               `json:"cluster_id"`
	ClusterSize int                 `json:"cluster_size"`
	Match       service.SearchMatch `json:"match"`
}

// sources is GET /v1/sources?prefix=…: the known sources.
func (a *api) sources(c echo.Context) error {
	q := c.QueryParams()
	if err := queryparam.Once(q, "prefix"); err != nil {
		return err
	}
	s, err := a.svc.Sources(c.Request().Context(), q.Get("prefix"))
	if err != nil {
		return err
	}
	if s == nil {
		s = []string{}
	}
	return c.JSON(http.StatusOK, sourcesResponse{Sources: s})
}

type sourcesResponse struct {
	Sources []string `json:"sources"`
}

// overview is GET /v1/overview?days=…: today, the last 24 hours and the
// duplicates of each of the last days, in the editors' time zone.
func (a *api) overview(c echo.Context) error {
	days, ok, err := queryparam.Int(c.QueryParams(), "days", 1, service.MaxOverviewDays)
	if err != nil {
		return err
	}
	if !ok {
		days = service.DefaultOverviewDays
	}
	o, err := a.svc.Overview(c.Request().Context(), a.zone, int(days))
	if err != nil {
		return err
	}
	r := overviewResponse{TimeZone: o.Location.String(), Now: timestamp(o.Now), Today: period(o.Today), Last24h: period(o.Last24h),
		Days: make([]dayResponse, 0, len(o.Days)), Sources: sourceCounts(o.Sources)}
	for _, d := range o.Days {
		r.Days = append(r.Days, dayResponse{Day: d.Day.Format(time.DateOnly), From: timestamp(d.Day), duplicateCounts: counts(d.DuplicateCounts)})
	}
	return c.JSON(http.StatusOK, r)
}

type duplicateCounts struct {
	Near    int `json:"near_duplicates"`
	Exact   int `json:"exact_duplicates"`
	Partial int `json:"partial_duplicates"`
}

func counts(c service.DuplicateCounts) duplicateCounts {
	return duplicateCounts{Near: c.Near, Exact: c.Exact, Partial: c.Partial}
}

type overviewResponse struct {
	TimeZone string                `json:"time_zone"`
	Now      string                `json:"now"`
	Today    periodResponse        `json:"today"`
	Last24h  periodResponse        `json:"last_24_hours"`
	Days     []dayResponse         `json:"days"`
	Sources  []sourceCountResponse `json:"sources"`
}

type periodResponse struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Articles int    `json:"articles"`
	Clusters int    `json:"clusters"`
	duplicateCounts
	TopSources []sourceCountResponse `json:"top_sources"`
}

type dayResponse struct {
	Day  string `json:"day"`
	From string `json:"from"`
	duplicateCounts
}

type sourceCountResponse struct {
	Source string `json:"source"`
	duplicateCounts
	// OwnSections: of its duplicates, those of its own owner's sources
	// (today's and the last 24 hours' top sources; 0 elsewhere).
	OwnSections int `json:"own_sections"`
}

func period(p service.Period) periodResponse {
	return periodResponse{From: timestamp(p.From), To: timestamp(p.To), Articles: p.Articles, Clusters: p.Clusters,
		duplicateCounts: counts(p.DuplicateCounts), TopSources: sourceCounts(p.TopSources)}
}

func sourceCounts(ss []service.SourceCount) []sourceCountResponse {
	out := make([]sourceCountResponse, 0, len(ss))
	for _, s := range ss {
		out = append(out, sourceCountResponse{Source: s.Source, duplicateCounts: counts(s.DuplicateCounts), OwnSections: s.OwnSections})
	}
	return out
}
