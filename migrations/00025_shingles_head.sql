-- Lists that weigh no texts (issue 44): fifty clusters whose original was a
-- 2 MB compilation made the list of clusters read each member's sampled
-- 5-grams — some 175,000 of them, 700 KB, for a 2 MB member — to choose
-- each cluster's kept member by the story it holds (service/rules_keep.go).
-- shingles_head holds the first 4,096 (the smallest, in their unsigned
-- order) of an article that has more, set by a trigger wherever shingles
-- are written (ingest, correction, COPY); NULL for the others, whose
-- shingles are read as before. The keep rule then counts the story below
-- the smallest last 5-gram of its members' heads, where every member's
-- 5-grams are whole: a sample of the story as consistent as the shingles'
-- own sampling (two texts' common sample is the sample of their common
-- part). A news article of up to some 16,000 characters has fewer than
-- 4,096 and is counted as before. Rows stored before this migration keep
-- shingles_head NULL, and are read whole, until their shingles are written
-- again; the column is added without rewriting the table.

-- +goose Up
ALTER TABLE articles ADD COLUMN shingles_head integer[];
ALTER TABLE articles ALTER COLUMN shingles_head SET STORAGE EXTERNAL;
COMMENT ON COLUMN articles.shingles_head IS 'The first 4,096 of shingles (the smallest, in their unsigned order) when it has more, NULL otherwise: what the keep rule reads of a long article (set by the trigger articles_shingles_head; migration 00025).';

-- +goose StatementBegin
CREATE FUNCTION articles_shingles_head() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.shingles_head := CASE WHEN cardinality(NEW.shingles) > 4096 THEN NEW.shingles[1:4096] END;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER articles_shingles_head BEFORE INSERT OR UPDATE OF shingles ON articles
    FOR EACH ROW EXECUTE FUNCTION articles_shingles_head();

CREATE OR REPLACE VIEW cluster_kept AS
WITH members AS (
    SELECT a.id, a.cluster_id, a.source, a.external_id, a.title, a.published_at,
           coalesce(a.shingles_head, a.shingles) AS shingles, a.shingles_head IS NOT NULL AS shingles_cut,
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
), cuts AS (
    SELECT cluster_id, min(shingles[cardinality(shingles)]::bigint & 4294967295) AS below
    FROM members WHERE shingles_cut GROUP BY cluster_id
), grams AS (
    SELECT DISTINCT m.cluster_id, m.id, g
    FROM members m
    LEFT JOIN cuts c ON c.cluster_id = m.cluster_id
    CROSS JOIN LATERAL unnest(m.shingles) g
    WHERE c.below IS NULL OR (g::bigint & 4294967295) <= c.below
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
COMMENT ON COLUMN cluster_kept.rule IS 'editor: an editor kept it (decided_by, decided_at); source: the only member from the best-ranked preferred source; length: the only complete text among those, by the story it holds (the sampled 5-grams found in half the members of its cluster or more, two at least, counted below the least last 5-gram of the members'' shingles_head; one holding at most keep_policy.length_tolerance_percent less than the most counts as complete; a partial duplicate that holds the article it links to plus much more, such as a digest, does not count unless all of them do; a compilation — one that also holds half or more of an article of another cluster, article_holds_other_story — never counts: when every one is a compilation, all count as complete and the earliest is kept); earliest: the earliest published of the complete texts.';

-- +goose Down
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
COMMENT ON COLUMN cluster_kept.rule IS 'editor: an editor kept it (decided_by, decided_at); source: the only member from the best-ranked preferred source; length: the only complete text among those, by the story it holds (the sampled 5-grams found in half the members of its cluster or more, two at least; one holding at most keep_policy.length_tolerance_percent less than the most counts as complete; a partial duplicate that holds the article it links to plus much more, such as a digest, does not count unless all of them do; a compilation — one that also holds half or more of an article of another cluster, article_holds_other_story — never counts: when every one is a compilation, all count as complete and the earliest is kept); earliest: the earliest published of the complete texts.';

DROP TRIGGER articles_shingles_head ON articles;
DROP FUNCTION articles_shingles_head();
ALTER TABLE articles DROP COLUMN shingles_head;
