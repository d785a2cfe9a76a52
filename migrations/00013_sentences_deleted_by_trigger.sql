-- A sentence row belongs to its article: it is written in the article's
-- transaction and must go when the article goes. A foreign key said both,
-- and charged for the first on every write: PostgreSQL checks each new
-- sentence row's article with a query of its own and queues an event per
-- row to do it — about 31 rows an article. Inserting 620,000 rows shaped
-- like sentences took 5.1–5.4 s with the key and 1.5–1.7 s without (three
-- runs each, this project's 2-core machine): about 5.6 µs a row, 0.17 ms of
-- the server's CPU an article, 3–4 % of an ingest with the sentence index
-- (perf put the key's checks at about 4 %; end to end, batch ingest moved
-- within this machine's noise). The check can refuse nothing the service
-- writes: sentence rows are written only by the transaction that inserts
-- their article, or that has just updated it (Replace, Refingerprint: the
-- UPDATE comes first and holds the row, so a DELETE of the article waits
-- for that transaction and sees its rows).
--
-- What matters is the cascade, and a statement-level trigger keeps it at no
-- cost on insert: every DELETE of articles, however it is made, deletes
-- their sentences, with one statement over the rows it deleted (a
-- transition table), in the same transaction. The function is VOLATILE, so
-- under READ COMMITTED its DELETE sees the sentences of every transaction
-- that committed before it ran. A TRUNCATE of articles (with CASCADE, or
-- with the tables that still reference it) empties sentences too, as the
-- key's cascade did.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION delete_sentences_of_deleted_articles() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    DELETE FROM sentences s USING deleted_articles d WHERE s.article_id = d.id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION truncate_sentences_of_articles() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    TRUNCATE sentences;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER articles_delete_sentences
    AFTER DELETE ON articles
    REFERENCING OLD TABLE AS deleted_articles
    FOR EACH STATEMENT EXECUTE FUNCTION delete_sentences_of_deleted_articles();
CREATE TRIGGER articles_truncate_sentences
    AFTER TRUNCATE ON articles
    FOR EACH STATEMENT EXECUTE FUNCTION truncate_sentences_of_articles();
ALTER TABLE sentences DROP CONSTRAINT sentences_article_id_fkey;
COMMENT ON COLUMN sentences.article_id IS 'The article the sentence belongs to. No foreign key: the trigger articles_delete_sentences deletes an article''s sentences with it (migration 00013).';

-- +goose Down
DELETE FROM sentences s WHERE NOT EXISTS (SELECT 1 FROM articles a WHERE a.id = s.article_id);
ALTER TABLE sentences ADD CONSTRAINT sentences_article_id_fkey
    FOREIGN KEY (article_id) REFERENCES articles (id) ON DELETE CASCADE;
COMMENT ON COLUMN sentences.article_id IS NULL;
DROP TRIGGER articles_truncate_sentences ON articles;
DROP TRIGGER articles_delete_sentences ON articles;
DROP FUNCTION truncate_sentences_of_articles();
DROP FUNCTION delete_sentences_of_deleted_articles();
