package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// A cluster's original and how each member differs from it, in
// GET /v1/clusters/{id}; the other coverage of its story.

type originalResponse struct {
	ID          int64  `json:"id"`
	PublishedAt string `json:"published_at"`
	Copies      int    `json:"copies"`
	// CorrectedAt: when its latest earlier content was superseded; null
	// when never corrected. Corrections: what that changed, side by side.
	CorrectedAt *string              `json:"corrected_at"`
	Corrections []correctionResponse `json:"corrections"`
}

type correctionResponse struct {
	Superseded string `json:"superseded"`
	Corrected  string `json:"corrected"`
}

func original(o service.Original, corr service.Corrections) originalResponse {
	r := originalResponse{ID: o.ID, PublishedAt: timestamp(o.PublishedAt), Copies: o.Copies, Corrections: []correctionResponse{}}
	if !corr.CorrectedAt.IsZero() {
		t := timestamp(corr.CorrectedAt)
		r.CorrectedAt = &t
	}
	for _, p := range corr.Passages {
		r.Corrections = append(r.Corrections, correctionResponse{Superseded: p.Superseded, Corrected: p.Corrected})
	}
	return r
}

type differenceResponse struct {
	Same              bool `json:"same"`
	HeadlineChanged   bool `json:"headline_changed"`
	BylineAdded       bool `json:"byline_added"`
	BylineRemoved     bool `json:"byline_removed"`
	BoilerplateAdded  int  `json:"boilerplate_added"`
	FirstPercent      int  `json:"first_percent"`
	ParagraphsDropped int  `json:"paragraphs_dropped"`
	ParagraphsAdded   int  `json:"paragraphs_added"`
	OtherEdits        int  `json:"other_edits"`
	Truncated         bool `json:"truncated"`
	// AgainstVersion: the original's earlier version the member was
	// measured against, the one it copied; null for the current content.
	AgainstVersion *int `json:"against_version"`
}

// copiedVersionResponse is the earlier version of the original a member
// copied, and the corrections since that it still carries.
type copiedVersionResponse struct {
	Version      int                  `json:"version"`
	SupersededAt string               `json:"superseded_at"`
	Carries      []correctionResponse `json:"carries"`
}

func copiedVersion(cv service.CopiedVersion) *copiedVersionResponse {
	r := &copiedVersionResponse{Version: cv.Version, SupersededAt: timestamp(cv.SupersededAt), Carries: []correctionResponse{}}
	for _, p := range cv.Passages {
		r.Carries = append(r.Carries, correctionResponse{Superseded: p.Superseded, Corrected: p.Corrected})
	}
	return r
}

func difference(d service.Difference) *differenceResponse {
	return &differenceResponse{Same: d.Same, HeadlineChanged: d.HeadlineChanged, BylineAdded: d.BylineAdded, BylineRemoved: d.BylineRemoved,
		BoilerplateAdded: d.BoilerplateAdded, FirstPercent: d.FirstPercent, ParagraphsDropped: d.ParagraphsDropped,
		ParagraphsAdded: d.ParagraphsAdded, OtherEdits: d.OtherEdits, Truncated: d.Truncated, AgainstVersion: against(d.AgainstVersion)}
}

func against(version int) *int {
	if version == 0 {
		return nil
	}
	return &version
}

type otherCoverageResponse struct {
	ClusterID int64                   `json:"cluster_id"`
	Articles  []sharedArticleResponse `json:"articles"`
}

// otherCoverage is GET /v1/clusters/{id}/other-coverage: the articles
// outside the cluster that share sentences with it.
func (a *api) otherCoverage(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	v, err := a.svc.Cluster(ctx, id)
	if err != nil {
		return err
	}
	other, err := a.svc.OtherCoverage(ctx, v)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, otherCoverageResponse{ClusterID: id, Articles: sharedSentences(service.SharedSentences{Articles: other}).Articles})
}
