-- Two comments no longer say what the service does.
--
-- A partial duplicate's coverage is now measured two ways, by sentences and
-- by text (service/partial.go): an excerpt that glues sentences together or
-- cuts a clause as it copies keeps few whole sentences and most of its
-- text. The columns keep their meaning for an analyst — the share of one
-- article found in the other — and say how it is counted. Only comments
-- change; rows stored before keep the sentence share they were judged by.
--
-- A sentence under 20 characters no longer gets a simhash
-- (service/fingerprint/sentences.go): it is found by its exact hash alone.
-- Sentences stored before keep theirs.

-- +goose Up
COMMENT ON COLUMN articles.coverage_this IS 'For a partial duplicate: the share of this article found in duplicate_of, the larger of two measures: its indexed sentences (by length) found there, and its text (sampled character 5-grams, boilerplate sentences left out) found there.';
COMMENT ON COLUMN articles.coverage_that IS 'For a partial duplicate: the share of duplicate_of found in this article, the larger of two measures: its indexed sentences (by length) found here, and its text (sampled character 5-grams, boilerplate sentences left out) found here.';
COMMENT ON COLUMN duplicate_pairs.coverage_this IS 'For a partial duplicate: the share of this article found in the original (the larger of its sentences, by length, and its text found there). NULL otherwise.';
COMMENT ON COLUMN duplicate_pairs.coverage_that IS 'For a partial duplicate: the share of the original found in this article (the larger of its sentences, by length, and its text found here). NULL otherwise.';
COMMENT ON COLUMN sentences.simhash IS 'The 64-bit simhash of its content words; NULL when it has fewer than four, or is under 20 characters (the 20-character floor since migration 00012; rows stored before may have one from 10 characters).';

-- +goose Down
COMMENT ON COLUMN sentences.simhash IS 'The 64-bit simhash of its content words; NULL when it has fewer than four.';
COMMENT ON COLUMN duplicate_pairs.coverage_that IS 'For a partial duplicate: the share of the original''s indexed sentences (by length) found in this article. NULL otherwise.';
COMMENT ON COLUMN duplicate_pairs.coverage_this IS 'For a partial duplicate: the share of this article''s indexed sentences (by length) found in the original. NULL otherwise.';
COMMENT ON COLUMN articles.coverage_that IS 'For a partial duplicate: the share of duplicate_of''s indexed sentences (by length) found in this article.';
COMMENT ON COLUMN articles.coverage_this IS 'For a partial duplicate: the share of this article''s indexed sentences (by length) found in duplicate_of.';
