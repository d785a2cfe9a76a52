package handlers

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/clusterquery"
	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/handlers/tables"
	"github.com/newsdedup/newsdedup/service"
)

// The clusters and the editors' decisions: the list, one cluster with its
// kept member, keeping another member, splitting one out.

// listClusters is GET /v1/clusters: a page of the clusters of two or more
// articles, newest first (or largest, or by latest member), and with
// total=true how many the filters match.
func (a *api) listClusters(c echo.Context) error {
	ctx := c.Request().Context()
	key := func() ([]byte, error) { return a.svc.CursorKey(ctx) }
	params := c.QueryParams()
	if err := queryparam.Once(params, "total"); err != nil {
		return err
	}
	withTotal := false
	switch params.Get("total") {
	case "", "false":
	case "true":
		withTotal = true
	default:
		return service.Invalid("total", "must be true or false, not %q", params.Get("total"))
	}
	format, err := tables.FormatOf(c)
	if err != nil {
		return err
	}
	if err := queryparam.Once(params, "format"); err != nil {
		return err
	}
	params.Del("format")
	q, err := clusterquery.Parse(params, key)
	if err != nil {
		return err
	}
	if format != tables.JSON {
		sent, err := tables.Clusters(c, format, a.svc, q, a.zone)
		if err != nil && sent {
			a.log.Warn("clusters export cut off", "err", err)
			return nil
		}
		return err
	}
	page, err := a.svc.Clusters(ctx, q)
	if err != nil {
		return err
	}
	r := clusterListResponse{Clusters: make([]clusterSummaryResponse, 0, len(page.Clusters))}
	if withTotal {
		t, err := a.svc.CountClusters(ctx, q)
		if err != nil {
			return err
		}
		r.Total = &clusterTotalResponse{Clusters: t.Clusters, Articles: t.Articles}
	}
	for _, s := range page.Clusters {
		r.Clusters = append(r.Clusters, clusterSummary(s))
	}
	if page.Next != nil {
		k, err := key()
		if err != nil {
			return err
		}
		next := clusterquery.EncodeCursor(*page.Next, k)
		r.NextCursor = &next
	}
	return c.JSON(http.StatusOK, r)
}

// findCluster is GET /v1/clusters/{id}.
func (a *api) findCluster(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	return a.clusterResponse(c, id)
}

// clusterResponse answers with the cluster headed by id, each member with
// how it differs from the original.
func (a *api) clusterResponse(c echo.Context, id int64) error {
	ctx := c.Request().Context()
	v, err := a.svc.Cluster(ctx, id)
	if err != nil {
		return err
	}
	corr, err := a.svc.Corrections(ctx, v)
	if err != nil {
		return err
	}
	diffs, err := a.svc.Differences(ctx, v, corr)
	if err != nil {
		return err
	}
	if format, err := tables.FormatOf(c); err != nil || format != tables.JSON {
		if err != nil {
			return err
		}
		return tables.Members(c, format, v, diffs, a.zone)
	}
	return c.JSON(http.StatusOK, clusterOf(v, diffs, corr))
}

// decisionRequest is the body of PUT /v1/clusters/{id}/kept and POST
// /v1/clusters/{id}/split.
type decisionRequest struct {
	ArticleID *int64 `json:"article_id"`
	Editor    string `json:"editor"`
	Note      string `json:"note"`
}

// splitRequest is the body of POST /v1/clusters/{id}/split: scope
// "subtree" (the default) moves the member with the articles whose links
// lead to it, "alone" the member only, its copies relinked to the rest by
// the rule (service.SplitAlone), as the editors' split form offers.
type splitRequest struct {
	decisionRequest `json:",inline"`
	Scope           string `json:"scope"`
}

func (r *decisionRequest) input() service.DecisionInput {
	return service.DecisionInput{Editor: r.Editor, Note: r.Note}
}

