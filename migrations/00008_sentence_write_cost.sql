-- The sentence index costs what its B-trees cost to keep: every stored
-- sentence adds an entry to each, about 17 sentences an article. Two of its
-- ten B-trees are not needed as B-trees:
-- - the primary key (article_id, position) only finds an article's
--   sentences, which are written together and lie together in the table:
--   a BRIN index on article_id finds them as well, at almost no cost per
--   row;
-- - a sentence with a simhash is found at distance 0 by its block values
--   when another has the same text, so only the sentences without one
--   (fewer than four content words) need their exact hash indexed.
-- The sentence query looks up the exact hash of a sentence without a
-- simhash, and the block values of one with.

-- +goose Up
ALTER TABLE sentences DROP CONSTRAINT sentences_pkey;
CREATE INDEX sentences_article_id_idx ON sentences USING brin (article_id) WITH (pages_per_range = 16);
DROP INDEX sentences_text_hash_idx;
CREATE INDEX sentences_text_hash_idx ON sentences (text_hash) WHERE simhash IS NULL;

-- +goose Down
DROP INDEX sentences_text_hash_idx;
CREATE INDEX sentences_text_hash_idx ON sentences (text_hash);
DROP INDEX sentences_article_id_idx;
ALTER TABLE sentences ADD PRIMARY KEY (article_id, position);
