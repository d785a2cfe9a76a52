-- The partition side of the sentence index (repo/sentence_partitions.go):
-- what each partition database holds, applied by repo.PreparePartition
-- (dedupd partition-prepare, devdb parts-start) to each; every statement
-- may run again. An article's sentences live on the partition its id
-- hashes to (hashint8 on the primary's proxy); written_at lets the sweep
-- leave alone the rows of an ingest that may still commit.
CREATE SCHEMA IF NOT EXISTS sentence_part;

CREATE TABLE IF NOT EXISTS sentence_part.sentences (
    article_id bigint NOT NULL,
    position integer NOT NULL,
    start_char integer NOT NULL,
    end_char integer NOT NULL,
    runes integer NOT NULL,
    text_hash bigint NOT NULL,
    simhash bigint,
    written_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (article_id, position)
);

-- A partition keys each sentence by the two 32-bit halves of its simhash
-- (half_keys, 2 GIN entries), where the primary's table keeps 00019's
-- eight block keys: two simhashes within 3 bits differ in at most 1 bit of
-- one half, so a lookup probes each query half and its 32 one-bit
-- neighbours (half_probes, 66 keys, written out so that PostgreSQL inlines
-- it) and checks the distance on the rows found. The same matches at
-- distances 0-3; a key's posting list holds N/2^32 rows where a block
-- key's holds N/2^16, so a lookup's cost does not grow with a partition's
-- size (docs/scaling.md, "Keys that earn their cost": dearer below about
-- 15 million sentences a partition, cheaper above). block_keys and its
-- index are what a partition prepared before held: dropped once the half
-- keys' index is in (a non-concurrent build: it holds the partition's
-- writes while it runs).
CREATE OR REPLACE FUNCTION sentence_part.half_keys(simhash bigint) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ARRAY[simhash & 4294967295, ((simhash >> 32) & 4294967295) | 4294967296]
$$;

CREATE OR REPLACE FUNCTION sentence_part.half_probes(simhash bigint) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
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

CREATE INDEX IF NOT EXISTS sentences_text_hash_idx ON sentence_part.sentences (text_hash);
CREATE INDEX IF NOT EXISTS sentences_half_keys_idx ON sentence_part.sentences
    USING gin (sentence_part.half_keys(simhash)) WITH (fastupdate = off) WHERE simhash IS NOT NULL;
DROP INDEX IF EXISTS sentence_part.sentences_block_keys_idx;
DROP FUNCTION IF EXISTS sentence_part.block_keys(bigint);

-- write stores sentence rows, one array element each, replacing what
-- their articles had.
CREATE OR REPLACE FUNCTION sentence_part.write(
    article_ids bigint[], positions integer[], starts integer[], ends integer[],
    runes integer[], text_hashes bigint[], simhashes bigint[]) RETURNS SETOF integer
LANGUAGE sql AS $$
    DELETE FROM sentence_part.sentences WHERE article_id = ANY (article_ids);
    WITH written AS (
        INSERT INTO sentence_part.sentences (article_id, position, start_char, end_char, runes, text_hash, simhash)
        SELECT * FROM unnest(article_ids, positions, starts, ends, runes, text_hashes, simhashes)
        RETURNING 1
    )
    SELECT count(*)::integer FROM written
$$;

-- forget deletes the sentences of these articles.
CREATE OR REPLACE FUNCTION sentence_part.forget(article_ids bigint[]) RETURNS SETOF integer
LANGUAGE sql AS $$
    WITH gone AS (DELETE FROM sentence_part.sentences WHERE article_id = ANY (article_ids) RETURNING 1)
    SELECT count(*)::integer FROM gone
$$;

