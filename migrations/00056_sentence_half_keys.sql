-- The sentence index's near part keys each sentence by the two 32-bit
-- halves of its simhash (sentence_half_keys: 2 GIN entries a sentence, not
-- the eight 16-bit block keys of migration 00019). Two simhashes within 3
-- bits differ in at most 1 bit of one half, so a query probes each of its
-- halves and the 32 one-bit neighbours of each (sentence_half_probes, 66
-- keys): the same matches at distances 0–3, a quarter of the entries to
-- write, and posting lists of about N/2^32 rows a key where a block key
-- holds N/2^16. Which sentences the near matches come from, measured, and
-- the costs: docs/scaling.md, "Keys that earn their cost".
--
-- Built CONCURRENTLY, outside a transaction, as 00019's index was. The
-- block keys' index stays: the binary before this migration searches
-- through it while both run (migrations only add). It costs every write
-- its eight keys until a later release drops it (README, "Upgrading").

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION sentence_half_keys(simhash bigint) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    -- The low half as it is, the high half tagged by bit 32 so that equal
    -- keys are equal values of the same half. Not STRICT, so that
    -- PostgreSQL inlines it.
    SELECT ARRAY[simhash & 4294967295, ((simhash >> 32) & 4294967295) | 4294967296]
$$;
-- +goose StatementEnd
COMMENT ON FUNCTION sentence_half_keys(bigint) IS 'The two keys of a sentence simhash: its low 32 bits, and its high 32 bits tagged with bit 32 (migration 00056).';
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION sentence_half_probes(simhash bigint) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    -- Each half's key and its 32 one-bit neighbours, 66 keys, written out
    -- so that PostgreSQL inlines the function (a subquery over
    -- generate_series is not inlined: 45 µs a call against a few).
    SELECT ARRAY[
        (simhash & 4294967295), (simhash & 4294967295) # 1, (simhash & 4294967295) # 2,
        (simhash & 4294967295) # 4, (simhash & 4294967295) # 8, (simhash & 4294967295) # 16,
        (simhash & 4294967295) # 32, (simhash & 4294967295) # 64, (simhash & 4294967295) # 128,
        (simhash & 4294967295) # 256, (simhash & 4294967295) # 512, (simhash & 4294967295) # 1024,
        (simhash & 4294967295) # 2048, (simhash & 4294967295) # 4096, (simhash & 4294967295) # 8192,
        (simhash & 4294967295) # 16384, (simhash & 4294967295) # 32768, (simhash & 4294967295) # 65536,
        (simhash & 4294967295) # 131072, (simhash & 4294967295) # 262144, (simhash & 4294967295) # 524288,
        (simhash & 4294967295) # 1048576, (simhash & 4294967295) # 2097152, (simhash & 4294967295) # 4194304,
        (simhash & 4294967295) # 8388608, (simhash & 4294967295) # 16777216, (simhash & 4294967295) # 33554432,
        (simhash & 4294967295) # 67108864, (simhash & 4294967295) # 134217728, (simhash & 4294967295) # 268435456,
        (simhash & 4294967295) # 536870912, (simhash & 4294967295) # 1073741824, (simhash & 4294967295) # 2147483648,
        ((simhash >> 32) & 4294967295) | 4294967296, (((simhash >> 32) & 4294967295) # 1) | 4294967296, (((simhash >> 32) & 4294967295) # 2) | 4294967296,
        (((simhash >> 32) & 4294967295) # 4) | 4294967296, (((simhash >> 32) & 4294967295) # 8) | 4294967296, (((simhash >> 32) & 4294967295) # 16) | 4294967296,
        (((simhash >> 32) & 4294967295) # 32) | 4294967296, (((simhash >> 32) & 4294967295) # 64) | 4294967296, (((simhash >> 32) & 4294967295) # 128) | 4294967296,
        (((simhash >> 32) & 4294967295) # 256) | 4294967296, (((simhash >> 32) & 4294967295) # 512) | 4294967296, (((simhash >> 32) & 4294967295) # 1024) | 4294967296,
        (((simhash >> 32) & 4294967295) # 2048) | 4294967296, (((simhash >> 32) & 4294967295) # 4096) | 4294967296, (((simhash >> 32) & 4294967295) # 8192) | 4294967296,
        (((simhash >> 32) & 4294967295) # 16384) | 4294967296, (((simhash >> 32) & 4294967295) # 32768) | 4294967296, (((simhash >> 32) & 4294967295) # 65536) | 4294967296,
        (((simhash >> 32) & 4294967295) # 131072) | 4294967296, (((simhash >> 32) & 4294967295) # 262144) | 4294967296, (((simhash >> 32) & 4294967295) # 524288) | 4294967296,
        (((simhash >> 32) & 4294967295) # 1048576) | 4294967296, (((simhash >> 32) & 4294967295) # 2097152) | 4294967296, (((simhash >> 32) & 4294967295) # 4194304) | 4294967296,
        (((simhash >> 32) & 4294967295) # 8388608) | 4294967296, (((simhash >> 32) & 4294967295) # 16777216) | 4294967296, (((simhash >> 32) & 4294967295) # 33554432) | 4294967296,
        (((simhash >> 32) & 4294967295) # 67108864) | 4294967296, (((simhash >> 32) & 4294967295) # 134217728) | 4294967296, (((simhash >> 32) & 4294967295) # 268435456) | 4294967296,
        (((simhash >> 32) & 4294967295) # 536870912) | 4294967296, (((simhash >> 32) & 4294967295) # 1073741824) | 4294967296, (((simhash >> 32) & 4294967295) # 2147483648) | 4294967296]
$$;
-- +goose StatementEnd
COMMENT ON FUNCTION sentence_half_probes(bigint) IS 'The keys a sentence simhash''s lookup probes: each of its two half keys (sentence_half_keys) and their 32 one-bit neighbours. A simhash within 3 bits has one half within 1 bit, so it holds one of them.';
DROP INDEX CONCURRENTLY IF EXISTS sentences_half_keys_idx;
CREATE INDEX CONCURRENTLY sentences_half_keys_idx ON sentences
    USING gin (sentence_half_keys(simhash)) WITH (fastupdate = off) WHERE simhash IS NOT NULL;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS sentences_half_keys_idx;
DROP FUNCTION IF EXISTS sentence_half_probes(bigint);
DROP FUNCTION IF EXISTS sentence_half_keys(bigint);