// setKept is PUT /v1/clusters/{id}/kept: an editor keeps article_id, or
// with article_id null returns the cluster to the keep rule. It answers
// with the cluster.
func (a *api) setKept(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req decisionRequest
	if err := decodeBody(c, a.maxBody, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if req.ArticleID == nil {
		_, err = a.svc.ResetKept(ctx, id, req.input())
	} else {
		_, err = a.svc.Keep(ctx, id, *req.ArticleID, req.input())
	}
	if err != nil {
		return err
	}
	return a.clusterResponse(c, id)
}

// split is POST /v1/clusters/{id}/split: article_id and the articles
// linking to it become a cluster of their own, never linked to the rest
// again.
func (a *api) split(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req splitRequest
	if err := decodeBody(c, a.maxBody, &req); err != nil {
		return err
	}
	if req.ArticleID == nil {
		return service.Invalid("article_id", "is required: the article to split out")
	}
	split := a.svc.Split
	switch req.Scope {
	case "", "subtree":
	case "alone":
		split = a.svc.SplitAlone
	default:
		return service.Invalid("scope", "must be subtree or alone, not %q", req.Scope)
	}
	res, err := split(c.Request().Context(), id, *req.ArticleID, req.input())
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, "/v1/clusters/"+strconv.FormatInt(res.ClusterID, 10))
	return c.JSON(http.StatusOK, splitResponse{
		Decision:       decision(res.Decision),
		ClusterID:      res.ClusterID,
		Moved:          res.Moved,
		SeparatedPairs: res.Separated,
	})
}

// clusterResponse is a cluster with its kept member and its decisions.
type clusterResponse struct {
	ID         int64              `json:"id"`
	Size       int                `json:"size"`
	Kept       keptResponse       `json:"kept"`
	Original   originalResponse   `json:"original"`
	KeepPolicy keepPolicyResponse `json:"keep_policy"`
	Members    []memberResponse   `json:"members"`
	Decisions  []decisionResponse `json:"decisions"`
}

type keptResponse struct {
	ID       int64             `json:"id"`
	Rule     service.KeepRule  `json:"rule"`
	Reason   string            `json:"reason"`
	Decision *decisionResponse `json:"decision"`
}

type keepPolicyResponse struct {
	Sources                []string `json:"sources"`
	LengthTolerancePercent int      `json:"length_tolerance_percent"`
	Description            string   `json:"description"`
}

type memberResponse struct {
	articleResponse
	TextLength int                 `json:"text_length"`
	Kept       bool                `json:"kept"`
	Likeness   *likenessResponse   `json:"likeness"`
	Difference *differenceResponse `json:"difference"`
	// Compilation: it holds most of the text of two stories or more.
	Compilation bool `json:"compilation"`
	// Credit: how it credits the article it links to; null when it links
	// to none or was stored before credit was kept.
	Credit *service.Credit `json:"credit"`
	// CarriesSuperseded: it still holds text the original corrected.
	CarriesSuperseded bool `json:"carries_superseded"`
	// CopiedVersion: the original's earlier version it copied, when it
	// carries superseded text; its difference is measured against it.
	CopiedVersion *copiedVersionResponse `json:"copied_version"`
}

type likenessResponse struct {
	Distance     int     `json:"distance"`
	WordRatio    float64 `json:"word_ratio"`
	Overlap      float64 `json:"overlap"`
	Coverage     float64 `json:"coverage"`
	KeptCoverage float64 `json:"kept_coverage"`
}

type decisionResponse struct {
	ID                int64          `json:"id"`
	Action            service.Action `json:"action"`
	ClusterID         int64          `json:"cluster_id"`
	ArticleID         *int64         `json:"article_id"`
	ArticleSource     *string        `json:"article_source"`
	ArticleExternalID *string        `json:"article_external_id"`
	Editor            string         `json:"editor"`
	Note              string         `json:"note"`
	DecidedAt         string         `json:"decided_at"`
}

type splitResponse struct {
	Decision       decisionResponse `json:"decision"`
	ClusterID      int64            `json:"cluster_id"`
	Moved          []int64          `json:"moved"`
	SeparatedPairs int              `json:"separated_pairs"`
}

type clusterListResponse struct {
	Clusters   []clusterSummaryResponse `json:"clusters"`
	NextCursor *string                  `json:"next_cursor"`
	Total      *clusterTotalResponse    `json:"total,omitempty"`
}

type clusterTotalResponse struct {
	Clusters int `json:"clusters"`
	Articles int `json:"articles"`
}

