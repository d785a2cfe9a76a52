-- The articles in the order they were ingested: dedupd refingerprint works
-- through the articles of older fingerprint versions earliest first, in
-- chunks, and an ordered index lets each chunk start where the last ended
-- instead of sorting the table.

-- +goose Up
CREATE INDEX articles_ingested_idx ON articles (ingested_at, id);

-- +goose Down
DROP INDEX articles_ingested_idx;
