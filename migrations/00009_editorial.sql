-- Editors' decisions (the editors' page, docs/ui.md): which member of a
-- cluster to keep, and which articles are not duplicates of each other.
--
--  * editor_decisions logs every decision: who (the name the editor gave),
--    when, what (keep an article, return to the keep rule, split an article
--    out) and on which article and cluster. It is never updated or deleted;
--    an article that is deleted later leaves its key in the log.
--  * kept_articles holds the editors' choices in force: an article kept by
--    an editor is its cluster's kept member, whatever the rule would say.
--  * separations holds the pairs an editor split apart, each pair once
--    (a < b): the service never links one to the other again.
--  * keep_policy is the keep rule dedupd runs with (DEDUP_KEEP_SOURCES), so
--    that the view cluster_kept applies the same rule as the API.
--  * cluster_listing has one row per cluster of two or more articles, kept
--    up to date by triggers on articles: the editors' list reads it with an
--    index whatever its filters, in milliseconds at a million articles.

-- +goose Up
CREATE TABLE editor_decisions (
    id                  bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    action              text        NOT NULL,
    cluster_id          bigint      NOT NULL,
    article_id          bigint      REFERENCES articles (id) ON DELETE SET NULL,
    article_source      text,
    article_external_id text,
    editor              text        NOT NULL,
    note                text        NOT NULL DEFAULT '',
    decided_at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT editor_decisions_action_check CHECK (action IN ('keep', 'reset', 'split')),
    CONSTRAINT editor_decisions_article_check CHECK ((action = 'reset') = (article_external_id IS NULL)
                                                     AND (article_source IS NULL) = (article_external_id IS NULL)),
    CONSTRAINT editor_decisions_editor_check CHECK (char_length(editor) BETWEEN 1 AND 100),
    CONSTRAINT editor_decisions_note_check CHECK (char_length(note) <= 1000)
);
CREATE INDEX editor_decisions_cluster_id_idx ON editor_decisions (cluster_id);
-- The foreign key's ON DELETE SET NULL, and the decisions about an article.
CREATE INDEX editor_decisions_article_id_idx ON editor_decisions (article_id) WHERE article_id IS NOT NULL;

COMMENT ON TABLE editor_decisions IS 'Every decision an editor made on the editors'' page or through the API: who, when, what. Never updated or deleted.';
COMMENT ON COLUMN editor_decisions.action IS 'keep: the editor kept article_id in its cluster; reset: the cluster returned to the keep rule; split: article_id, with the articles linking to it, was split out of its cluster.';
COMMENT ON COLUMN editor_decisions.cluster_id IS 'The cluster the decision was made in, as it was then (the id of its head).';
COMMENT ON COLUMN editor_decisions.article_id IS 'The article kept or split out; NULL for reset, and once the article is deleted (its key stays in article_source and article_external_id).';
COMMENT ON COLUMN editor_decisions.editor IS 'Who decided: the name the editor signed in with (or sent as "editor" to the API). The API key is never stored.';
COMMENT ON COLUMN editor_decisions.note IS 'What the editor wrote about the decision, if anything.';

CREATE TABLE kept_articles (
    article_id  bigint PRIMARY KEY REFERENCES articles (id) ON DELETE CASCADE,
    decision_id bigint NOT NULL REFERENCES editor_decisions (id)
);
COMMENT ON TABLE kept_articles IS 'The editors'' choices in force: each article here is the kept member of its cluster (the latest decision wins should two meet in one cluster). The choice goes with the article if it moves to another cluster.';

CREATE TABLE separations (
    a           bigint NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    b           bigint NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    decision_id bigint NOT NULL REFERENCES editor_decisions (id),
    PRIMARY KEY (a, b),
    CONSTRAINT separations_order_check CHECK (a < b)
);
CREATE INDEX separations_b_idx ON separations (b);
COMMENT ON TABLE separations IS 'Pairs of articles an editor said are not duplicates (a < b, each pair once): neither is ever linked to the other again.';

CREATE TABLE keep_policy (
    only_row                 boolean     PRIMARY KEY DEFAULT true,
    sources                  text[]      NOT NULL,
    length_tolerance_percent smallint    NOT NULL,
    recorded_at              timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT keep_policy_one_row CHECK (only_row),
    CONSTRAINT keep_policy_tolerance_check CHECK (length_tolerance_percent BETWEEN 0 AND 100)
);
INSERT INTO keep_policy (sources, length_tolerance_percent) VALUES ('{}', 5);
COMMENT ON TABLE keep_policy IS 'The keep rule dedupd runs with, recorded by dedupd serve: the preferred sources of DEDUP_KEEP_SOURCES, best first, and how much shorter than the longest a text may be and still count as complete, in percent of the longest.';

