-- Who copied whom, credited or not (issue 47). sources names each source's
-- owner (the group of sites it belongs to) and the names a credit line uses
-- for it (xinhua: 新华社, 新华网); dedupd loads it from DEDUP_SOURCES_FILE
-- (docs/reporting.md, "Sources and credit"). source_owner says whose a
-- source is even when it is not listed. articles.credit is how a copy
-- credits the article it links to (service/rules_credit.go); NULL for an
-- article that links to none.
--
-- +goose Up
CREATE TABLE sources (
    source text PRIMARY KEY CHECK (char_length(source) BETWEEN 1 AND 256),
    owner  text NOT NULL CHECK (char_length(owner) BETWEEN 1 AND 256),
    names  text[] NOT NULL DEFAULT '{}'
);
COMMENT ON TABLE sources IS 'Each known source: its owner (sources of one owner do not copy each other) and the names its articles are credited by (来源：新华社), loaded from DEDUP_SOURCES_FILE at start.';
COMMENT ON COLUMN sources.names IS 'The names a credit line (来源/转自/据…报道) or byline uses for the source, e.g. {新华社,新华网}.';

-- +goose StatementBegin
CREATE FUNCTION source_owner(src text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
RETURN coalesce((SELECT s.owner FROM sources s WHERE s.source = src), nullif(split_part(src, '-', 1), ''), src);
-- +goose StatementEnd
COMMENT ON FUNCTION source_owner(text) IS 'The owner of a source: from the sources table, else the part of its name before the first ''-'' (cctv-news: cctv), else the source itself.';

ALTER TABLE articles ADD COLUMN credit text
    CONSTRAINT articles_credit_check CHECK (credit IN ('credited', 'credits_other', 'uncredited'));
COMMENT ON COLUMN articles.credit IS 'How this copy credits the article it links to: credited (a credit line or byline names its source or author), credits_other (credits a third source), uncredited (none, or the original''s byline or credit removed). NULL for an article that links to none, or stored before migration 00035.';

CREATE VIEW copy_credits AS
SELECT d.id AS article_id, d.source AS article_source, source_owner(d.source) AS article_owner,
       d.external_id AS article_external_id, d.published_at AS article_published_at,
       d.credit,
       o.id AS original_id, o.source AS original_source, source_owner(o.source) AS original_owner,
       o.external_id AS original_external_id, o.published_at AS original_published_at,
       d.cluster_id
FROM articles d
JOIN articles o ON o.id = d.duplicate_of
WHERE d.credit IS NOT NULL;
COMMENT ON VIEW copy_credits IS 'One row per copy whose credit is known, with the article it links to and both owners (source_owner): who copied whom, and whether the copy said so. Count by original_owner and credit for a desk''s report.';

-- +goose Down
DROP VIEW copy_credits;
ALTER TABLE articles DROP COLUMN credit;
DROP FUNCTION source_owner(text);
DROP TABLE sources;
