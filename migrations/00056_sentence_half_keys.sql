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
-- Built CONCURRENTLY, outside a transaction, as 00019's index was; the
-- block keys' index is dropped once the new one is valid.

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
    -- Each half's key and its 32 one-bit neighbours: 66 keys.
    SELECT ARRAY(
        SELECT k
        FROM generate_series(-1, 31) AS b,
             LATERAL (SELECT CASE WHEN b < 0 THEN 0 ELSE 1::bigint << b END AS f) AS x,
             LATERAL (VALUES ((simhash & 4294967295) # x.f),
                             ((((simhash >> 32) & 4294967295) # x.f) | 4294967296)) AS v(k))
$$;
-- +goose StatementEnd
COMMENT ON FUNCTION sentence_half_probes(bigint) IS 'The keys a sentence simhash''s lookup probes: each of its two half keys (sentence_half_keys) and their 32 one-bit neighbours. A simhash within 3 bits has one half within 1 bit, so it holds one of them.';
DROP INDEX CONCURRENTLY IF EXISTS sentences_half_keys_idx;
CREATE INDEX CONCURRENTLY sentences_half_keys_idx ON sentences
    USING gin (sentence_half_keys(simhash)) WITH (fastupdate = off) WHERE simhash IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS sentences_block_keys_idx;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS sentences_block_keys_idx;
CREATE INDEX CONCURRENTLY sentences_block_keys_idx ON sentences
    USING gin (sentence_block_keys(simhash)) WITH (fastupdate = off) WHERE simhash IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS sentences_half_keys_idx;
DROP FUNCTION IF EXISTS sentence_half_probes(bigint);
DROP FUNCTION IF EXISTS sentence_half_keys(bigint);