-- The length of an article's text, as the keep rule compares it: its
-- characters, without the markup of an HTML body (tags, comments, script
-- and style).
-- +goose StatementBegin
CREATE FUNCTION article_text_length(content_type text, body text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN char_length(CASE WHEN content_type = 'html' THEN
    regexp_replace(
        regexp_replace(
            regexp_replace(body, '<!--.*?-->', '', 'g'),
            '<(script|style)\M.*?</\1\s*>', '', 'gi'),
        '<[^>]*>', '', 'g')
    ELSE body END);
-- +goose StatementEnd
COMMENT ON FUNCTION article_text_length(text, text) IS 'Characters of an article''s text, as the keep rule compares them: for an HTML body, without its tags, comments, script and style.';

-- The clusters of two or more articles, for the editors' list.
CREATE TABLE cluster_listing (
    cluster_id    bigint      PRIMARY KEY,
    published_at  timestamptz NOT NULL,
    size          integer     NOT NULL,
    sources       text[]      NOT NULL,
    statuses      text[]      NOT NULL,
    last_ingested timestamptz NOT NULL
);
CREATE INDEX cluster_listing_published_idx ON cluster_listing (published_at DESC, cluster_id DESC) INCLUDE (size);
-- For a filter that matches few clusters, the planner reads these instead:
-- a rare source, a rare verdict, a large size.
CREATE INDEX cluster_listing_sources_idx ON cluster_listing USING gin (sources);
CREATE INDEX cluster_listing_statuses_idx ON cluster_listing USING gin (statuses);
CREATE INDEX cluster_listing_size_idx ON cluster_listing (size);
COMMENT ON TABLE cluster_listing IS 'One row per cluster of two or more articles, kept up to date by triggers on articles, for the editors'' list: published_at is the head''s, sources and statuses are its members'' (distinct, sorted).';

-- refresh_cluster_listing recomputes the rows of the clusters headed by
-- ids from their members: a row for each one of two or more, none for the
-- others.
-- +goose StatementBegin
CREATE FUNCTION refresh_cluster_listing(ids bigint[]) RETURNS void
LANGUAGE sql AS $$
    DELETE FROM cluster_listing l
    WHERE l.cluster_id = ANY (ids)
      AND NOT EXISTS (SELECT 1 FROM articles a WHERE a.cluster_head = l.cluster_id);
    INSERT INTO cluster_listing AS l (cluster_id, published_at, size, sources, statuses, last_ingested)
    SELECT h.id, h.published_at, m.size, m.sources, m.statuses, m.last_ingested
    FROM articles h
    CROSS JOIN LATERAL (
        SELECT count(*) AS size,
               array_agg(DISTINCT a.source ORDER BY a.source) AS sources,
               array_agg(DISTINCT a.status ORDER BY a.status) AS statuses,
               max(a.ingested_at) AS last_ingested
        FROM articles a
        WHERE a.cluster_id = h.id) m
    WHERE h.id = ANY (ids) AND h.cluster_head IS NULL AND m.size > 1
    ON CONFLICT (cluster_id) DO UPDATE SET
        published_at  = excluded.published_at,
        size          = excluded.size,
        sources       = excluded.sources,
        statuses      = excluded.statuses,
        last_ingested = excluded.last_ingested;
$$;
-- +goose StatementEnd

-- An insert adds to the rows of the clusters it joins (most inserts are of
-- articles that head a cluster of their own, and touch no row); a cluster
-- reaching two members gets its row.
-- +goose StatementBegin
CREATE FUNCTION cluster_listing_after_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    missing bigint[];
BEGIN
    WITH added AS (
        SELECT cluster_head AS cluster_id, count(*) AS n,
               array_agg(DISTINCT source) AS sources, array_agg(DISTINCT status) AS statuses,
               max(ingested_at) AS last_ingested
        FROM new_rows
        WHERE cluster_head IS NOT NULL
        GROUP BY cluster_head
    ), grown AS (
        UPDATE cluster_listing l SET
            size          = l.size + a.n,
            sources       = ARRAY(SELECT DISTINCT s FROM unnest(l.sources || a.sources) s ORDER BY s),
            statuses      = ARRAY(SELECT DISTINCT s FROM unnest(l.statuses || a.statuses) s ORDER BY s),
            last_ingested = greatest(l.last_ingested, a.last_ingested)
        FROM added a
        WHERE l.cluster_id = a.cluster_id
        RETURNING l.cluster_id
    )
    SELECT array_agg(a.cluster_id) INTO missing
    FROM added a
    WHERE NOT EXISTS (SELECT 1 FROM grown g WHERE g.cluster_id = a.cluster_id);
    IF missing IS NOT NULL THEN
        PERFORM refresh_cluster_listing(missing);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- An update (a relink moving a subtree, new content under a key) or a
-- delete recomputes the rows of every cluster a changed row left or joined.
-- +goose StatementBegin
CREATE FUNCTION cluster_listing_after_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM refresh_cluster_listing(ARRAY(
        SELECT c
        FROM old_rows o
        JOIN new_rows n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES (o.cluster_id), (n.cluster_id)) AS v(c)
        WHERE (o.cluster_id, o.status, o.source, o.published_at, o.ingested_at)
              IS DISTINCT FROM (n.cluster_id, n.status, n.source, n.published_at, n.ingested_at)));
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION cluster_listing_after_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM refresh_cluster_listing(ARRAY(SELECT DISTINCT cluster_id FROM old_rows));
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER cluster_listing_insert AFTER INSERT ON articles
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cluster_listing_after_insert();
CREATE TRIGGER cluster_listing_update AFTER UPDATE ON articles
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cluster_listing_after_update();
CREATE TRIGGER cluster_listing_delete AFTER DELETE ON articles
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cluster_listing_after_delete();

