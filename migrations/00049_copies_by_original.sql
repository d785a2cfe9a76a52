-- The indexes the desk's report reads (issue 48): the copies of a source's
-- (or an owner's) stories by publication, latest first — the report's
-- period and order — so that it reads only the copies it shows and
-- counts, not every duplicate of the period (migration 00048).
--
-- +goose Up
CREATE INDEX articles_copies_by_original_source_idx ON articles (original_source, published_at)
    WHERE status <> 'unique';
CREATE INDEX articles_copies_by_original_owner_idx ON articles (original_owner, published_at)
    WHERE status <> 'unique';

-- +goose Down
DROP INDEX articles_copies_by_original_owner_idx;
DROP INDEX articles_copies_by_original_source_idx;
