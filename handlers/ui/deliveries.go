package ui

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/internal/webhook"
	"github.com/newsdedup/newsdedup/service"
)

// deliveriesShown bounds the deliveries the page lists, latest first.
const deliveriesShown = 200

type deliveriesView struct {
	layout
	AlertsOn   bool
	FailedOnly bool
	Deliveries []webhook.Status
	Limit      int
}

// deliveriesPage is GET /ui/deliveries?failed=true: every alert's webhook
// deliveries, latest first — delivered, waiting for a retry or given up —
// with their attempts, last answer and error.
func (p *page) deliveriesPage(c echo.Context) error {
	params := c.QueryParams()
	if err := queryparam.Once(params, "failed"); err != nil {
		return err
	}
	v := deliveriesView{layout: p.layout(c, "deliveries.page"), AlertsOn: p.deliveries != nil, Limit: deliveriesShown}
	switch params.Get("failed") {
	case "", "false":
	case "true":
		v.FailedOnly = true
	default:
		return service.Invalid("failed", "must be true or false, not %q", params.Get("failed"))
	}
	if p.deliveries != nil {
		var err error
		if v.Deliveries, err = p.deliveries.Deliveries(c.Request().Context(), v.FailedOnly, deliveriesShown); err != nil {
			return &service.Error{Kind: service.KindUnavailable, Message: "the deliveries could not be read", Err: err}
		}
	}
	return p.render(c, http.StatusOK, "deliveries", v)
}
