-- A sentence row carried the hashes of its content words (words bigint[]),
-- written for every indexed sentence and read by nothing: a sentence is
-- found by its exact hash and its simhash's block values, and a near match
-- is confirmed by the two sentences' character 5-grams, cut from the
-- articles' text (service/sentences.go); no view reads the column. It was
-- most of the row: on real news 103 of a sentence row's 180 bytes of data
-- (10.4 words a sentence), for about 31 sentence rows an article, every
-- one of them sent through COPY, written to the heap and to the WAL.
--
-- The service no longer writes it, and a NULL takes no room in the row. The
-- column stays, nullable, rather than going: migrations only add, so that
-- the binary before this one keeps working on the new schema while a new
-- one is deployed (README, Upgrading); it still writes the words of the
-- sentences it stores. A later migration can drop the column once no such
-- binary runs. Making it nullable changes the catalog alone: PostgreSQL
-- neither rewrites nor scans the table.
--
-- Down gives the rows written without words an empty array, as NOT NULL
-- asks: the words themselves were never stored.

-- +goose Up
ALTER TABLE sentences ALTER COLUMN words DROP NOT NULL;
COMMENT ON COLUMN sentences.words IS 'Unused: NULL for the sentences stored since migration 00014, which stopped writing it; older rows hold the 64-bit hashes of their content words, which nothing reads.';

-- +goose Down
UPDATE sentences SET words = '{}' WHERE words IS NULL;
ALTER TABLE sentences ALTER COLUMN words SET NOT NULL;
COMMENT ON COLUMN sentences.words IS '64-bit hashes of its content words.';