INSERT INTO cluster_listing (cluster_id, published_at, size, sources, statuses, last_ingested)
SELECT h.id, h.published_at, m.size, m.sources, m.statuses, m.last_ingested
FROM (
    SELECT cluster_id, count(*) AS size,
           array_agg(DISTINCT source ORDER BY source) AS sources,
           array_agg(DISTINCT status ORDER BY status) AS statuses,
           max(ingested_at) AS last_ingested
    FROM articles
    GROUP BY cluster_id
    HAVING count(*) > 1
) m
JOIN articles h ON h.id = m.cluster_id;

-- The views for analysts (docs/reporting.md).

-- +goose StatementBegin
CREATE VIEW cluster_kept AS
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
COMMENT ON VIEW cluster_kept IS 'One row per cluster of two or more articles: the member to keep and the rule that chose it (editor, source, length or earliest), as GET /v1/clusters/{id} says, with the keep rule recorded in keep_policy.';
COMMENT ON COLUMN cluster_kept.rule IS 'editor: an editor kept it (decided_by, decided_at); source: the only member from the best-ranked preferred source; length: the only complete text among those (at most keep_policy.length_tolerance_percent shorter than the longest); earliest: the earliest published of the complete texts.';

CREATE VIEW editorial_decisions AS
SELECT
    d.id                  AS decision_id,
    d.action,
    d.editor,
    d.decided_at,
    d.note,
    d.cluster_id,
    d.article_id,
    d.article_source,
    d.article_external_id,
    a.title               AS article_title,
    a.cluster_id          AS article_cluster_id_now,
    (SELECT count(*) FROM separations s WHERE s.decision_id = d.id) AS separated_pairs
FROM editor_decisions d
LEFT JOIN articles a ON a.id = d.article_id;
COMMENT ON VIEW editorial_decisions IS 'Every editor''s decision with the article it concerned (its title and the cluster it is in now) and, for a split, how many pairs it separated.';

CREATE VIEW separated_pairs AS
SELECT
    s.a            AS article_a_id,
    x.source       AS article_a_source,
    x.external_id  AS article_a_external_id,
    x.title        AS article_a_title,
    s.b            AS article_b_id,
    y.source       AS article_b_source,
    y.external_id  AS article_b_external_id,
    y.title        AS article_b_title,
    s.decision_id,
    d.editor,
    d.decided_at
FROM separations s
JOIN articles x ON x.id = s.a
JOIN articles y ON y.id = s.b
JOIN editor_decisions d ON d.id = s.decision_id;
COMMENT ON VIEW separated_pairs IS 'Pairs of articles an editor said are not duplicates, with who split them and when: neither is linked to the other again.';

-- +goose Down
DROP VIEW separated_pairs;
DROP VIEW editorial_decisions;
DROP VIEW cluster_kept;
DROP TRIGGER cluster_listing_delete ON articles;
DROP TRIGGER cluster_listing_update ON articles;
DROP TRIGGER cluster_listing_insert ON articles;
DROP FUNCTION cluster_listing_after_delete();
DROP FUNCTION cluster_listing_after_update();
DROP FUNCTION cluster_listing_after_insert();
DROP FUNCTION refresh_cluster_listing(bigint[]);
DROP TABLE cluster_listing;
DROP FUNCTION article_text_length(text, text);
DROP TABLE keep_policy;
DROP TABLE separations;
DROP TABLE kept_articles;
DROP TABLE editor_decisions;
