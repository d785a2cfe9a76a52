-- The start of a long text, kept apart (issue 44): a cluster's page reads
-- each body's first service.MaxReadRunes (40,000) characters, but the
-- bodies are compressed with lz4 (migration 00015), and PostgreSQL fetches
-- every TOAST chunk of a compressed value to cut a slice of it — a 2 MB
-- member cost its page all of its chunks at each read. body_head and
-- plain_head hold the first 40,000 characters of a body (and of a plain
-- text) longer than that, set by a trigger wherever they are written; NULL
-- for the others, whose text is read as before. The rows stored before
-- this migration that are that long are filled here: finding them reads
-- each row's length from its header, not its text.

-- +goose Up
ALTER TABLE articles ADD COLUMN body_head text, ADD COLUMN plain_head text;
ALTER TABLE articles ALTER COLUMN body_head SET COMPRESSION lz4, ALTER COLUMN plain_head SET COMPRESSION lz4;
COMMENT ON COLUMN articles.body_head IS 'The first 40,000 characters of body when it is longer, NULL otherwise: what a cluster''s page reads of a long article (trigger articles_heads; migration 00047).';
COMMENT ON COLUMN articles.plain_head IS 'The first 40,000 characters of plain_body when it is longer, NULL otherwise (trigger articles_heads; migration 00047).';

-- +goose StatementBegin
CREATE FUNCTION articles_heads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.body_head := CASE WHEN octet_length(NEW.body) > 40000 AND char_length(NEW.body) > 40000
                          THEN substr(NEW.body, 1, 40000) END;
    NEW.plain_head := CASE WHEN octet_length(NEW.plain_body) > 40000 AND char_length(NEW.plain_body) > 40000
                           THEN substr(NEW.plain_body, 1, 40000) END;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER articles_heads BEFORE INSERT OR UPDATE OF body, plain_body ON articles
    FOR EACH ROW EXECUTE FUNCTION articles_heads();

UPDATE articles
SET body_head = CASE WHEN octet_length(body) > 40000 AND char_length(body) > 40000 THEN substr(body, 1, 40000) END,
    plain_head = CASE WHEN octet_length(plain_body) > 40000 AND char_length(plain_body) > 40000 THEN substr(plain_body, 1, 40000) END
WHERE octet_length(body) > 40000 OR octet_length(plain_body) > 40000;

-- +goose Down
DROP TRIGGER articles_heads ON articles;
DROP FUNCTION articles_heads();
ALTER TABLE articles DROP COLUMN body_head, DROP COLUMN plain_head;
