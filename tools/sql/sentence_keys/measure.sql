-- Lookups: the same query fingerprints (stored ones with 0-3 bits
-- flipped), 31 to an article, against each layout in turn; the match counts
-- must agree.
SET jit = off;  -- as the service's sessions run (repo/store.go): with it on, the
                -- five-key statement, costed above jit_above_cost, compiles for 300 ms
\set nq 6200
DROP TABLE IF EXISTS q, timings;
CREATE TABLE q AS
  SELECT n, ('x' || substr(md5((1 + floor(random() * 10000000)::bigint)::text), 1, 16))::bit(64)::bigint #
            (CASE WHEN n % 4 >= 1 THEN 1::bigint << floor(random() * 64)::int ELSE 0 END) #
            (CASE WHEN n % 4 >= 2 THEN 1::bigint << floor(random() * 64)::int ELSE 0 END) #
            (CASE WHEN n % 4 >= 3 THEN 1::bigint << floor(random() * 64)::int ELSE 0 END) AS h
    FROM generate_series(1, :nq) n;
CREATE TABLE timings (layout text, round int, n int, us float8, matches int);
CREATE OR REPLACE FUNCTION time_lookups(layout text, rnd int) RETURNS void LANGUAGE plpgsql AS $$
-- one statement an article of 31 query sentences, as repo/sentences.go asks
DECLARE r record; t0 timestamptz; c int;
BEGIN
  FOR r IN SELECT (n - 1) / 31 AS a, array_agg(h ORDER BY n) AS hs FROM q GROUP BY 1 ORDER BY 1 LOOP
    t0 := clock_timestamp();
    IF layout = 'cur' THEN
      SELECT count(*) INTO c FROM unnest(r.hs) AS x(h) CROSS JOIN LATERAL (
        SELECT 1 FROM s_cur
         WHERE sentence_block_keys(simhash) && (sentence_block_keys(x.h))[1:4]
           AND sentence_block_keys(simhash) && (sentence_block_keys(x.h))[5:8]
           AND bit_count((simhash # x.h)::bit(64)) <= 3) m;
    ELSE
      SELECT count(*) INTO c FROM unnest(r.hs) AS x(h) CROSS JOIN LATERAL (
        SELECT 1 FROM s_five
         WHERE five_keys(simhash) && five_keys(x.h)
           AND bit_count((simhash # x.h)::bit(64)) <= 3) m;
    END IF;
    INSERT INTO timings VALUES (layout, rnd, r.a, extract(epoch FROM clock_timestamp() - t0) * 1e6, c);
  END LOOP;
END $$;
SELECT time_lookups('cur', 0); SELECT time_lookups('five', 0);  -- warm
SELECT time_lookups('cur', 1); SELECT time_lookups('five', 1);
SELECT time_lookups('cur', 2); SELECT time_lookups('five', 2);
SELECT time_lookups('cur', 3); SELECT time_lookups('five', 3);
SELECT layout, round,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY us)::numeric, 1) AS median_us,
       round(percentile_cont(0.99) WITHIN GROUP (ORDER BY us)::numeric, 1) AS p99_us,
       sum(matches) AS matches
  FROM timings WHERE round > 0 GROUP BY 1, 2 ORDER BY 2, 1;
SELECT count(*) AS disagreeing FROM timings a JOIN timings b USING (n, round)
 WHERE a.layout = 'cur' AND b.layout = 'five' AND a.matches <> b.matches;
-- Writes, timed by inserts.sh: n more rows into one layout in one statement.
CREATE OR REPLACE FUNCTION time_inserts(layout text, first bigint, n int) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
  IF layout = 'cur' THEN
    INSERT INTO s_cur SELECT i, ('x' || substr(md5(i::text), 1, 16))::bit(64)::bigint FROM generate_series(first, first + n - 1) i;
  ELSE
    INSERT INTO s_five SELECT i, ('x' || substr(md5(i::text), 1, 16))::bit(64)::bigint FROM generate_series(first, first + n - 1) i;
  END IF;
  RETURN extract(epoch FROM clock_timestamp() - t0) * 1e6 / n;
END $$;
