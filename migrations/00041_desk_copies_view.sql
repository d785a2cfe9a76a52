-- The copyright desk's view for analysts (issue 48): every copy of
-- another article with both sides, whether the two sources are one
-- owner's (a portal's sections, shown apart from other outlets' copies),
-- and the delay after the original's publication — what GET
-- /v1/sources/{source}/copies reads, in SQL (docs/reporting.md, "Who
-- copied us").
--
-- +goose Up
CREATE VIEW desk_copies AS
SELECT d.id AS copy_id, d.source AS copy_source, source_owner(d.source) AS copy_owner,
       d.title AS copy_title, d.url AS copy_url, d.published_at AS copy_published_at,
       d.credit,
       source_owner(d.source) = source_owner(o.source) AS same_owner,
       d.published_at - o.published_at AS delay,
       o.id AS original_id, o.source AS original_source, source_owner(o.source) AS original_owner,
       o.title AS original_title, o.url AS original_url, o.published_at AS original_published_at,
       d.cluster_id
FROM articles d
JOIN articles o ON o.id = d.duplicate_of
WHERE d.status <> 'unique';
COMMENT ON VIEW desk_copies IS 'One row per copy with the article it links to: who copied whose story, how long after (delay), credited or not (credit, NULL before migration 00035), and same_owner for copies between one owner''s sources. Filter on copy_published_at to use the index of duplicates by publication.';

-- +goose Down
DROP VIEW desk_copies;
