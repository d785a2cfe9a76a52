-- Clusters become trees of real matches. Until now every duplicate pointed
-- at its cluster's canonical (earliest) article, whether or not it had ever
-- been compared with it; from now on duplicate_of names the earlier article
-- the duplicate was compared with and matched, with the distance and ratio
-- to that article, and cluster_head names the cluster's head (the earliest
-- member, which every link of the cluster leads to). cluster_id keeps its
-- meaning: the head's id, the article's own for a head.
--
-- Rows stored before keep their links: in the old model a duplicate was
-- judged against the article it points at whenever nothing moved since, and
-- the canonical article is the cluster's head either way.

-- +goose Up
DROP VIEW daily_duplicate_rate;
DROP VIEW clusters;
DROP VIEW duplicate_pairs;

ALTER TABLE articles ADD COLUMN cluster_head bigint REFERENCES articles (id);
UPDATE articles SET cluster_head = duplicate_of WHERE duplicate_of IS NOT NULL;
ALTER TABLE articles DROP COLUMN cluster_id;
ALTER TABLE articles ADD COLUMN cluster_id bigint GENERATED ALWAYS AS (coalesce(cluster_head, id)) STORED;
ALTER TABLE articles ADD CONSTRAINT articles_cluster_check CHECK ((duplicate_of IS NULL) = (cluster_head IS NULL));

-- A cluster's members, for GET /v1/articles/{id}/duplicates and the views.
CREATE INDEX articles_cluster_id_idx ON articles (cluster_id);
-- The head's foreign key: deleting a head checks that no member names it.
CREATE INDEX articles_cluster_head_idx ON articles (cluster_head) WHERE cluster_head IS NOT NULL;

COMMENT ON COLUMN articles.duplicate_of IS 'The article this one links to: an article ingested before it that it was compared with and matched (exactly, or within distance and ratio). NULL for the head of a cluster.';
COMMENT ON COLUMN articles.cluster_head IS 'The id of the cluster''s head (its earliest ingested member), NULL for the head itself; cluster_id is the same, the head''s own id included.';
COMMENT ON COLUMN articles.cluster_id IS 'The cluster: the id of its head, the earliest ingested member, which every chain of duplicate_of links leads to. An article alone is its own cluster.';
COMMENT ON COLUMN articles.distance IS 'Hamming distance between this article''s simhash and duplicate_of''s.';
COMMENT ON COLUMN articles.word_ratio IS 'Shared-word ratio with duplicate_of: |A ∩ B| / min(|A|, |B|).';
COMMENT ON COLUMN articles.status IS 'unique, near_duplicate or exact_duplicate: the verdict on this article against the article it links to (unique: it links to none, and heads its cluster).';

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
    'One row per cluster of articles linked by matches (an article with no duplicate is a cluster of one): its head (the original), its size, when it was first and last seen, and which sources carried it.';
COMMENT ON COLUMN clusters.cluster_id IS 'The id of the cluster''s head: its earliest ingested member.';
COMMENT ON COLUMN clusters.size IS 'Articles in the cluster, the head included.';
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
-- Back to the star: every duplicate points at its cluster's head, with the
-- distance and ratio to the head, and cluster_id is generated from that.
DROP VIEW daily_duplicate_rate;
DROP VIEW clusters;
DROP VIEW duplicate_pairs;

UPDATE articles a SET
    duplicate_of = h.id,
    status       = CASE WHEN a.content_hash = h.content_hash THEN 'exact_duplicate' ELSE 'near_duplicate' END,
    distance     = bit_count((a.simhash # h.simhash)::bit(64)),
    word_ratio   = (SELECT count(*) FROM (SELECT unnest(a.words) INTERSECT SELECT unnest(h.words)) s)::real
                   / greatest(least(cardinality(a.words), cardinality(h.words)), 1)
FROM articles h
WHERE h.id = a.cluster_head AND a.duplicate_of <> h.id;

ALTER TABLE articles DROP CONSTRAINT articles_cluster_check;
ALTER TABLE articles DROP COLUMN cluster_id;
ALTER TABLE articles DROP COLUMN cluster_head;
ALTER TABLE articles ADD COLUMN cluster_id bigint GENERATED ALWAYS AS (coalesce(duplicate_of, id)) STORED;
COMMENT ON COLUMN articles.duplicate_of IS 'The canonical (earliest ingested) article of the cluster; NULL for a canonical article.';
COMMENT ON COLUMN articles.cluster_id IS 'The id of the cluster''s canonical article; an article alone is its own cluster.';
COMMENT ON COLUMN articles.distance IS 'Hamming distance between this article''s simhash and its canonical article''s.';
COMMENT ON COLUMN articles.word_ratio IS 'Shared-word ratio with the canonical article: |A ∩ B| / min(|A|, |B|).';
COMMENT ON COLUMN articles.status IS 'unique, near_duplicate or exact_duplicate: the verdict when the article was stored (unique also for the article that took over a cluster whose canonical article was deleted).';

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
