-- +goose Up
-- The sentence index in partitions (docs/scaling.md, "The sentence index in
-- partitions"): with no row in sentence_partitions, today's table
-- sentences here answers every lookup; with 2^k rows, the lookups run on
-- the 2^k partition databases through PL/Proxy's cluster 'sentences', whose
-- configuration these functions read from the two tables. The proxy
-- functions themselves need the plproxy extension, which only a
-- partitioned database installs (repo.InstallSentenceProxy); these do not.
CREATE TABLE sentence_partitions (
    part integer PRIMARY KEY CHECK (part >= 0),
    connstr text NOT NULL
);
COMMENT ON TABLE sentence_partitions IS 'The sentence index''s partition databases, by number from 0: libpq connection strings PL/Proxy''s cluster ''sentences'' connects to. Empty: the table sentences answers alone (migration 00045).';

CREATE TABLE sentence_partition_settings (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    version integer NOT NULL DEFAULT 1,
    query_timeout integer NOT NULL DEFAULT 0 CHECK (query_timeout >= 0),
    connection_lifetime integer NOT NULL DEFAULT 0 CHECK (connection_lifetime >= 0)
);
COMMENT ON TABLE sentence_partition_settings IS 'PL/Proxy''s settings of cluster ''sentences'' (seconds, 0 none; a partition''s connect_timeout goes in its connstr) and the version of its configuration, raised by every change of sentence_partitions, that makes PL/Proxy read it again.';
INSERT INTO sentence_partition_settings DEFAULT VALUES;

-- +goose StatementBegin
CREATE FUNCTION sentence_partitions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE sentence_partition_settings SET version = version + 1;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER sentence_partitions_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sentence_partitions
    FOR EACH STATEMENT EXECUTE FUNCTION sentence_partitions_changed();

CREATE SCHEMA plproxy;

-- +goose StatementBegin
CREATE FUNCTION plproxy.get_cluster_version(cluster_name text) RETURNS integer LANGUAGE plpgsql STABLE AS $$
BEGIN
    IF cluster_name <> 'sentences' THEN
        RAISE EXCEPTION 'unknown PL/Proxy cluster %', cluster_name;
    END IF;
    RETURN (SELECT version FROM sentence_partition_settings);
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION plproxy.get_cluster_partitions(cluster_name text) RETURNS SETOF text LANGUAGE plpgsql STABLE AS $$
DECLARE
    n integer;
BEGIN
    IF cluster_name <> 'sentences' THEN
        RAISE EXCEPTION 'unknown PL/Proxy cluster %', cluster_name;
    END IF;
    SELECT count(*) INTO n FROM sentence_partitions;
    IF n = 0 OR n & (n - 1) <> 0 OR (SELECT max(part) FROM sentence_partitions) <> n - 1 THEN
        RAISE EXCEPTION 'sentence_partitions must number its rows 0 to 2^k-1, not % rows', n;
    END IF;
    RETURN QUERY SELECT connstr FROM sentence_partitions ORDER BY part;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION plproxy.get_cluster_config(cluster_name text, OUT key text, OUT val text) RETURNS SETOF record
LANGUAGE sql STABLE AS $$
    SELECT k, v FROM sentence_partition_settings s,
        LATERAL (VALUES ('query_timeout', s.query_timeout::text), ('connection_lifetime', s.connection_lifetime::text)) AS c(k, v)
    WHERE cluster_name = 'sentences'
$$;
-- +goose StatementEnd

-- +goose Down
DROP SCHEMA IF EXISTS sentence_proxy CASCADE;
DROP SCHEMA plproxy CASCADE;
DROP TABLE sentence_partitions;
DROP FUNCTION sentence_partitions_changed();
DROP TABLE sentence_partition_settings;
