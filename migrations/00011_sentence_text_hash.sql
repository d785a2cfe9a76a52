-- Two sentences with the same text (the same text_hash: their normalised
-- text without spaces) need not have the same simhash: the hash leaves out
-- the spaces that punctuation becomes, the segmenter does not, so
-- "文字、图片" and "文字图片" are one sentence to the hash and two word
-- lists to the simhash, often more than 3 bits apart; and a sentence's
-- copy can fall under four content words, and lose its simhash, where the
-- original has one. Migration 00008 indexed the exact hash of the
-- sentences without a simhash only, assuming the block indexes find the
-- others' copies at distance 0: they missed such copies, and with them the
-- count that tells boilerplate (a sentence held by 20 articles). The exact
-- hash is indexed for every sentence again, so that the sentence query
-- finds every stored sentence with the same text.

-- +goose Up
DROP INDEX sentences_text_hash_idx;
CREATE INDEX sentences_text_hash_idx ON sentences (text_hash);

-- +goose Down
DROP INDEX sentences_text_hash_idx;
CREATE INDEX sentences_text_hash_idx ON sentences (text_hash) WHERE simhash IS NULL;
