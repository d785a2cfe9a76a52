-- Finding a story, and the day at a glance (docs/ui.md, "Search" and
-- "Today"; why these indexes, with their figures: docs/search.md).
--
--  * article_search: each headline as search reads it and its keys (Latin
--    words whole, every two neighbouring CJK characters), kept by
--    statement-level triggers; its GIN index finds 洪水 in
--    长江中下游启动洪水防御四级应急响应 whatever a segmenter makes of it.
--    Narrow, so that a common word is read newest first from its time index.
--  * search_url(url): a URL as pasted, normalised; a hash index (URLs may be
--    longer than a B-tree entry). articles (external_id): a CMS id alone.
--  * No plain index on articles (published_at): the planner would AND it
--    into the near-candidate query's block bitmaps (TestLargeTable); today's
--    articles are counted from article_search, the duplicates' chart from a
--    partial index. cluster_listing by size and by latest member: the
--    list's other orders.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION search_text(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN lower(normalize(t, NFKC));
-- +goose StatementEnd
COMMENT ON FUNCTION search_text(text) IS 'A headline or a query as search compares them: NFKC (full-width letters and digits half-width), lower case.';

-- +goose StatementBegin
CREATE FUNCTION search_terms(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
BEGIN ATOMIC
    SELECT coalesce(array_agg(w[1]), '{}')
    FROM regexp_matches(search_text(t), '[0-9a-z\u00e0-\u024f\u0370-\u03ff\u0400-\u04ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+', 'g') AS w;
END;
-- +goose StatementEnd
COMMENT ON FUNCTION search_terms(text) IS 'The words of a query, after search_text: its runs of letters, digits and CJK characters; a headline matches when it holds each of them.';

-- +goose StatementBegin
CREATE FUNCTION search_keys(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
BEGIN ATOMIC
    SELECT coalesce(array_agg(DISTINCT k ORDER BY k), '{}')
    FROM (
        SELECT w[1] AS k
        FROM regexp_matches(search_text(t), '[0-9a-z\u00e0-\u024f\u0370-\u03ff\u0400-\u04ff]+', 'g') AS w
        UNION ALL
        SELECT substr(r[1], i, 2)
        FROM regexp_matches(search_text(t), '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]{2,}', 'g') AS r,
             generate_series(1, char_length(r[1]) - 1) AS i
    ) keys;
END;
-- +goose StatementEnd
COMMENT ON FUNCTION search_keys(text) IS 'The keys a headline or a query is found by: its Latin words and numbers, and each pair of neighbouring CJK characters, after search_text.';

-- +goose StatementBegin
CREATE FUNCTION search_url(u text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN nullif(rtrim(lower(regexp_replace(regexp_replace(btrim(u), '#.*$', ''), '^[a-z][a-z0-9+.-]*://(www\.)?', '', 'i')), '/'), '');
-- +goose StatementEnd
COMMENT ON FUNCTION search_url(text) IS 'A URL as search compares it: no scheme, www., fragment or trailing slash, lower case; NULL when empty.';

CREATE TABLE article_search (
    article_id   bigint      PRIMARY KEY REFERENCES articles (id) ON DELETE CASCADE,
    published_at timestamptz NOT NULL,
    title_text   text        NOT NULL,
    keys         text[]      NOT NULL
);
COMMENT ON TABLE article_search IS 'Each article''s headline as search reads it (search_text) and its search_keys, kept by triggers on articles, for the editors'' search box and GET /v1/search.';

-- +goose StatementBegin
CREATE FUNCTION article_search_after_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO article_search (article_id, published_at, title_text, keys)
    SELECT id, published_at, search_text(title), search_keys(title) FROM new_rows;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION article_search_after_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE article_search s
    SET published_at = n.published_at, title_text = search_text(n.title), keys = search_keys(n.title)
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE s.article_id = n.id AND (o.title, o.published_at) IS DISTINCT FROM (n.title, n.published_at);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER article_search_insert AFTER INSERT ON articles
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION article_search_after_insert();
CREATE TRIGGER article_search_update AFTER UPDATE ON articles
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION article_search_after_update();

INSERT INTO article_search (article_id, published_at, title_text, keys)
SELECT id, published_at, search_text(title), search_keys(title) FROM articles;
CREATE INDEX article_search_keys_idx ON article_search USING gin (keys);
CREATE INDEX article_search_published_idx ON article_search (published_at DESC, article_id DESC);
CREATE INDEX articles_search_url_idx ON articles USING hash (search_url(url));
CREATE INDEX articles_external_id_idx ON articles (external_id);
CREATE INDEX articles_duplicates_published_idx ON articles (published_at) INCLUDE (source, status) WHERE status <> 'unique';
CREATE INDEX cluster_listing_size_order_idx ON cluster_listing (size DESC, cluster_id DESC);
CREATE INDEX cluster_listing_latest_idx ON cluster_listing (last_ingested DESC, cluster_id DESC);

-- +goose Down
DROP TRIGGER article_search_update ON articles;
DROP TRIGGER article_search_insert ON articles;
DROP FUNCTION article_search_after_update();
DROP FUNCTION article_search_after_insert();
DROP TABLE article_search;
DROP INDEX cluster_listing_latest_idx;
DROP INDEX cluster_listing_size_order_idx;
DROP INDEX articles_duplicates_published_idx;
DROP INDEX articles_external_id_idx;
DROP INDEX articles_search_url_idx;
DROP FUNCTION search_url(text);
DROP FUNCTION search_keys(text);
DROP FUNCTION search_terms(text);
DROP FUNCTION search_text(text);
