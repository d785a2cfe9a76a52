-- Views for analysts: the questions docs/reporting.md answers, in plain SQL.
-- Views run with their owner's rights, so a read-only role needs SELECT on
-- them alone (see the grant in docs/reporting.md).

-- +goose Up
CREATE VIEW duplicate_pairs AS
SELECT
    d.id                            AS article_id,
    d.source                        AS article_source,
    d.external_id                   AS article_external_id,
    d.title                         AS article_title,
    d.published_at                  AS article_published_at,
    d.ingested_at                   AS article_ingested_at,
    d.status,
    d.distance,
    d.word_ratio,
    c.id                            AS original_id,
    c.source                        AS original_source,
    c.external_id                   AS original_external_id,
    c.title                         AS original_title,
    c.published_at                  AS original_published_at,
    c.ingested_at                   AS original_ingested_at,
    d.published_at - c.published_at AS published_after
FROM articles d
JOIN articles c ON c.id = d.duplicate_of;

COMMENT ON VIEW duplicate_pairs IS
    'One row per duplicate article with the original (canonical) article of its cluster: who copied whom, how closely, and how long after.';
COMMENT ON COLUMN duplicate_pairs.status IS 'near_duplicate or exact_duplicate.';
COMMENT ON COLUMN duplicate_pairs.distance IS 'Hamming distance between the two simhash fingerprints, 0–64 (0–3 when judged directly).';
COMMENT ON COLUMN duplicate_pairs.word_ratio IS 'Shared-word ratio of the two articles, 0–1: the share of the shorter one''s words that the other has.';
COMMENT ON COLUMN duplicate_pairs.published_after IS 'How long after the original the duplicate was published (negative when the copy claims an earlier time).';

CREATE VIEW clusters AS
SELECT
    c.id                                 AS cluster_id,
    c.source                             AS original_source,
    c.external_id                        AS original_external_id,
    c.title                              AS original_title,
    m.size,
    m.size - 1                           AS duplicates,
    m.exact_duplicates,
    m.near_duplicates,
    m.first_published,
    m.last_published,
    m.first_ingested,
    m.last_ingested,
    m.sources,
    cardinality(m.sources)               AS source_count
FROM articles c
JOIN (
    SELECT
        cluster_id,
        count(*)                                          AS size,
        count(*) FILTER (WHERE status = 'exact_duplicate') AS exact_duplicates,
        count(*) FILTER (WHERE status = 'near_duplicate')  AS near_duplicates,
        min(published_at)                                 AS first_published,
        max(published_at)                                 AS last_published,
        min(ingested_at)                                  AS first_ingested,
        max(ingested_at)                                  AS last_ingested,
        array_agg(DISTINCT source ORDER BY source)        AS sources
    FROM articles
    GROUP BY cluster_id
) m ON m.cluster_id = c.id;

COMMENT ON VIEW clusters IS
    'One row per cluster of articles that match (an article with no duplicate is a cluster of one): its original, its size, when it was first and last seen, and which sources carried it.';
COMMENT ON COLUMN clusters.cluster_id IS 'The id of the cluster''s original (canonical, earliest ingested) article.';
COMMENT ON COLUMN clusters.size IS 'Articles in the cluster, the original included.';
COMMENT ON COLUMN clusters.sources IS 'The distinct sources of the cluster''s articles, sorted.';

CREATE VIEW daily_duplicate_rate AS
SELECT
    (published_at AT TIME ZONE 'UTC')::date                        AS day,
    source,
    count(*)                                                       AS articles,
    count(*) FILTER (WHERE status = 'unique')                      AS unique_articles,
    count(*) FILTER (WHERE status = 'near_duplicate')              AS near_duplicates,
    count(*) FILTER (WHERE status = 'exact_duplicate')             AS exact_duplicates,
    round(count(*) FILTER (WHERE status <> 'unique')::numeric / count(*), 4) AS duplicate_rate
FROM articles
GROUP BY 1, 2;

COMMENT ON VIEW daily_duplicate_rate IS
    'Per publication day (UTC) and source: how many articles arrived and what share of them duplicated an article already stored.';
COMMENT ON COLUMN daily_duplicate_rate.day IS 'The day the articles were published, in UTC.';
COMMENT ON COLUMN daily_duplicate_rate.duplicate_rate IS '(near_duplicates + exact_duplicates) / articles, 0–1.';

-- +goose Down
DROP VIEW daily_duplicate_rate;
DROP VIEW clusters;
DROP VIEW duplicate_pairs;
