-- fingerprint_upgrades: how far dedupd refingerprint has judged again the
-- unique articles of a fingerprint version (issue 33). An article stored
-- while rows of an older version were still there could not see them; once
-- every row ingested before some time is of the new version, the unique
-- articles ingested before then are judged again, and the mark records it,
-- so that the next run (after an interruption, or after an older binary
-- wrote again) starts where this one ended instead of at its own start
-- (cmd/dedupd/refingerprint.go).

-- +goose Up
CREATE TABLE fingerprint_upgrades (
    version           smallint    PRIMARY KEY,
    rejudged_through  timestamptz NOT NULL,
    rejudged_after_id bigint      NOT NULL DEFAULT 0
);
COMMENT ON TABLE fingerprint_upgrades IS 'For each fingerprint version: how far (by ingested_at, then id) dedupd refingerprint has judged again the unique articles of that version against a store with no row of another version ingested before them. Written by refingerprint alone; it only moves forward.';
COMMENT ON COLUMN fingerprint_upgrades.rejudged_through IS 'The unique articles of the version ingested before this time, or at it with an id up to rejudged_after_id, have been judged again.';

-- +goose Down
DROP TABLE fingerprint_upgrades;
