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

-- The primary's sentence_half_keys and sentence_half_probes (migration
-- 00056), the same keys. block_keys (00019's) and its index are what a
-- partition prepared before held: dropped once the half keys' index is in.
CREATE OR REPLACE FUNCTION sentence_part.half_keys(simhash bigint) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ARRAY[simhash & 4294967295, ((simhash >> 32) & 4294967295) | 4294967296]
$$;

CREATE OR REPLACE FUNCTION sentence_part.half_probes(simhash bigint) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ARRAY(
        SELECT k
        FROM generate_series(-1, 31) AS b,
             LATERAL (SELECT CASE WHEN b < 0 THEN 0 ELSE 1::bigint << b END AS f) AS x,
             LATERAL (VALUES ((simhash & 4294967295) # x.f),
                             ((((simhash >> 32) & 4294967295) # x.f) | 4294967296)) AS v(k))
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
