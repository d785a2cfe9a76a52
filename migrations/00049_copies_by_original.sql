-- The indexes the desk's report reads (issue 48): the copies of a source's
-- (or an owner's) stories by publication, latest first — the report's
-- period and order — so that it reads only the copies it shows and
-- counts, not every duplicate of the period (migration 00048). The
-- analysts' view desk_copies reads the original's source and owner from
-- the copy's row too, so that a filter on them uses the same indexes.
--
--
-- Built CONCURRENTLY, outside a transaction, so that ingest goes on while
-- they are built; an interrupted build leaves an invalid index, which the
-- next run drops before building it again.

-- +goose NO TRANSACTION
-- +goose Up
DROP INDEX CONCURRENTLY IF EXISTS articles_copies_by_original_source_idx;
CREATE INDEX CONCURRENTLY articles_copies_by_original_source_idx ON articles (original_source, published_at)
    WHERE status <> 'unique';
DROP INDEX CONCURRENTLY IF EXISTS articles_copies_by_original_owner_idx;
CREATE INDEX CONCURRENTLY articles_copies_by_original_owner_idx ON articles (original_owner, published_at)
    WHERE status <> 'unique';

CREATE OR REPLACE VIEW desk_copies AS
SELECT d.id AS copy_id, d.source AS copy_source, source_owner(d.source) AS copy_owner,
       d.title AS copy_title, d.url AS copy_url, d.published_at AS copy_published_at,
       d.credit,
       source_owner(d.source) = d.original_owner AS same_owner,
       d.published_at - o.published_at AS delay,
       o.id AS original_id, d.original_source, d.original_owner,
       o.title AS original_title, o.url AS original_url, o.published_at AS original_published_at,
       d.cluster_id
FROM articles d
JOIN articles o ON o.id = d.duplicate_of
WHERE d.status <> 'unique';

-- +goose Down
CREATE OR REPLACE VIEW desk_copies AS
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
DROP INDEX CONCURRENTLY IF EXISTS articles_copies_by_original_owner_idx;
DROP INDEX CONCURRENTLY IF EXISTS articles_copies_by_original_source_idx;
