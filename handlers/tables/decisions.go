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
// service.MaxExportRows; as Copies, the table starts with the first row.
func Decisions(c echo.Context, format string, svc *service.Service, q service.DecisionQuery, zone *time.Location) (sent bool, err error) {
	var t *Table
	start := func() (err error) {
		t, err = New(c, format, "decisions", DecisionsHeader)
		return err
	}
	err = svc.EachDecision(c.Request().Context(), q, func(d service.Decision) error {
		if t == nil {
			if err := start(); err != nil {
				return err
			}
		}
		return t.Row(d.ID, d.DecidedAt.In(zone).Format(time.DateTime), d.Editor, string(d.Action), d.ClusterID,
			d.ArticleID, d.ArticleSource, d.ArticleExternalID, d.Note)
	})
	if err != nil {
		return t != nil, err
	}
	if t == nil {
		if err := start(); err != nil {
			return false, err
		}
	}
	return true, t.Close()
}
