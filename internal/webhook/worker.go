package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

// Store is the outbox as the worker uses it (repo.Store).
type Store interface {
	// FanOut takes up to limit events not yet fanned out, skipping those
	// another worker holds, queues a delivery to each subscription match
	// names, and marks them fanned out, in one transaction. It returns how
	// many events it took.
	FanOut(ctx context.Context, limit int, match func(Event) []string) (int, error)
	// ClaimDeliveries takes up to limit due deliveries, skipping those
	// another worker holds, counts an attempt and moves each lease ahead.
	ClaimDeliveries(ctx context.Context, limit int, lease time.Duration) ([]Delivery, error)
	// Delivered records a delivery's success.
	Delivered(ctx context.Context, id string, status int) error
	// Failed records a failed attempt: retried at next, or given up when
	// giveUp.
	Failed(ctx context.Context, id string, status int, msg string, next time.Time, giveUp bool) error
	// Deliveries lists deliveries, the latest first: only those failed at
	// least once or given up when failedOnly.
	Deliveries(ctx context.Context, failedOnly bool, limit int) ([]Status, error)
}

// Worker delivers the outbox. Several may run against one database, in
// one process or many: each claims with FOR UPDATE SKIP LOCKED.
type Worker struct {
	Store  Store
	Config Config
	// Desk is DEDUP_DESK_SOURCES: the sources a subscription that names
	// none watches.
	Desk   []string
	Client *http.Client
	Log    *slog.Logger

	// Poll is how often the outbox is looked at when idle (1 s).
	Poll time.Duration
	// Lease is how long a claimed delivery is left to its worker before
	// another may try it (the client's timeout and some; 30 s).
	Lease time.Duration
	// Backoff is the wait after the first failure, doubled after each
	// (5 s), up to MaxBackoff (1 h); after MaxAttempts (12) it gives up.
	Backoff     time.Duration
	MaxBackoff  time.Duration
	MaxAttempts int
	// Now is the clock (time.Now).
	Now func() time.Time
}

const batch = 50

func (w *Worker) defaults() {
	if w.Poll <= 0 {
		w.Poll = time.Second
	}
	if w.Lease <= 0 {
		w.Lease = 30 * time.Second
	}
	if w.Backoff <= 0 {
		w.Backoff = 5 * time.Second
	}
	if w.MaxBackoff <= 0 {
		w.MaxBackoff = time.Hour
	}
	if w.MaxAttempts <= 0 {
		w.MaxAttempts = 12
	}
	if w.Client == nil {
		w.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if w.Log == nil {
		w.Log = slog.New(slog.DiscardHandler)
	}
	if w.Now == nil {
		w.Now = time.Now
	}
	if w.Client.Timeout <= 0 || w.Client.Timeout >= w.Lease {
		// A request outliving its lease could be delivered twice at once.
		c := *w.Client
		c.Timeout = w.Lease / 2
		w.Client = &c
	}
}

// Run delivers until ctx ends. A database error is logged and retried
// at the next poll; it never stops the worker.
func (w *Worker) Run(ctx context.Context) {
	w.defaults()
	t := time.NewTicker(w.Poll)
	defer t.Stop()
	for {
		busy, err := w.Step(ctx)
		if err != nil && ctx.Err() == nil {
			w.Log.Warn("webhook delivery", "err", err)
		}
		if busy && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Step fans out and delivers one batch; busy says there may be more.
func (w *Worker) Step(ctx context.Context) (busy bool, err error) {
	w.defaults()
	subs := map[string]Subscription{}
	for _, s := range w.Config.Subscriptions {
		subs[s.Name] = s
	}
	n, err := w.Store.FanOut(ctx, batch, func(e Event) []string {
		var names []string
		for _, s := range w.Config.Subscriptions {
			if s.matches(e, w.Desk) {
				names = append(names, s.Name)
			}
		}
		return names
	})
	if err != nil {
		return false, fmt.Errorf("fan out: %w", err)
	}
	ds, err := w.Store.ClaimDeliveries(ctx, batch, w.Lease)
	if err != nil {
		return false, fmt.Errorf("claim: %w", err)
	}
	for _, d := range ds {
		if err := w.deliver(ctx, subs, d); err != nil {
			return false, err
		}
	}
	return n == batch || len(ds) == batch, nil
}

// deliver makes one attempt of d and records its outcome. A cancelled ctx
// records nothing: the lease hands the delivery to the next worker.
func (w *Worker) deliver(ctx context.Context, subs map[string]Subscription, d Delivery) error {
	s, ok := subs[d.Subscription]
	if !ok {
		return w.Store.Failed(ctx, d.ID, 0, "subscription no longer configured", w.Now(), true)
	}
	status, err := w.send(ctx, s, d)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err == nil {
		w.Log.Info("webhook delivered", "delivery", d.ID, "subscription", d.Subscription, "attempts", d.Attempts)
		return w.Store.Delivered(ctx, d.ID, status)
	}
	giveUp := d.Attempts >= w.MaxAttempts
	wait := w.Backoff << min(d.Attempts-1, 30)
	if wait <= 0 || wait > w.MaxBackoff {
		wait = w.MaxBackoff
	}
	w.Log.Warn("webhook delivery failed", "delivery", d.ID, "subscription", d.Subscription,
		"attempts", d.Attempts, "retry_in", wait.String(), "gave_up", giveUp, "err", err)
	return w.Store.Failed(ctx, d.ID, status, err.Error(), w.Now().Add(wait), giveUp)
}

// send posts d to s; a non-2xx status, or a robot's non-zero error code,
// is an error.
func (w *Worker) send(ctx context.Context, s Subscription, d Delivery) (int, error) {
	req, err := request(s, d, w.Config.ClusterURL, w.Now())
	if err != nil {
		return 0, err
	}
	resp, err := w.Client.Do(req.WithContext(ctx))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("receiver answered %s: %.200s", resp.Status, body)
	}
	if s.Format != FormatJSON {
		// The robots answer 200 with an error code in the body.
		var r struct {
			ErrCode *int   `json:"errcode"`
			ErrMsg  string `json:"errmsg"`
			Code    *int   `json:"code"`
			Msg     string `json:"msg"`
		}
		if json.Unmarshal(body, &r) == nil {
			if r.ErrCode != nil && *r.ErrCode != 0 {
				return resp.StatusCode, fmt.Errorf("robot error %d: %s", *r.ErrCode, r.ErrMsg)
			}
			if r.Code != nil && *r.Code != 0 {
				return resp.StatusCode, fmt.Errorf("robot error %d: %s", *r.Code, r.Msg)
			}
		}
	}
	return resp.StatusCode, nil
}

// ErrNoStore is returned by Deliveries on a worker without a store.
var ErrNoStore = errors.New("webhooks are not configured")

// Deliveries lists deliveries for the editors (see Store.Deliveries).
func (w *Worker) Deliveries(ctx context.Context, failedOnly bool, limit int) ([]Status, error) {
	if w == nil || w.Store == nil {
		return nil, ErrNoStore
	}
	return w.Store.Deliveries(ctx, failedOnly, limit)
}
