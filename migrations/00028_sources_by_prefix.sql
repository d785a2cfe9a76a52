-- GET /v1/sources?prefix= finds the sources that begin with a prefix,
-- without case, through this index: a range scan from the prefix, one entry
-- a source (a loose index scan), instead of a walk of every source. The
-- byte order (COLLATE "C") makes "begins with" a range of the index.

-- +goose Up
CREATE INDEX articles_source_lower_idx ON articles ((lower(source) COLLATE "C"), source);

-- +goose Down
DROP INDEX articles_source_lower_idx;
