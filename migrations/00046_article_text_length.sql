-- A cluster's page that weighs no texts (issue 44): the page and GET
-- /v1/clusters/{id} gave each member's length in characters by counting
-- its body (article_text_length) at every read — the whole of a 2 MB
-- compilation decompressed and walked for one number. text_length keeps
-- that count, set by a trigger wherever a body is written (ingest,
-- correction, COPY). Rows stored before this migration keep it NULL and
-- are counted on read as before, until their body is written again; the
-- column is added without rewriting the table.

-- +goose Up
ALTER TABLE articles ADD COLUMN text_length integer;
COMMENT ON COLUMN articles.text_length IS 'Characters of the text as article_text_length counts them (an HTML body without markup), kept by the trigger articles_text_length; NULL for rows stored before migration 00046: count them on read.';

-- +goose StatementBegin
CREATE FUNCTION articles_text_length() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.text_length := article_text_length(NEW.content_type, NEW.body);
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER articles_text_length BEFORE INSERT OR UPDATE OF body, content_type ON articles
    FOR EACH ROW EXECUTE FUNCTION articles_text_length();

-- +goose Down
DROP TRIGGER articles_text_length ON articles;
DROP FUNCTION articles_text_length();
ALTER TABLE articles DROP COLUMN text_length;