-- article_ids lists the articles with sentences here in [lo, hi) whose
-- rows were all written before settled ago: what the sweep checks.
CREATE OR REPLACE FUNCTION sentence_part.article_ids(lo bigint, hi bigint, settled interval) RETURNS SETOF bigint
LANGUAGE sql STABLE AS $$
    SELECT article_id FROM sentence_part.sentences
    WHERE article_id >= lo AND article_id < hi
    GROUP BY article_id
    HAVING max(written_at) < now() - settled
$$;

-- search is the primary's sentence search (repo/sentences.go,
-- sentenceSearchFrom) on this partition's rows, the per-sentence limit
-- kept here: the primary merges and keeps it again.
CREATE OR REPLACE FUNCTION sentence_part.search(
    qi integer[], qtext bigint[], qsim bigint[], exclude bigint, distance integer, per_sentence integer,
    OUT i integer, OUT article_id bigint, OUT pos integer, OUT runes integer,
    OUT text_hash bigint, OUT simhash bigint, OUT start_char integer, OUT end_char integer) RETURNS SETOF record
LANGUAGE sql STABLE AS $$
    SELECT q.i, m.*
    FROM unnest(qi, qtext, qsim) AS q(i, text_hash, simhash)
    CROSS JOIN LATERAL (
        SELECT * FROM (
            SELECT s.article_id, s.position, s.runes, s.text_hash, s.simhash, s.start_char, s.end_char
            FROM sentence_part.sentences s
            WHERE s.text_hash = q.text_hash AND s.article_id <> exclude
            UNION ALL
            SELECT s.article_id, s.position, s.runes, s.text_hash, s.simhash, s.start_char, s.end_char
            FROM sentence_part.sentences s
            WHERE q.simhash IS NOT NULL AND s.simhash IS NOT NULL
              AND sentence_part.half_keys(s.simhash) && sentence_part.half_probes(q.simhash)
              AND bit_count((s.simhash # q.simhash)::bit(64)) <= distance
              AND s.text_hash <> q.text_hash
              AND s.article_id <> exclude
        ) found
        LIMIT per_sentence
    ) m
$$;

-- written_between lists the rows written between after and settled ago:
-- what the repair of rolled-back corrections compares with the primary
-- (repo/sentence_partitions_repair.go). The rows are appended in the order
-- they are written, so a BRIN index finds the recent ones for little space.
CREATE INDEX IF NOT EXISTS sentences_written_at_idx ON sentence_part.sentences USING brin (written_at);

-- forgotten marks the articles a correction left with no sentence
-- (forget_replaced): written_between lists them with no row, so that the
-- repair finds one whose correction rolled back. Kept a day.
CREATE TABLE IF NOT EXISTS sentence_part.forgotten (
    article_id bigint NOT NULL,
    forgotten_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS forgotten_at_idx ON sentence_part.forgotten (forgotten_at);

CREATE OR REPLACE FUNCTION sentence_part.forget_replaced(article_ids bigint[]) RETURNS SETOF integer
LANGUAGE sql AS $$
    DELETE FROM sentence_part.forgotten WHERE forgotten_at < now() - interval '1 day';
    INSERT INTO sentence_part.forgotten (article_id) SELECT unnest(article_ids);
    WITH gone AS (DELETE FROM sentence_part.sentences WHERE article_id = ANY (article_ids) RETURNING 1)
    SELECT count(*)::integer FROM gone
$$;

-- written_between: the rows, and (pos and text_hash null) the articles
-- left with none.
CREATE OR REPLACE FUNCTION sentence_part.written_between(after interval, settled interval,
    OUT article_id bigint, OUT pos integer, OUT text_hash bigint) RETURNS SETOF record
LANGUAGE sql STABLE AS $$
    SELECT s.article_id, s.position, s.text_hash FROM sentence_part.sentences s
    WHERE s.written_at >= now() - after AND s.written_at < now() - settled
    UNION ALL
    SELECT f.article_id, NULL, NULL FROM sentence_part.forgotten f
    WHERE f.forgotten_at >= now() - after AND f.forgotten_at < now() - settled
$$;
