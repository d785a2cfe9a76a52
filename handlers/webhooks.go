package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/internal/webhook"
	"github.com/newsdedup/newsdedup/service"
)

// Deliveries lists webhook deliveries (webhook.Worker): what the editors
// see of the alerts.
type Deliveries interface {
	Deliveries(ctx context.Context, failedOnly bool, limit int) ([]webhook.Status, error)
}

const (
	defaultDeliveriesLimit = 100
	maxDeliveriesLimit     = 1000
)

type deliveriesResponse struct {
	Configured bool               `json:"configured"`
	Deliveries []deliveryResponse `json:"deliveries"`
}

type deliveryResponse struct {
	ID             string     `json:"id"`
	Subscription   string     `json:"subscription"`
	EventID        int64      `json:"event_id"`
	CopyID         int64      `json:"copy_id"`
	CopySource     string     `json:"copy_source"`
	OriginalID     int64      `json:"original_id"`
	OriginalSource string     `json:"original_source"`
	Credit         string     `json:"credit"`
	ClusterID      int64      `json:"cluster_id"`
	Attempts       int        `json:"attempts"`
	CreatedAt      time.Time  `json:"created_at"`
	NextAttemptAt  *time.Time `json:"next_attempt_at"`
	DeliveredAt    *time.Time `json:"delivered_at"`
	GaveUpAt       *time.Time `json:"gave_up_at"`
	LastStatus     *int       `json:"last_status"`
	LastError      *string    `json:"last_error"`
}

// deliveries is GET /v1/webhooks/deliveries?failed=true&limit=…: the
// latest deliveries, or those failed and not delivered, with their
// attempts and last error.
func (a *api) deliveries(c echo.Context) error {
	q := c.QueryParams()
	if err := queryparam.Once(q, "failed"); err != nil {
		return err
	}
	failed := false
	switch q.Get("failed") {
	case "", "false":
	case "true":
		failed = true
	default:
		return service.Invalid("failed", "must be true or false, not %q", q.Get("failed"))
	}
	limit, ok, err := queryparam.Int(q, "limit", 1, maxDeliveriesLimit)
	if err != nil {
		return err
	}
	if !ok {
		limit = defaultDeliveriesLimit
	}
	out := deliveriesResponse{Configured: a.webhooks != nil, Deliveries: []deliveryResponse{}}
	if a.webhooks == nil {
		return c.JSON(http.StatusOK, out)
	}
	ds, err := a.webhooks.Deliveries(c.Request().Context(), failed, int(limit))
	if err != nil {
		return &service.Error{Kind: service.KindUnavailable, Message: "the deliveries could not be read", Err: err}
	}
	for _, d := range ds {
		r := deliveryResponse{ID: d.ID, Subscription: d.Subscription, EventID: d.EventID, CopyID: d.CopyID,
			CopySource: d.CopySource, OriginalID: d.OriginalID, OriginalSource: d.OriginalSrc, Credit: d.Credit,
			ClusterID: d.ClusterID, Attempts: d.Attempts, CreatedAt: d.CreatedAt,
			DeliveredAt: d.DeliveredAt, GaveUpAt: d.GaveUpAt}
		if d.DeliveredAt == nil && d.GaveUpAt == nil {
			r.NextAttemptAt = &d.NextAttemptAt
		}
		if d.LastStatus != 0 {
			r.LastStatus = &d.LastStatus
		}
		if d.LastError != "" {
			r.LastError = &d.LastError
		}
		out.Deliveries = append(out.Deliveries, r)
	}
	return c.JSON(http.StatusOK, out)
}
