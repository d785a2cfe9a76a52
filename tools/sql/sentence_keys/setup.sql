-- Issue 38's prototype of a sentence index with fewer postings a lookup:
-- today's GIN over eight 16-bit block keys (two families; a candidate
-- shares a key of each) against a GIN over ten keys, each two of five
-- blocks of 13, 13, 13, 13 and 12 bits (three differing bits leave two
-- blocks clean, so simhashes within 3 bits share a key). Synthetic uniform
-- simhashes, no corpus text. Figures and how to run: docs/scaling.md,
-- section 5, "Fewer postings a lookup".
-- In a database of its own, migrated (`dedupd migrate up`) for the service's
-- sentence_block_keys:
--   psql "$URL" -f setup.sql; psql "$URL" -f measure.sql; ./inserts.sh "$URL"
\set rows 10000000
DROP TABLE IF EXISTS s_cur, s_five;
CREATE OR REPLACE FUNCTION five_keys(h bigint) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ARRAY[
        (0::bigint << 32) | (((h >> 0) & 8191) << 13) | ((h >> 13) & 8191),
        (1::bigint << 32) | (((h >> 0) & 8191) << 13) | ((h >> 26) & 8191),
        (2::bigint << 32) | (((h >> 0) & 8191) << 13) | ((h >> 39) & 8191),
        (3::bigint << 32) | (((h >> 0) & 8191) << 13) | ((h >> 52) & 4095),
        (4::bigint << 32) | (((h >> 13) & 8191) << 13) | ((h >> 26) & 8191),
        (5::bigint << 32) | (((h >> 13) & 8191) << 13) | ((h >> 39) & 8191),
        (6::bigint << 32) | (((h >> 13) & 8191) << 13) | ((h >> 52) & 4095),
        (7::bigint << 32) | (((h >> 26) & 8191) << 13) | ((h >> 39) & 8191),
        (8::bigint << 32) | (((h >> 26) & 8191) << 13) | ((h >> 52) & 4095),
        (9::bigint << 32) | (((h >> 39) & 8191) << 13) | ((h >> 52) & 4095)]
$$;
CREATE TABLE s_cur (id bigint NOT NULL, simhash bigint);
INSERT INTO s_cur SELECT i, ('x' || substr(md5(i::text), 1, 16))::bit(64)::bigint
  FROM generate_series(1, :rows) i;
CREATE TABLE s_five AS SELECT * FROM s_cur;
SET maintenance_work_mem = '2GB';
\timing on
CREATE INDEX s_cur_keys ON s_cur USING gin (sentence_block_keys(simhash)) WITH (fastupdate = off);
CREATE INDEX s_five_keys ON s_five USING gin (five_keys(simhash)) WITH (fastupdate = off);
\timing off
VACUUM ANALYZE s_cur; VACUUM ANALYZE s_five;
SELECT c.relname, pg_relation_size(c.oid) AS bytes, round(pg_relation_size(c.oid)::numeric / :rows, 1) AS per_row
  FROM pg_class c WHERE relname IN ('s_cur', 's_five', 's_cur_keys', 's_five_keys');
