-- fingerprint_upgrades: how far dedupd refingerprint has judged again the
-- unique articles of a fingerprint version (issue 33). An article stored
-- while rows of an older version were still there could not see them; once
-- every row ingested before some time is of the new version, the unique
-- articles ingested before then are judged again, and the mark records it,
-- so that the next run (after an interruption, or after an older binary
-- wrote again) starts where this one ended instead of at its own start
-- (cmd/dedupd/refingerprint.go).
--
-- cluster_kept (issue 33 too): a partial duplicate that holds the article
-- it links to plus much more — a digest of stories, a compilation, an
-- expansion — is not counted as the most complete text (service/keep.go,
-- holdsMore: at least 0.8 of the other is found in it, less than 0.8 of it
-- in the other). Only the view's complete/length steps change; its columns
-- stay.

-- +goose Up
CREATE TABLE fingerprint_upgrades (
    version           smallint    PRIMARY KEY,
    rejudged_through  timestamptz NOT NULL,
    rejudged_after_id bigint      NOT NULL DEFAULT 0
);
COMMENT ON TABLE fingerprint_upgrades IS 'For each fingerprint version: how far (by ingested_at, then id) dedupd refingerprint has judged again the unique articles of that version against a store with no row of another version ingested before them. Written by refingerprint alone; it only moves forward.';
COMMENT ON COLUMN fingerprint_upgrades.rejudged_through IS 'The unique articles of the version ingested before this time, or at it with an id up to rejudged_after_id, have been judged again.';

-- +goose StatementBegin
CREATE OR REPLACE VIEW cluster_kept AS
WITH members AS (
    SELECT a.id, a.cluster_id, a.source, a.external_id, a.title, a.published_at,
           article_text_length(a.content_type, a.body) AS text_length,
           coalesce(array_position(p.sources, a.source), cardinality(p.sources) + 1) AS source_rank,
           cardinality(p.sources) AS ranked_sources,
           p.length_tolerance_percent,
           k.decision_id,
           coalesce(a.status = 'partial_duplicate' AND a.coverage_that >= 0.8::real AND a.coverage_this < 0.8::real, false) AS holds_more
    FROM articles a
    JOIN cluster_listing l ON l.cluster_id = a.cluster_id
    CROSS JOIN keep_policy p
    LEFT JOIN kept_articles k ON k.article_id = a.id
), best AS (
    SELECT m.*,
           min(source_rank) OVER (PARTITION BY cluster_id) AS best_rank,
           count(*) OVER (PARTITION BY cluster_id) AS size
    FROM members m
), contending AS (
    SELECT b.*,
           count(*) FILTER (WHERE source_rank = best_rank) OVER (PARTITION BY cluster_id) AS at_best_rank,
           count(*) FILTER (WHERE source_rank = best_rank AND NOT holds_more) OVER (PARTITION BY cluster_id) AS at_best_rank_whole
    FROM best b
), longest AS (
    SELECT c.*,
           c.source_rank = c.best_rank AND (NOT c.holds_more OR c.at_best_rank_whole = 0) AS contends,
           max(text_length) FILTER (WHERE source_rank = best_rank AND (NOT holds_more OR at_best_rank_whole = 0))
               OVER (PARTITION BY cluster_id) AS longest
    FROM contending c
), complete AS (
    SELECT l.*,
           contends AND 100 * text_length >= (100 - length_tolerance_percent) * longest AS is_complete,
           count(*) FILTER (WHERE contends AND 100 * text_length >= (100 - length_tolerance_percent) * longest)
               OVER (PARTITION BY cluster_id) AS complete_count,
           max(decision_id) OVER (PARTITION BY cluster_id) AS latest_decision
    FROM longest l
)
SELECT DISTINCT ON (c.cluster_id)
    c.cluster_id,
    c.id          AS kept_id,
    c.source      AS kept_source,
    c.external_id AS kept_external_id,
    c.title       AS kept_title,
    CASE
        WHEN c.latest_decision IS NOT NULL THEN 'editor'
        WHEN c.source_rank <= c.ranked_sources AND c.at_best_rank = 1 THEN 'source'
        WHEN c.complete_count = 1 THEN 'length'
        ELSE 'earliest'
    END           AS rule,
    d.editor      AS decided_by,
    d.decided_at
