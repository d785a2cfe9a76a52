-- cluster_kept (issue 36): the most complete text is the one holding the
-- most of the story — the sampled 5-grams found in half its members or
-- more, two at least —
-- not the longest: a repost padded with promotion text, or a page that
-- strings several stories together, no longer wins by length
-- (service/rules_keep.go). Its columns stay; the rule 'length' keeps its name.
--
-- cluster_original (issue 36): each cluster's original (首发), the member
-- the others derive from: the earliest published, then the lowest id; a
-- partial duplicate that holds the article it links to plus much more (a
-- digest, a compilation, an expansion: at least 0.8 of the other found in
-- it, less than 0.8 of it in the other) is not, unless every member is one.
-- service/original.go names the same member; a test in repo holds the two
-- to each other.

-- editor_decisions: an editor may undo a split (undo_split): its
-- separations are removed, and the articles split out judged again.
--
-- +goose Up
ALTER TABLE editor_decisions DROP CONSTRAINT editor_decisions_action_check,
    ADD CONSTRAINT editor_decisions_action_check CHECK (action IN ('keep', 'reset', 'split', 'undo_split'));
COMMENT ON COLUMN editor_decisions.action IS 'keep: the editor kept article_id in its cluster; reset: the cluster returned to the keep rule; split: article_id, with the articles linking to it, was split out of its cluster; undo_split: a split of article_id was undone (its separations removed, the articles judged again).';
-- +goose StatementBegin
CREATE OR REPLACE VIEW cluster_kept AS
WITH members AS (
    SELECT a.id, a.cluster_id, a.source, a.external_id, a.title, a.published_at, a.shingles,
           coalesce(array_position(p.sources, a.source), cardinality(p.sources) + 1) AS source_rank,
           cardinality(p.sources) AS ranked_sources,
           p.length_tolerance_percent,
           k.decision_id,
           coalesce(a.status = 'partial_duplicate' AND a.coverage_that >= 0.8::real AND a.coverage_this < 0.8::real, false) AS holds_more
    FROM articles a
    JOIN cluster_listing l ON l.cluster_id = a.cluster_id
    CROSS JOIN keep_policy p
    LEFT JOIN kept_articles k ON k.article_id = a.id
), grams AS (
    SELECT DISTINCT m.cluster_id, m.id, g
    FROM members m, unnest(m.shingles) g
), sizes AS (
    SELECT cluster_id, count(*) AS n FROM members GROUP BY cluster_id
), story AS (
    SELECT gr.cluster_id, gr.g
    FROM grams gr JOIN sizes z ON z.cluster_id = gr.cluster_id
    GROUP BY gr.cluster_id, gr.g, z.n
    HAVING count(*) >= greatest(2, (z.n + 1) / 2)
), held AS (
    SELECT gr.id, count(*) AS held
    FROM grams gr JOIN story s ON s.cluster_id = gr.cluster_id AND s.g = gr.g
    GROUP BY gr.id
), best AS (
    SELECT m.*, coalesce(h.held, 0) AS held,
           min(source_rank) OVER (PARTITION BY cluster_id) AS best_rank,
           count(*) OVER (PARTITION BY cluster_id) AS size
    FROM members m
    LEFT JOIN held h ON h.id = m.id
), contending AS (
    SELECT b.*,
           count(*) FILTER (WHERE source_rank = best_rank) OVER (PARTITION BY cluster_id) AS at_best_rank,
           count(*) FILTER (WHERE source_rank = best_rank AND NOT holds_more) OVER (PARTITION BY cluster_id) AS at_best_rank_whole
    FROM best b
), most AS (
    SELECT c.*,
           c.source_rank = c.best_rank AND (NOT c.holds_more OR c.at_best_rank_whole = 0) AS contends,
           max(held) FILTER (WHERE source_rank = best_rank AND (NOT holds_more OR at_best_rank_whole = 0))
               OVER (PARTITION BY cluster_id) AS most_held
    FROM contending c
), complete AS (
    SELECT m.*,
           contends AND 100 * held >= (100 - length_tolerance_percent) * most_held AS is_complete,
           count(*) FILTER (WHERE contends AND 100 * held >= (100 - length_tolerance_percent) * most_held)
               OVER (PARTITION BY cluster_id) AS complete_count,
           max(decision_id) OVER (PARTITION BY cluster_id) AS latest_decision
    FROM most m
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
COMMENT ON COLUMN cluster_kept.rule IS 'editor: an editor kept it (decided_by, decided_at); source: the only member from the best-ranked preferred source; length: the only complete text among those, by the story it holds (the sampled 5-grams found in half the members of its cluster or more, two at least; one holding at most keep_policy.length_tolerance_percent less than the most counts as complete; a partial duplicate that holds the article it links to plus much more, such as a digest, does not count unless all of them do); earliest: the earliest published of the complete texts.';

-- +goose StatementBegin
CREATE VIEW cluster_original AS
SELECT DISTINCT ON (a.cluster_id)
    a.cluster_id,
    a.id           AS original_id,
    a.source       AS original_source,
    a.external_id  AS original_external_id,
    a.title        AS original_title,
    a.published_at AS original_published_at,
    l.size - 1     AS copies
FROM articles a
JOIN cluster_listing l ON l.cluster_id = a.cluster_id
ORDER BY a.cluster_id,
         coalesce(a.status = 'partial_duplicate' AND a.coverage_that >= 0.8::real AND a.coverage_this < 0.8::real, false),
         a.published_at,
         a.id;
-- +goose StatementEnd
COMMENT ON VIEW cluster_original IS 'One row per cluster of two or more articles: its original (首发), the earliest published member that is not a digest or compilation of the others, and how many copies (other members) it has, as GET /v1/clusters/{id} says.';

-- +goose Down
DROP VIEW cluster_original;
-- The undone splits cannot be said before 00022: their records go, the
-- separations they removed stay removed.
DELETE FROM editor_decisions WHERE action = 'undo_split';
ALTER TABLE editor_decisions DROP CONSTRAINT editor_decisions_action_check,
    ADD CONSTRAINT editor_decisions_action_check CHECK (action IN ('keep', 'reset', 'split'));
COMMENT ON COLUMN editor_decisions.action IS 'keep: the editor kept article_id in its cluster; reset: the cluster returned to the keep rule; split: article_id, with the articles linking to it, was split out of its cluster.';
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
