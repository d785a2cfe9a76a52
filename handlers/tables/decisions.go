package tables

import (
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// DecisionsHeader is the header row of the decisions log export.
var DecisionsHeader = []string{"id", "decided_at", "editor", "action", "cluster_id", "article_id",
	"article_source", "article_external_id", "note"}

// Decisions writes the decisions log q asks for, up to
// service.MaxExportRows (a cut file says so); sent as for Copies.
func Decisions(c echo.Context, format string, svc *service.Service, q service.DecisionQuery, zone *time.Location) (sent bool, err error) {
	t, err := New(c, format, "decisions", DecisionsHeader)
	if err != nil {
		return false, err
	}
	cut, err := svc.EachDecision(c.Request().Context(), q, func(d service.Decision) error {
		return t.Row(d.ID, d.DecidedAt.In(zone).Format(time.DateTime), d.Editor, string(d.Action), d.ClusterID,
			d.ArticleID, d.ArticleSource, d.ArticleExternalID, d.Note)
	})
	if err != nil {
		return false, err
	}
	if cut {
		t.Cut()
	}
	return true, t.Close()
}
