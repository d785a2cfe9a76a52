package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/webhook"
)

var _ webhook.Store = (*Store)(nil)

// FanOut takes up to limit events of the copy_events outbox not yet fanned
// out, skipping those another worker holds (FOR UPDATE SKIP LOCKED),
// queues a delivery to each subscription match names, and marks the events
// fanned out, in one transaction: a crash before the commit leaves them to
// the next worker.
func (s *Store) FanOut(ctx context.Context, limit int, match func(webhook.Event) []string) (int, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, interpretError(err, "begin fan-out")
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit, a no-op
	rows, err := tx.Query(ctx, `
		SELECT id, article_id, article_source, article_owner, original_id, original_source, original_owner,
		       credit, cluster_id, created_at
		FROM copy_events WHERE fanned_out_at IS NULL
		ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`, limit)
	if err != nil {
		return 0, interpretError(err, "read copy events")
	}
	events, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (webhook.Event, error) {
		var e webhook.Event
		err := r.Scan(&e.ID, &e.Copy.ID, &e.Copy.Source, &e.Copy.Owner, &e.Original.ID, &e.Original.Source,
			&e.Original.Owner, &e.Credit, &e.ClusterID, &e.CreatedAt)
		return e, err
	})
	if err != nil {
		return 0, interpretError(err, "read copy events")
	}
	if len(events) == 0 {
		return 0, nil
	}
	var (
		ids, dEvents []int64
		dSubs        []string
	)
	for _, e := range events {
		ids = append(ids, e.ID)
		for _, name := range match(e) {
			dEvents = append(dEvents, e.ID)
			dSubs = append(dSubs, name)
		}
	}
	if len(dEvents) > 0 {
		if _, err := tx.Exec(ctx, `
			INSERT INTO webhook_deliveries (event_id, subscription)
			SELECT * FROM unnest($1::int8[], $2::text[])
			ON CONFLICT ON CONSTRAINT webhook_deliveries_event_subscription_key DO NOTHING`, dEvents, dSubs); err != nil {
			return 0, interpretError(err, "queue deliveries")
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE copy_events SET fanned_out_at = now() WHERE id = ANY($1)`, ids); err != nil {
		return 0, interpretError(err, "mark events fanned out")
	}
	return len(events), interpretError(tx.Commit(ctx), "commit fan-out")
}

// ClaimDeliveries takes up to limit due deliveries, skipping those another
// worker holds, counts the attempt and moves each lease ahead; with each,
// the event and what is still stored of its two articles.
func (s *Store) ClaimDeliveries(ctx context.Context, limit int, lease time.Duration) ([]webhook.Delivery, error) {
	rows, err := s.pool.Query(ctx, `
		WITH due AS (
			SELECT id FROM webhook_deliveries
			WHERE delivered_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= now()
			ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED
		), claimed AS (
			UPDATE webhook_deliveries d
			SET attempts = d.attempts + 1, next_attempt_at = now() + $2::interval
			FROM due WHERE d.id = due.id
			RETURNING d.id, d.subscription, d.attempts, d.event_id
		)
		SELECT c.id::text, c.subscription, c.attempts,
		       e.id, e.article_id, e.article_source, e.article_owner, e.original_id, e.original_source,
		       e.original_owner, e.credit, e.cluster_id, e.created_at,
		       coalesce(ca.title, ''), coalesce(ca.url, ''), coalesce(ca.published_at, 'epoch'),
		       coalesce(oa.title, ''), coalesce(oa.url, ''), coalesce(oa.published_at, 'epoch')
		FROM claimed c
		JOIN copy_events e ON e.id = c.event_id
		LEFT JOIN articles ca ON ca.id = e.article_id
		LEFT JOIN articles oa ON oa.id = e.original_id
		ORDER BY e.id`, limit, lease)
	if err != nil {
		return nil, interpretError(err, "claim deliveries")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (webhook.Delivery, error) {
		var d webhook.Delivery
		e := &d.Event
		err := r.Scan(&d.ID, &d.Subscription, &d.Attempts,
			&e.ID, &e.Copy.ID, &e.Copy.Source, &e.Copy.Owner, &e.Original.ID, &e.Original.Source,
			&e.Original.Owner, &e.Credit, &e.ClusterID, &e.CreatedAt,
			&e.Copy.Title, &e.Copy.URL, &e.Copy.PublishedAt, &e.Original.Title, &e.Original.URL, &e.Original.PublishedAt)
		for _, t := range []*time.Time{&e.Copy.PublishedAt, &e.Original.PublishedAt} {
			if t.Unix() == 0 {
				*t = time.Time{}
			}
		}
		return d, err
	})
	return out, interpretError(err, "claim deliveries")
}

// Delivered records a delivery's success.
func (s *Store) Delivered(ctx context.Context, id string, status int) error {
	_, err := s.pool.Exec(ctx, `
		UPDATE webhook_deliveries SET delivered_at = now(), last_status = $2, last_error = NULL
		WHERE id = $1::uuid`, id, status)
	return interpretError(err, "record delivery")
}

// Failed records a failed attempt: due again at next, or given up.
func (s *Store) Failed(ctx context.Context, id string, status int, msg string, next time.Time, giveUp bool) error {
	_, err := s.pool.Exec(ctx, `
		UPDATE webhook_deliveries
		SET next_attempt_at = $4, last_status = nullif($2, 0), last_error = left($3, 1000),
		    gave_up_at = CASE WHEN $5 THEN now() END
		WHERE id = $1::uuid`, id, status, msg, next, giveUp)
	return interpretError(err, "record failed delivery")
}

// Deliveries lists deliveries, the latest first; with failedOnly, those
// that failed at least once (pending or given up) and are not delivered.
func (s *Store) Deliveries(ctx context.Context, failedOnly bool, limit int) ([]webhook.Status, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT d.id::text, d.subscription, e.id, e.article_id, e.article_source, e.original_id, e.original_source,
		       e.credit, e.cluster_id, d.attempts, d.created_at, d.next_attempt_at, d.delivered_at, d.gave_up_at,
		       coalesce(d.last_status, 0), coalesce(d.last_error, '')
		FROM webhook_deliveries d JOIN copy_events e ON e.id = d.event_id
		WHERE NOT $1 OR (d.delivered_at IS NULL AND d.last_error IS NOT NULL)
		ORDER BY d.created_at DESC, d.id LIMIT $2`, failedOnly, limit)
	if err != nil {
		return nil, interpretError(err, "list deliveries")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (webhook.Status, error) {
		var st webhook.Status
		err := r.Scan(&st.ID, &st.Subscription, &st.EventID, &st.CopyID, &st.CopySource, &st.OriginalID, &st.OriginalSrc,
			&st.Credit, &st.ClusterID, &st.Attempts, &st.CreatedAt, &st.NextAttemptAt, &st.DeliveredAt, &st.GaveUpAt,
			&st.LastStatus, &st.LastError)
		return st, err
	})
	return out, interpretError(err, "list deliveries")
}
