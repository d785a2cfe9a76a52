-- The sentence index's eight block B-trees become one GIN index over the
-- eight block keys of a sentence's simhash (sentence_block_keys): a stored
-- sentence matches in both families when its keys overlap the query's
-- family-A keys and its family-B keys, which GIN intersects inside the
-- index instead of building a bitmap of every sentence that shares one
-- block. Same matches; a lookup's cost no longer grows with every sentence
-- sharing a block value (docs/scaling.md, "The sentence index's layout").
--
-- The binary from this migration on writes no block columns (a0–b3 stay
-- NULL), so its rows stay out of the partial B-trees, which keep the rows
-- written before and serve the binary before this one while both run. The
-- check that tied a0 to simhash goes: the new rows have a simhash and no
-- blocks. A later migration drops the columns and their B-trees once no
-- binary from before this one runs.
--
-- The index is built CONCURRENTLY, outside a transaction, so that the
-- service keeps writing while it is built; an interrupted build leaves an
-- invalid index, which the next run drops before building it again.

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION sentence_block_keys(simhash bigint) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    -- Each key is the simhash under one block mask of FamilyA or FamilyB
    -- (service/fingerprint/masks.go), with a tag on the bits outside it
    -- that no two blocks share: equal keys are equal block values of the
    -- same block. Not STRICT, so that PostgreSQL inlines it.
    SELECT ARRAY[
        (simhash & 4222189076152335) | -8768361275575966080,
        (simhash & 67555025218437360) | -4607184610759415552,
        (simhash & 1080880403494997760) | -2248403425207304062,
        (simhash & -1152657617789587456) | 513701882881771604,
        (simhash & 1229782938247303441) | 5522190098149805230,
        (simhash & 2459565876494606882) | 2149637702155574469,
        (simhash & 4919131752989213764) | -6696139500912279143,
        (simhash & -8608480567731124088) | 365390194932019462]
$$;
-- +goose StatementEnd
COMMENT ON FUNCTION sentence_block_keys(bigint) IS 'The eight block keys of a sentence simhash: elements 1–4 family A, 5–8 family B. Two simhashes within 3 bits share a key of each family.';
ALTER TABLE sentences DROP CONSTRAINT IF EXISTS sentences_simhash_check;
DROP INDEX CONCURRENTLY IF EXISTS sentences_block_keys_idx;
CREATE INDEX CONCURRENTLY sentences_block_keys_idx ON sentences
    USING gin (sentence_block_keys(simhash)) WITH (fastupdate = off) WHERE simhash IS NOT NULL;
COMMENT ON COLUMN sentences.a0 IS 'Unused since migration 00019 (NULL for the rows written since, which sentences_block_keys_idx finds); a0–b3 are the block values of the rows written before.';

-- +goose Down
-- The binary before this migration finds sentences by their block columns:
-- the rows written since get theirs, computed from their simhash.
-- +goose StatementBegin
CREATE FUNCTION sentence_block_value(simhash bigint, mask bigint) RETURNS smallint
LANGUAGE sql IMMUTABLE AS $$
    SELECT ((coalesce(sum(((simhash >> b) & 1) << (n - 1)::int), 0) + 32768) % 65536 - 32768)::smallint
    FROM (SELECT b, row_number() OVER (ORDER BY b) AS n FROM generate_series(0, 63) AS b WHERE ((mask >> b) & 1) = 1) AS bits
$$;
-- +goose StatementEnd
UPDATE sentences SET
    a0 = sentence_block_value(simhash, 4222189076152335),
    a1 = sentence_block_value(simhash, 67555025218437360),
    a2 = sentence_block_value(simhash, 1080880403494997760),
    a3 = sentence_block_value(simhash, -1152657617789587456),
    b0 = sentence_block_value(simhash, 1229782938247303441),
    b1 = sentence_block_value(simhash, 2459565876494606882),
    b2 = sentence_block_value(simhash, 4919131752989213764),
    b3 = sentence_block_value(simhash, -8608480567731124088)
WHERE simhash IS NOT NULL AND a0 IS NULL;
DROP FUNCTION sentence_block_value(bigint, bigint);
DROP INDEX CONCURRENTLY IF EXISTS sentences_block_keys_idx;
ALTER TABLE sentences ADD CONSTRAINT sentences_simhash_check CHECK ((simhash IS NULL) = (a0 IS NULL));
COMMENT ON COLUMN sentences.a0 IS NULL;
DROP FUNCTION IF EXISTS sentence_block_keys(bigint);
