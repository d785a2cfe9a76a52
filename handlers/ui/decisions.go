package ui

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/clusterquery"
	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/handlers/tables"
	"github.com/newsdedup/newsdedup/service"
)

// decisionsShown bounds the decisions the page lists; the downloads give
// up to service.MaxExportRows.
const decisionsShown = 200

// decisionActions are the actions the log filters by.
var decisionActions = []service.Action{service.ActionKeep, service.ActionReset, service.ActionSplit, service.ActionUndoSplit}

type decisionsView struct {
	layout
	From, To, Editor, Action string
	Actions                  []service.Action
	CSV, XLSX                string
	Decisions                []service.Decision
	More                     bool
	Error, ErrorField        string
}

// decisionQuery reads the log's filters: from, to (dates or RFC 3339 in
// the editors' zone), editor and action.
func (p *page) decisionQuery(params url.Values) (service.DecisionQuery, error) {
	var q service.DecisionQuery
	if err := queryparam.Once(params, "from", "to", "editor", "action", "format"); err != nil {
		return q, err
	}
	var err error
	if q.From, err = clusterquery.Time(params.Get("from"), "from", false, p.zone); err != nil {
		return q, err
	}
	if q.To, err = clusterquery.Time(params.Get("to"), "to", true, p.zone); err != nil {
		return q, err
	}
	q.Editor, q.Action = params.Get("editor"), service.Action(params.Get("action"))
	return q, nil
}

// decisions is GET /ui/decisions?from=&to=&editor=&action=: the editors'
// decisions across clusters, latest first, with the downloads.
func (p *page) decisions(c echo.Context) error {
	params := c.QueryParams()
	v := decisionsView{layout: p.layout(c, "log.page"), From: params.Get("from"), To: params.Get("to"),
		Editor: params.Get("editor"), Action: params.Get("action"), Actions: decisionActions}
	keep := url.Values{}
	for _, k := range []string{"from", "to", "editor", "action"} {
		if x := params.Get(k); x != "" {
			keep.Set(k, x)
		}
	}
	keep.Set("format", tables.CSV)
	v.CSV = "/ui/decisions/download?" + keep.Encode()
	keep.Set("format", tables.XLSX)
	v.XLSX = "/ui/decisions/download?" + keep.Encode()
	q, err := p.decisionQuery(params)
	if err == nil {
		q.Limit = decisionsShown
		v.Decisions, v.More, err = p.svc.DecisionLog(c.Request().Context(), q)
	}
	if errors.Is(err, service.ErrInvalid) {
		v.Error, v.ErrorField = p.localeOf(c).errorText(err, http.StatusUnprocessableEntity), fieldOf(err)
		return p.render(c, http.StatusUnprocessableEntity, "decisions", v)
	}
	if err != nil {
		return err
	}
	return p.render(c, http.StatusOK, "decisions", v)
}

// decisionsDownload is GET /ui/decisions/download?format=csv|xlsx&…: the
// decisions the page shows, every one up to service.MaxExportRows.
func (p *page) decisionsDownload(c echo.Context) error {
	format, err := tables.FormatOf(c)
	if err != nil {
		return err
	}
	if format == tables.JSON {
		return service.Invalid("format", "must be csv or xlsx")
	}
	q, err := p.decisionQuery(c.QueryParams())
	if err != nil {
		return err
	}
	sent, err := tables.Decisions(c, format, p.svc, q, p.zone)
	if err != nil && sent {
		p.log.Warn("decisions download cut off", "err", err)
		return nil
	}
	return err
}
