-- A sentence row carried the hashes of its content words (words bigint[]),
-- written for every indexed sentence and read by nothing: a sentence is
-- found by its exact hash and its simhash's block values, and a near match
-- is confirmed by the two sentences' character 5-grams, cut from the
-- articles' text (service/sentences.go); no view reads the column. It was
-- most of the row: on real news 103 of a sentence row's 180 bytes of data
-- (10.4 words a sentence), for about 31 sentence rows an article, every
-- one of them sent through COPY, written to the heap and to the WAL.
--
-- Dropping the column is a change of the catalog alone: PostgreSQL does not
-- rewrite the table, rows stored before keep their bytes until they are
-- rewritten, and rows written after are without them.
--
-- Down adds the column back, empty for every row: the words themselves are
-- gone, as nothing needed them.

-- +goose Up
ALTER TABLE sentences DROP COLUMN words;

-- +goose Down
ALTER TABLE sentences ADD COLUMN words bigint[] NOT NULL DEFAULT '{}';
COMMENT ON COLUMN sentences.words IS '64-bit hashes of its content words.';