FROM complete c
LEFT JOIN editor_decisions d ON d.id = c.latest_decision
ORDER BY c.cluster_id,
         c.decision_id = c.latest_decision DESC NULLS LAST,
         c.source_rank,
         c.is_complete DESC,
         c.published_at,
         c.id;
-- +goose StatementEnd
COMMENT ON COLUMN cluster_kept.rule IS 'editor: an editor kept it (decided_by, decided_at); source: the only member from the best-ranked preferred source; length: the only complete text among those (at most keep_policy.length_tolerance_percent shorter than the longest; a partial duplicate that holds the article it links to plus much more, such as a digest, does not count unless all of them do); earliest: the earliest published of the complete texts.';

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE VIEW cluster_kept AS
WITH members AS (
    SELECT a.id, a.cluster_id, a.source, a.external_id, a.title, a.published_at,
           article_text_length(a.content_type, a.body) AS text_length,
           coalesce(array_position(p.sources, a.source), cardinality(p.sources) + 1) AS source_rank,
           cardinality(p.sources) AS ranked_sources,
           p.length_tolerance_percent,
           k.decision_id
    FROM articles a
    JOIN cluster_listing l ON l.cluster_id = a.cluster_id
    CROSS JOIN keep_policy p
    LEFT JOIN kept_articles k ON k.article_id = a.id
), best AS (
    SELECT m.*,
           min(source_rank) OVER (PARTITION BY cluster_id) AS best_rank,
           count(*) OVER (PARTITION BY cluster_id) AS size
    FROM members m
), longest AS (
    SELECT b.*,
           count(*) FILTER (WHERE source_rank = best_rank) OVER (PARTITION BY cluster_id) AS at_best_rank,
           max(text_length) FILTER (WHERE source_rank = best_rank) OVER (PARTITION BY cluster_id) AS longest
    FROM best b
), complete AS (
    SELECT l.*,
           source_rank = best_rank AND 100 * text_length >= (100 - length_tolerance_percent) * longest AS is_complete,
           count(*) FILTER (WHERE source_rank = best_rank AND 100 * text_length >= (100 - length_tolerance_percent) * longest)
               OVER (PARTITION BY cluster_id) AS complete_count,
           max(decision_id) OVER (PARTITION BY cluster_id) AS latest_decision
    FROM longest l
)
SELECT DISTINCT ON (c.cluster_id)
    c.cluster_id,
    c.id          AS kept_id,
    c.source      AS kept_source,
    c.external_id AS kept_external_id,
    c.title       AS kept_title,
    CASE
        WHEN c.latest_decision IS NOT NULL THEN 'editor'
        WHEN c.source_rank <= c.ranked_sources AND c.at_best_rank = 1 THEN 'source'
        WHEN c.complete_count = 1 THEN 'length'
        ELSE 'earliest'
    END           AS rule,
    d.editor      AS decided_by,
    d.decided_at
FROM complete c
LEFT JOIN editor_decisions d ON d.id = c.latest_decision
ORDER BY c.cluster_id,
         c.decision_id = c.latest_decision DESC NULLS LAST,
         c.source_rank,
         c.is_complete DESC,
         c.published_at,
         c.id;
-- +goose StatementEnd
COMMENT ON COLUMN cluster_kept.rule IS 'editor: an editor kept it (decided_by, decided_at); source: the only member from the best-ranked preferred source; length: the only complete text among those (at most keep_policy.length_tolerance_percent shorter than the longest); earliest: the earliest published of the complete texts.';

DROP TABLE fingerprint_upgrades;