type clusterSummaryResponse struct {
	ID             int64                `json:"id"`
	Title          string               `json:"title"`
	Source         string               `json:"source"`
	ExternalID     string               `json:"external_id"`
	PublishedAt    string               `json:"published_at"`
	Size           int                  `json:"size"`
	Sources        []string             `json:"sources"`
	Statuses       []service.Status     `json:"statuses"`
	LastIngestedAt string               `json:"last_ingested_at"`
	Kept           *keptResponse        `json:"kept"`
	KeptArticle    *keptArticleResponse `json:"kept_article"`
	OtherCoverage  otherCoverageCount   `json:"other_coverage"`
}

// otherCoverageCount is how many articles GET /v1/clusters/{id}/other-coverage
// lists for a cluster, counted up to service.MaxOtherCoverageCounted.
type otherCoverageCount struct {
	Articles int  `json:"articles"`
	More     bool `json:"more"`
}

type keptArticleResponse struct {
	ID         int64  `json:"id"`
	Source     string `json:"source"`
	ExternalID string `json:"external_id"`
	Title      string `json:"title"`
}

func clusterOf(v service.ClusterView, diffs map[int64]service.Difference, corr service.Corrections) clusterResponse {
	r := clusterResponse{
		ID:         v.ID,
		Size:       v.Size,
		Kept:       kept(v.Kept),
		Original:   original(v.Original, corr),
		KeepPolicy: keepPolicy(v.Policy),
		Members:    make([]memberResponse, 0, len(v.Members)),
		Decisions:  make([]decisionResponse, 0, len(v.Decisions)),
	}
	for _, m := range v.Members {
		mr := memberResponse{articleResponse: article(m.Article), TextLength: m.TextLength, Kept: m.ID == v.Kept.ID,
			Compilation: v.Compilations[m.ID], CarriesSuperseded: corr.Carriers[m.ID]}
		if cv, ok := corr.Copied[m.ID]; ok {
			mr.CopiedVersion = copiedVersion(cv)
		}
		if m.Credit != "" {
			mr.Credit = &m.Credit
		}
		if l, ok := v.Likeness[m.ID]; ok {
			mr.Likeness = &likenessResponse{Distance: l.Distance, WordRatio: ratio(l.WordRatio), Overlap: ratio(l.Overlap),
				Coverage: ratio(l.Coverage), KeptCoverage: ratio(l.KeptCoverage)}
		}
		if d, ok := diffs[m.ID]; ok {
			mr.Difference = difference(d)
		}
		r.Members = append(r.Members, mr)
	}
	for _, d := range v.Decisions {
		r.Decisions = append(r.Decisions, decision(d))
	}
	return r
}

func kept(k service.Kept) keptResponse {
	r := keptResponse{ID: k.ID, Rule: k.Rule, Reason: k.Reason}
	if k.By != nil {
		d := decision(*k.By)
		r.Decision = &d
	}
	return r
}

func keepPolicy(p service.KeepPolicy) keepPolicyResponse {
	sources := p.Sources
	if sources == nil {
		sources = []string{}
	}
	return keepPolicyResponse{Sources: sources, LengthTolerancePercent: service.KeepLengthTolerancePercent, Description: p.Describe()}
}

func decision(d service.Decision) decisionResponse {
	r := decisionResponse{ID: d.ID, Action: d.Action, ClusterID: d.ClusterID, Editor: d.Editor, Note: d.Note, DecidedAt: timestamp(d.DecidedAt)}
	if d.ArticleID != 0 {
		r.ArticleID = &d.ArticleID
	}
	if d.Action != service.ActionReset {
		r.ArticleSource, r.ArticleExternalID = &d.ArticleSource, &d.ArticleExternalID
	}
	return r
}

func clusterSummary(s service.ClusterSummary) clusterSummaryResponse {
	r := clusterSummaryResponse{
		ID:             s.ID,
		Title:          s.Title,
		Source:         s.Source,
		ExternalID:     s.ExternalID,
		PublishedAt:    timestamp(s.PublishedAt),
		Size:           s.Size,
		Sources:        s.Sources,
		Statuses:       s.Statuses,
		LastIngestedAt: timestamp(s.LastIngested),
		OtherCoverage:  otherCoverageCount{Articles: s.OtherCoverage.Articles, More: s.OtherCoverage.More},
	}
	if s.Kept.ID != 0 {
		k := kept(s.Kept)
		r.Kept = &k
		m := s.KeptMember
		r.KeptArticle = &keptArticleResponse{ID: m.ID, Source: m.Source, ExternalID: m.ExternalID, Title: m.Title}
	}
	return r
}
