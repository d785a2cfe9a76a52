-- The outbox of copy alerts (issue 48). copy_events gets one row per copy
-- of another article the moment its credit is stored, by a trigger: in the
-- same transaction as the ingest, whatever path stores it, so an event is
-- committed exactly when the copy is and a crash loses neither. dedupd's
-- delivery worker (webhook/) fans each event out to the subscriptions it
-- matches, one webhook_deliveries row each, and delivers them at least
-- once; the row's id is the delivery id a receiver de-duplicates by.
--
-- +goose Up
CREATE TABLE copy_events (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    article_id      bigint      NOT NULL,
    article_source  text        NOT NULL,
    article_owner   text        NOT NULL,
    original_id     bigint      NOT NULL,
    original_source text        NOT NULL,
    original_owner  text        NOT NULL,
    credit          text        NOT NULL,
    cluster_id      bigint      NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    fanned_out_at   timestamptz,
    CONSTRAINT copy_events_article_original_key UNIQUE (article_id, original_id)
);
CREATE INDEX copy_events_pending_idx ON copy_events (id) WHERE fanned_out_at IS NULL;
COMMENT ON TABLE copy_events IS 'The outbox: one row per copy (article_id) of another article (original_id), written by a trigger in the transaction that stores the copy''s credit. No foreign keys: an alert outlives a deleted article.';
COMMENT ON COLUMN copy_events.fanned_out_at IS 'When the delivery worker matched the event against the subscriptions and queued its deliveries; NULL until then.';

CREATE TABLE webhook_deliveries (
    id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    event_id        bigint      NOT NULL REFERENCES copy_events (id) ON DELETE CASCADE,
    subscription    text        NOT NULL,
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz,
    gave_up_at      timestamptz,
    last_status     integer,
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT webhook_deliveries_event_subscription_key UNIQUE (event_id, subscription)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
    WHERE delivered_at IS NULL AND gave_up_at IS NULL;
COMMENT ON TABLE webhook_deliveries IS 'One event to one subscription. id is the delivery id (X-Newsdedup-Delivery): the same on every attempt, so a receiver can de-duplicate.';
COMMENT ON COLUMN webhook_deliveries.next_attempt_at IS 'When the delivery is due; a worker that claims it moves it a lease ahead, so that a worker killed mid-delivery leaves it to another once the lease ends.';
COMMENT ON COLUMN webhook_deliveries.attempts IS 'Attempts claimed so far, the one in flight included.';
COMMENT ON COLUMN webhook_deliveries.gave_up_at IS 'When the worker stopped retrying (too many attempts, or the subscription is no longer configured).';

-- +goose StatementBegin
CREATE FUNCTION record_copy_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO copy_events (article_id, article_source, article_owner, original_id, original_source,
                             original_owner, credit, cluster_id)
    SELECT NEW.id, NEW.source, source_owner(NEW.source), o.id, o.source, source_owner(o.source),
           NEW.credit, NEW.cluster_id
    FROM articles o
    WHERE o.id = NEW.duplicate_of
    ON CONFLICT ON CONSTRAINT copy_events_article_original_key DO NOTHING;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
COMMENT ON FUNCTION record_copy_event() IS 'Writes the outbox row of a copy whose credit was just stored; a copy already told about its original is not told again.';

CREATE TRIGGER articles_copy_event_insert AFTER INSERT ON articles
    FOR EACH ROW WHEN (NEW.credit IS NOT NULL AND NEW.duplicate_of IS NOT NULL)
    EXECUTE FUNCTION record_copy_event();
CREATE TRIGGER articles_copy_event_update AFTER UPDATE OF credit, duplicate_of ON articles
    FOR EACH ROW WHEN (NEW.credit IS NOT NULL AND NEW.duplicate_of IS NOT NULL
                       AND (OLD.credit IS DISTINCT FROM NEW.credit OR OLD.duplicate_of IS DISTINCT FROM NEW.duplicate_of))
    EXECUTE FUNCTION record_copy_event();

-- +goose Down
DROP TRIGGER articles_copy_event_update ON articles;
DROP TRIGGER articles_copy_event_insert ON articles;
DROP FUNCTION record_copy_event();
DROP TABLE webhook_deliveries;
DROP TABLE copy_events;
