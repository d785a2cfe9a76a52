-- +goose Up
-- The reporting views learn the partial duplicates (migration 00005) and the
-- shared text of a link (00004): duplicate_pairs gains overlap and both
-- coverages, clusters and daily_duplicate_rate count partial duplicates.
-- New columns come last, so a query written against the old views still
-- runs.

-- +goose StatementBegin
CREATE OR REPLACE VIEW duplicate_pairs AS
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
    d.published_at - c.published_at AS published_after,
    d.cluster_id,
    d.overlap,
    d.coverage_this,
    d.coverage_that
FROM articles d
JOIN articles c ON c.id = d.duplicate_of;
-- +goose StatementEnd

COMMENT ON COLUMN duplicate_pairs.status IS 'near_duplicate, exact_duplicate or partial_duplicate.';
COMMENT ON COLUMN duplicate_pairs.distance IS 'Hamming distance between the two simhash fingerprints: 0–3 for a near or exact duplicate; any for a partial duplicate, which the sentence index found.';
COMMENT ON COLUMN duplicate_pairs.overlap IS 'The share of text the two share, from their sampled character 5-grams: |A ∩ B| / min(|A|, |B|). NULL for links judged before fingerprint version 3.';
COMMENT ON COLUMN duplicate_pairs.coverage_this IS 'For a partial duplicate: the share of this article''s indexed sentences (by length) found in the original. NULL otherwise.';
COMMENT ON COLUMN duplicate_pairs.coverage_that IS 'For a partial duplicate: the share of the original''s indexed sentences (by length) found in this article. NULL otherwise.';

-- +goose StatementBegin
CREATE OR REPLACE VIEW clusters AS
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
    cardinality(m.sources)               AS source_count,
    m.partial_duplicates
FROM articles c
JOIN (
    SELECT
        cluster_id,
        count(*)                                            AS size,
        count(*) FILTER (WHERE status = 'exact_duplicate')   AS exact_duplicates,
        count(*) FILTER (WHERE status = 'near_duplicate')    AS near_duplicates,
        count(*) FILTER (WHERE status = 'partial_duplicate') AS partial_duplicates,
        min(published_at)                                   AS first_published,
        max(published_at)                                   AS last_published,
        min(ingested_at)                                    AS first_ingested,
        max(ingested_at)                                    AS last_ingested,
        array_agg(DISTINCT source ORDER BY source)          AS sources
    FROM articles
    GROUP BY cluster_id
) m ON m.cluster_id = c.id;
-- +goose StatementEnd

COMMENT ON COLUMN clusters.duplicates IS 'size - 1: the exact, near and partial duplicates together.';
COMMENT ON COLUMN clusters.partial_duplicates IS 'Members that copy part of an article of the cluster (or hold most of one): excerpts, copies in another site''s dress, expansions.';

-- +goose StatementBegin
CREATE OR REPLACE VIEW daily_duplicate_rate AS
SELECT
    (published_at AT TIME ZONE 'UTC')::date                        AS day,
    source,
    count(*)                                                       AS articles,
    count(*) FILTER (WHERE status = 'unique')                      AS unique_articles,
    count(*) FILTER (WHERE status = 'near_duplicate')              AS near_duplicates,
    count(*) FILTER (WHERE status = 'exact_duplicate')             AS exact_duplicates,
    round(count(*) FILTER (WHERE status <> 'unique')::numeric / count(*), 4) AS duplicate_rate,
    count(*) FILTER (WHERE status = 'partial_duplicate')           AS partial_duplicates
FROM articles
GROUP BY 1, 2;
-- +goose StatementEnd

COMMENT ON COLUMN daily_duplicate_rate.duplicate_rate IS '(near_duplicates + exact_duplicates + partial_duplicates) / articles, 0–1.';

-- +goose Down
-- A view cannot lose a column in place: the three are made again as
-- migration 00003 made them, with its comments.
DROP VIEW daily_duplicate_rate;
DROP VIEW clusters;
DROP VIEW duplicate_pairs;

-- +goose StatementBegin
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
    d.published_at - c.published_at AS published_after,
    d.cluster_id
FROM articles d
JOIN articles c ON c.id = d.duplicate_of;
-- +goose StatementEnd

COMMENT ON VIEW duplicate_pairs IS
    'One row per duplicate article with the earlier article it was compared with and matched (its link): who copied whom, how closely, and how long after.';
COMMENT ON COLUMN duplicate_pairs.status IS 'near_duplicate or exact_duplicate.';
COMMENT ON COLUMN duplicate_pairs.distance IS 'Hamming distance between the two simhash fingerprints, 0–3.';
COMMENT ON COLUMN duplicate_pairs.word_ratio IS 'Shared-word ratio of the two articles, 0–1: the share of the shorter one''s words that the other has.';
COMMENT ON COLUMN duplicate_pairs.published_after IS 'How long after the original the duplicate was published (negative when the copy claims an earlier time).';
COMMENT ON COLUMN duplicate_pairs.cluster_id IS 'The cluster both articles belong to: the id of its head.';

-- +goose StatementBegin
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
-- +goose StatementEnd

COMMENT ON VIEW clusters IS
    'One row per cluster of articles linked by matches (an article with no duplicate is a cluster of one): its head (the original), its size, when it was first and last seen, and which sources carried it.';
COMMENT ON COLUMN clusters.cluster_id IS 'The id of the cluster''s head: its earliest ingested member.';
COMMENT ON COLUMN clusters.size IS 'Articles in the cluster, the head included.';
COMMENT ON COLUMN clusters.sources IS 'The distinct sources of the cluster''s articles, sorted.';

-- +goose StatementBegin
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
-- +goose StatementEnd

COMMENT ON VIEW daily_duplicate_rate IS
    'Per publication day (UTC) and source: how many articles arrived and what share of them duplicated an article already stored.';
COMMENT ON COLUMN daily_duplicate_rate.day IS 'The day the articles were published, in UTC.';
COMMENT ON COLUMN daily_duplicate_rate.duplicate_rate IS '(near_duplicates + exact_duplicates) / articles, 0–1.';
