-- +goose Up
-- What the sweep of the sentence partitions reads instead of every id
-- (repo/sentence_partitions_sweep.go): the articles deleted since it last
-- ran, recorded by the delete's own transaction (so only deletes that
-- commit), and the time its last pass reached, from which the next reads
-- the partitions' rows written since. Deletes are recorded only while
-- there are partitions; a TRUNCATE of articles, whose ids no trigger
-- sees, forgets the time, which makes the next pass read every id.
CREATE TABLE sentence_partition_departed (
    article_id bigint NOT NULL,
    departed_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE sentence_partition_departed IS 'Articles deleted while the sentence index had partitions, whose partition rows the next sweep deletes (migration 00052).';

CREATE TABLE sentence_partition_sweep (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    swept_before timestamptz
);
COMMENT ON TABLE sentence_partition_sweep IS 'The sweep of the sentence partitions has looked at every row written before swept_before; NULL: the next pass reads every id (migration 00052).';
INSERT INTO sentence_partition_sweep DEFAULT VALUES;

-- +goose StatementBegin
CREATE FUNCTION record_departed_articles() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM sentence_partitions) THEN
        INSERT INTO sentence_partition_departed (article_id) SELECT id FROM departed_articles;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER articles_departed AFTER DELETE ON articles REFERENCING OLD TABLE AS departed_articles
    FOR EACH STATEMENT EXECUTE FUNCTION record_departed_articles();

-- +goose StatementBegin
CREATE FUNCTION sweep_everything_again() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE sentence_partition_sweep SET swept_before = NULL;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER articles_truncated_sweep AFTER TRUNCATE ON articles
    FOR EACH STATEMENT EXECUTE FUNCTION sweep_everything_again();

-- +goose Down
DROP TRIGGER articles_truncated_sweep ON articles;
DROP FUNCTION sweep_everything_again();
DROP TRIGGER articles_departed ON articles;
DROP FUNCTION record_departed_articles();
DROP TABLE sentence_partition_sweep;
DROP TABLE sentence_partition_departed;
