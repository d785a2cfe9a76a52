package ui

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/clusterquery"
	"github.com/newsdedup/newsdedup/handlers/tables"
	"github.com/newsdedup/newsdedup/internal/webhook"
	"github.com/newsdedup/newsdedup/service"
)

// Deliveries lists the alerts' webhook deliveries (webhook.Worker).
type Deliveries interface {
	Deliveries(ctx context.Context, failedOnly bool, limit int) ([]webhook.Status, error)
}

// failedShown bounds the undelivered alerts the page lists.
const failedShown = 50

type copiesView struct {
	layout
	Source, From, To, Credit string
	CSV, XLSX                string // the download links, with the page's filters
	Report                   service.CopiesReport
	Error, ErrorField        string
	AlertsOn                 bool
	Failed                   []webhook.Status
}

// copies is GET /ui/copies: who copied the desk's (or a named source's)
// stories in a period, other outlets apart from our own sections, with
// the downloads and the alerts not delivered.
func (p *page) copies(c echo.Context) error {
	ctx := c.Request().Context()
	params := c.QueryParams()
	v := copiesView{layout: p.layout(c, "copies.page"), Source: params.Get("source"), From: params.Get("from"),
		To: params.Get("to"), Credit: params.Get("credit")}
	keep := url.Values{}
	for _, k := range []string{"source", "from", "to", "credit"} {
		if x := params.Get(k); x != "" {
			keep.Set(k, x)
		}
	}
	for _, f := range []string{tables.CSV, tables.XLSX} {
		keep.Set("format", f)
		link := "/ui/copies/download?" + keep.Encode()
		if f == tables.CSV {
			v.CSV = link
		} else {
			v.XLSX = link
		}
	}
	status := http.StatusOK
	q, err := clusterquery.Copies(params, params.Get("source"), p.svc.DeskSources(), p.zone)
	if err == nil {
		v.Report, err = p.svc.Copies(ctx, q)
	}
	if errors.Is(err, service.ErrInvalid) {
		status = http.StatusUnprocessableEntity
		v.Error, v.ErrorField = p.localeOf(c).errorText(err, status), fieldOf(err)
	} else if err != nil {
		return err
	}
	if p.deliveries != nil {
		v.AlertsOn = true
		if v.Failed, err = p.deliveries.Deliveries(ctx, true, failedShown); err != nil {
			return err
		}
	}
	return p.render(c, status, "copies", v)
}

// copiesDownload is GET /ui/copies/download?format=csv|xlsx&…: the
// copies the page shows, every one up to service.MaxExportRows.
func (p *page) copiesDownload(c echo.Context) error {
	params := c.QueryParams()
	format, err := tables.FormatOf(c)
	if err != nil {
		return err
	}
	if format == tables.JSON {
		return service.Invalid("format", "must be csv or xlsx")
	}
	q, err := clusterquery.Copies(params, params.Get("source"), p.svc.DeskSources(), p.zone)
	if err != nil {
		return err
	}
	sent, err := tables.Copies(c, format, p.svc, q, p.zone)
	if err != nil && sent {
		p.log.Warn("copies download cut off", "err", err)
		return nil
	}
	return err
}

// delay shows how long after the original a copy came, to the minute.
func delay(d time.Duration) string {
	d = d.Round(time.Minute)
	if d <= 0 {
		return "0m"
	}
	return strings.TrimSuffix(d.String(), "0s")
}
