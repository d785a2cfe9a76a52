-- Fingerprint version 4 (VersionOneScript) matches in one script:
-- Traditional Chinese, with Taiwan and Hong Kong phrasing, folded to
-- Simplified, invisible and spacing characters dropped, before words,
-- shingles and sentences are taken. The stored text is unchanged. Rows of
-- version 3 keep their fingerprints until `dedupd refingerprint` makes them
-- again; the two versions are never compared.

-- +goose Up
COMMENT ON COLUMN articles.fingerprint_version IS 'The algorithm that made simhash: 1 = yanyiwu/simhash-compatible, 2 = newsdedup until real news (title counted, weights cubed), 3 = newsdedup on real news (body only), 4 = newsdedup default (3 matching one script: Traditional folded to Simplified, invisible characters dropped). Fingerprints of different versions are never compared.';

-- +goose Down
COMMENT ON COLUMN articles.fingerprint_version IS 'The algorithm that made simhash: 1 = yanyiwu/simhash-compatible, 2 = newsdedup until real news (title counted, weights cubed), 3 = newsdedup default (body only). Fingerprints of different versions are never compared.';
