package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/clusterquery"
	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/handlers/tables"
	"github.com/newsdedup/newsdedup/service"
)

type decisionLogResponse struct {
	Decisions []decisionResponse `json:"decisions"`
	More      bool               `json:"more"`
}

// decisionLog is GET /v1/decisions?from=&to=&editor=&action=&limit=: the
// editors' decisions across clusters, latest first; as CSV or .xlsx up to
// 10,000.
func (a *api) decisionLog(c echo.Context) error {
	format, err := tables.FormatOf(c)
	if err != nil {
		return err
	}
	p := c.QueryParams()
	if err := queryparam.Once(p, "from", "to", "editor", "action", "limit", "format"); err != nil {
		return err
	}
	var q service.DecisionQuery
	if q.From, err = clusterquery.Time(p.Get("from"), "from", false, a.zone); err != nil {
		return err
	}
	if q.To, err = clusterquery.Time(p.Get("to"), "to", true, a.zone); err != nil {
		return err
	}
	q.Editor, q.Action = p.Get("editor"), service.Action(p.Get("action"))
	limit, ok, err := queryparam.Int(p, "limit", 1, service.MaxCopiesLimit)
	if err != nil {
		return err
	}
	if ok {
		q.Limit = int(limit)
	}
	if format != tables.JSON {
		sent, err := tables.Decisions(c, format, a.svc, q, a.zone)
		if err != nil && sent {
			a.log.Warn("decisions export cut off", "err", err)
			return nil
		}
		return err
	}
	ds, more, err := a.svc.DecisionLog(c.Request().Context(), q)
	if err != nil {
		return err
	}
	out := decisionLogResponse{Decisions: make([]decisionResponse, 0, len(ds)), More: more}
	for _, d := range ds {
		out.Decisions = append(out.Decisions, decision(d))
	}
	return c.JSON(http.StatusOK, out)
}
