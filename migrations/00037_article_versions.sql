-- Versions (issue 47): an article sent again under its key with a new
-- headline or text keeps what it said before, one row a version, written
-- by a trigger whatever path stores the new content (a correction, another
-- story), so that GET /v1/articles/{id}/versions can say what changed and
-- when. A new fingerprint of the same text (an upgrade) keeps none.
--
-- +goose Up
CREATE TABLE article_versions (
    article_id    bigint NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    version       integer NOT NULL CHECK (version >= 1),
    title         text NOT NULL,
    url           text NOT NULL,
    body          text NOT NULL,
    content_type  text NOT NULL,
    content_hash  bytea NOT NULL,
    published_at  timestamptz NOT NULL,
    stored_at     timestamptz NOT NULL,
    superseded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (article_id, version)
);
ALTER TABLE article_versions ALTER COLUMN body SET COMPRESSION lz4;
COMMENT ON TABLE article_versions IS 'The earlier contents of articles sent again under their key with a new headline or text: version 1 is the first, the article row the latest; stored_at is when a version was stored, superseded_at when the next one replaced it.';

-- +goose StatementBegin
CREATE FUNCTION keep_article_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.body IS DISTINCT FROM NEW.body OR OLD.title IS DISTINCT FROM NEW.title THEN
        INSERT INTO article_versions (article_id, version, title, url, body, content_type, content_hash, published_at, stored_at)
        SELECT OLD.id, coalesce(max(v.version), 0) + 1, OLD.title, OLD.url, OLD.body, OLD.content_type, OLD.content_hash,
               OLD.published_at, coalesce(max(v.superseded_at), OLD.ingested_at)
        FROM article_versions v WHERE v.article_id = OLD.id;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER articles_keep_version AFTER UPDATE OF body, title ON articles
    FOR EACH ROW EXECUTE FUNCTION keep_article_version();

-- +goose Down
DROP TRIGGER articles_keep_version ON articles;
DROP FUNCTION keep_article_version();
DROP TABLE article_versions;
