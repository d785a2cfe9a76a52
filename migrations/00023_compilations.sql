-- Compilations (issue 36): an article holding most of the text of two or
-- more different stories — a page that strings several together — is
-- marked as one and never kept by completeness. Concretely, a member of a
-- cluster is a compilation when it holds the article it links to plus much
-- more (a partial duplicate, at least 0.8 of that article found in it,
-- less than 0.8 of it there: holds_more) and also holds at least half of
-- an article of another cluster (by the length of its indexed sentences,
-- two sentences at least, found in it with the same text; a sentence 20
-- articles hold or more is boilerplate and counts for nothing). Why this
-- definition: docs/reporting.md, "Compilations". service/rules_keep.go
-- applies the same rule to the mark this function gives (repo reads it with
-- the keep rule's candidates); a test in repo holds the two to each other.
--
-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION article_holds_other_story(article bigint, cluster bigint) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT EXISTS (
        SELECT 1
        FROM (
            SELECT DISTINCT h.article_id, h.position, h.runes
            FROM sentences s
            CROSS JOIN LATERAL (
                SELECT o.article_id, o.position, o.runes, count(*) OVER () AS holders
                FROM (SELECT * FROM sentences o WHERE o.text_hash = s.text_hash LIMIT 21) o
            ) h
            WHERE s.article_id = article AND h.article_id <> article AND h.holders <= 20
        ) held
        JOIN articles oa ON oa.id = held.article_id
        WHERE oa.cluster_id <> cluster AND oa.sentence_runes > 0
        GROUP BY held.article_id, oa.sentence_runes
        HAVING count(*) >= 2 AND 2 * sum(held.runes) >= oa.sentence_runes
    )
$$;
-- +goose StatementEnd
COMMENT ON FUNCTION article_holds_other_story(bigint, bigint) IS 'Whether article holds at least half of an article outside cluster (by the length of its indexed sentences, two at least, the same text; boilerplate sentences, held by 20 articles or more, left out): with holds_more, what makes a compilation (migration 00023).';
-- +goose StatementBegin
CREATE OR REPLACE VIEW cluster_kept AS
WITH members AS (
    SELECT a.id, a.cluster_id, a.source, a.external_id, a.title, a.published_at, a.shingles,
           coalesce(array_position(p.sources, a.source), cardinality(p.sources) + 1) AS source_rank,
           cardinality(p.sources) AS ranked_sources,
           p.length_tolerance_percent,
           k.decision_id,
           coalesce(a.status = 'partial_duplicate' AND a.coverage_that >= 0.8::real AND a.coverage_this < 0.8::real, false) AS holds_more,
           CASE WHEN a.status = 'partial_duplicate' AND a.coverage_that >= 0.8::real AND a.coverage_this < 0.8::real
                THEN article_holds_other_story(a.id, a.cluster_id) ELSE false END AS compilation
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
           count(*) FILTER (WHERE source_rank = best_rank AND NOT holds_more) OVER (PARTITION BY cluster_id) AS at_best_rank_whole,
           count(*) FILTER (WHERE source_rank = best_rank AND NOT compilation) OVER (PARTITION BY cluster_id) AS at_best_rank_single
    FROM best b
), contends AS (
    SELECT c.*,
           c.source_rank = c.best_rank
               AND (NOT c.holds_more OR (c.at_best_rank_whole = 0 AND (NOT c.compilation OR c.at_best_rank_single = 0))) AS contends
    FROM contending c
), most AS (
    SELECT c.*, max(held) FILTER (WHERE contends) OVER (PARTITION BY cluster_id) AS most_held
    FROM contends c
), complete AS (
    SELECT m.*,
           contends AND (at_best_rank_single = 0 OR 100 * held >= (100 - length_tolerance_percent) * most_held) AS is_complete,
           count(*) FILTER (WHERE contends AND (at_best_rank_single = 0 OR 100 * held >= (100 - length_tolerance_percent) * most_held))
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
        WHEN c.complete_count = 1 AND c.at_best_rank_single > 0 THEN 'length'
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
COMMENT ON COLUMN cluster_kept.rule IS 'editor: an editor kept it (decided_by, decided_at); source: the only member from the best-ranked preferred source; length: the only complete text among those, by the story it holds (the sampled 5-grams found in half the members of its cluster or more, two at least; one holding at most keep_policy.length_tolerance_percent less than the most counts as complete; a partial duplicate that holds the article it links to plus much more, such as a digest, does not count unless all of them do; a compilation — one that also holds half or more of an article of another cluster, article_holds_other_story — never counts: when every one is a compilation, all count as complete and the earliest is kept); earliest: the earliest published of the complete texts.';

-- +goose Down
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
DROP FUNCTION article_holds_other_story(bigint, bigint);
