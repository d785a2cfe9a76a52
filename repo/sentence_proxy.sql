-- The primary's side of the sentence index in partitions
-- (repo/sentence_partitions.go): PL/Proxy functions of cluster 'sentences'
-- (configured by migration 00045 from sentence_partitions), each calling
-- the function of the same name in schema sentence_part on the partitions
-- (repo/sentence_partition.sql). Applied by repo.InstallSentenceProxy;
-- may run again. CREATE EXTENSION needs a superuser.
CREATE EXTENSION IF NOT EXISTS plproxy;
CREATE SCHEMA IF NOT EXISTS sentence_proxy;

-- write: each row to the partition its article id hashes to; SPLIT sends
-- each partition its rows in one call.
CREATE OR REPLACE FUNCTION sentence_proxy.write(
    article_ids bigint[], positions integer[], starts integer[], ends integer[],
    runes integer[], text_hashes bigint[], simhashes bigint[]) RETURNS SETOF integer
LANGUAGE plproxy AS $$
    CLUSTER 'sentences';
    SPLIT ALL;
    RUN ON hashint8(article_ids);
    TARGET sentence_part.write;
$$;

CREATE OR REPLACE FUNCTION sentence_proxy.forget(article_ids bigint[]) RETURNS SETOF integer
LANGUAGE plproxy AS $$
    CLUSTER 'sentences';
    SPLIT article_ids;
    RUN ON hashint8(article_ids);
    TARGET sentence_part.forget;
$$;

-- forget_replaced: forget, for an article a correction leaves with no
-- sentence, marked for the repair (repo/sentence_partitions_repair.go).
CREATE OR REPLACE FUNCTION sentence_proxy.forget_replaced(article_ids bigint[]) RETURNS SETOF integer
LANGUAGE plproxy AS $$
    CLUSTER 'sentences';
    SPLIT article_ids;
    RUN ON hashint8(article_ids);
    TARGET sentence_part.forget_replaced;
$$;

CREATE OR REPLACE FUNCTION sentence_proxy.article_ids(lo bigint, hi bigint, settled interval) RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER 'sentences';
    RUN ON ALL;
    TARGET sentence_part.article_ids;
$$;

-- search: on every partition at once; the caller merges.
CREATE OR REPLACE FUNCTION sentence_proxy.search(
    qi integer[], qtext bigint[], qsim bigint[], exclude bigint, distance integer, per_sentence integer,
    OUT i integer, OUT article_id bigint, OUT pos integer, OUT runes integer,
    OUT text_hash bigint, OUT simhash bigint, OUT start_char integer, OUT end_char integer) RETURNS SETOF record
LANGUAGE plproxy AS $$
    CLUSTER 'sentences';
    RUN ON ALL;
    TARGET sentence_part.search;
$$;

-- search_on: search on partition part alone, for a check that may answer
-- without a partition that is down (repo/sentence_partitions_missing.go).
CREATE OR REPLACE FUNCTION sentence_proxy.search_on(
    part integer, qi integer[], qtext bigint[], qsim bigint[], exclude bigint, distance integer, per_sentence integer,
    OUT i integer, OUT article_id bigint, OUT pos integer, OUT runes integer,
    OUT text_hash bigint, OUT simhash bigint, OUT start_char integer, OUT end_char integer) RETURNS SETOF record
LANGUAGE plproxy AS $$
    CLUSTER 'sentences';
    RUN ON part;
    SELECT * FROM sentence_part.search(qi, qtext, qsim, exclude, distance, per_sentence);
$$;

-- written_between: on every partition, for the repair
-- (repo/sentence_partitions_repair.go).
CREATE OR REPLACE FUNCTION sentence_proxy.written_between(after interval, settled interval,
    OUT article_id bigint, OUT pos integer, OUT text_hash bigint) RETURNS SETOF record
LANGUAGE plproxy AS $$
    CLUSTER 'sentences';
    RUN ON ALL;
    TARGET sentence_part.written_between;
$$;
