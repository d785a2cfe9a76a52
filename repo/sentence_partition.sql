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

-- The primary's sentence_block_keys (migration 00019), the same keys.
CREATE OR REPLACE FUNCTION sentence_part.block_keys(simhash bigint) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
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

CREATE INDEX IF NOT EXISTS sentences_text_hash_idx ON sentence_part.sentences (text_hash);
CREATE INDEX IF NOT EXISTS sentences_block_keys_idx ON sentence_part.sentences
    USING gin (sentence_part.block_keys(simhash)) WITH (fastupdate = off) WHERE simhash IS NOT NULL;

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
              AND sentence_part.block_keys(s.simhash) && (sentence_part.block_keys(q.simhash))[1:4]
              AND sentence_part.block_keys(s.simhash) && (sentence_part.block_keys(q.simhash))[5:8]
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
