-- A read-only role for analysts: it can read the reporting views and the
-- articles table (without article bodies) and change nothing.
-- Run it as the database owner, in the newsdedup database:
--   psql "$DATABASE_URL" -f docs/analyst_role.sql
-- then give the role a password: \password newsdedup_analyst

CREATE ROLE newsdedup_analyst LOGIN;

-- Every session of the role is read-only, even one that forgets to say so.
ALTER ROLE newsdedup_analyst SET default_transaction_read_only = on;

DO $$
BEGIN
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO newsdedup_analyst', current_database());
END
$$;
GRANT USAGE ON SCHEMA public TO newsdedup_analyst;
GRANT SELECT ON duplicate_pairs, clusters, daily_duplicate_rate, shared_sentence_pairs TO newsdedup_analyst;
-- The editors' decisions (migration 00006): the kept member of each
-- cluster, the decisions log, the separated pairs and the keep rule.
GRANT SELECT ON cluster_kept, editorial_decisions, separated_pairs, keep_policy TO newsdedup_analyst;
-- Each cluster's original (首发) and its number of copies (migration 00022).
GRANT SELECT ON cluster_original TO newsdedup_analyst;
GRANT SELECT (id, source, external_id, title, url, content_type, published_at, ingested_at,
              simhash, fingerprint_version, status, duplicate_of, cluster_id, distance, word_ratio,
              overlap, coverage_this, coverage_that, sentence_runes, credit)
    ON articles TO newsdedup_analyst;
-- Where each sentence is and how long; its text is in the body.
GRANT SELECT (article_id, position, start_char, end_char, runes, text_hash, simhash)
    ON sentences TO newsdedup_analyst;
-- Who copied whom and whether they said so (migrations 00035, 00037): the
-- known sources, each copy's credit, and the earlier contents of corrected
-- articles (without their bodies).
GRANT SELECT ON sources, copy_credits TO newsdedup_analyst;
GRANT SELECT (article_id, version, title, url, content_type, content_hash, published_at, stored_at, superseded_at)
    ON article_versions TO newsdedup_analyst;
-- Who copied us and the alerts sent of it (migrations 00040, 00041).
GRANT SELECT ON desk_copies, copy_events, webhook_deliveries TO newsdedup_analyst;
