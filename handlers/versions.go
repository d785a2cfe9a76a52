package handlers

import (
	"encoding/hex"
	"net/http"

	"github.com/labstack/echo/v4"
)

// versionsResponse is GET /v1/articles/{id}/versions.
type versionsResponse struct {
	ArticleID int64             `json:"article_id"`
	Versions  []versionResponse `json:"versions"`
}

type versionResponse struct {
	Version      int                 `json:"version"`
	Title        string              `json:"title"`
	BodyHash     string              `json:"content_hash"`
	PublishedAt  string              `json:"published_at"`
	StoredAt     string              `json:"stored_at"`
	SupersededAt *string             `json:"superseded_at"`
	Current      bool                `json:"current"`
	Changed      *differenceResponse `json:"changed"`
}

// versions is GET /v1/articles/{id}/versions: the contents the article has
// had, earliest first, the current one last, each with what it changed.
func (a *api) versions(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	vs, err := a.svc.Versions(c.Request().Context(), id)
	if err != nil {
		return err
	}
	r := versionsResponse{ArticleID: id, Versions: make([]versionResponse, 0, len(vs))}
	for _, v := range vs {
		vr := versionResponse{Version: v.Version, Title: v.Title, BodyHash: hex.EncodeToString(v.ContentHash[:]),
			PublishedAt: timestamp(v.PublishedAt), StoredAt: timestamp(v.StoredAt), Current: v.Current}
		if !v.Current {
			s := timestamp(v.SupersededAt)
			vr.SupersededAt = &s
		}
		if v.Changed != nil {
			vr.Changed = difference(*v.Changed)
		}
		r.Versions = append(r.Versions, vr)
	}
	return c.JSON(http.StatusOK, r)
}
