-- The shared-text verifier of fingerprint version 3 (VersionNews): every
-- article keeps a sample of the character 5-grams of its normalised body
-- (service/fingerprint/shingles.go), and a near duplicate must share at
-- least min_overlap of them with the article it links to. Rows stored
-- before have none: they are of fingerprint version 1 or 2, which version 3
-- is never compared with, until `dedupd refingerprint` fingerprints them
-- again.

-- +goose Up
ALTER TABLE articles ADD COLUMN shingles int4[] NOT NULL DEFAULT '{}';
ALTER TABLE articles ADD COLUMN overlap real CHECK (overlap BETWEEN 0 AND 1);
COMMENT ON COLUMN articles.shingles IS 'Sampled character 5-grams of the normalised body (the high 32 bits of their xxhash64, 1 in 4 kept by hash), sorted: |A ∩ B| / min(|A|, |B|) estimates how much text two articles share.';
COMMENT ON COLUMN articles.overlap IS 'The share of text this article and duplicate_of share, estimated from their shingles: |A ∩ B| / min(|A|, |B|). NULL for the head of a cluster and for rows judged before fingerprint version 3.';
COMMENT ON COLUMN articles.fingerprint_version IS 'The algorithm that made simhash: 1 = yanyiwu/simhash-compatible, 2 = newsdedup until real news (title counted, weights cubed), 3 = newsdedup default (body only). Fingerprints of different versions are never compared.';

-- +goose Down
ALTER TABLE articles DROP COLUMN overlap;
ALTER TABLE articles DROP COLUMN shingles;
COMMENT ON COLUMN articles.fingerprint_version IS 'The algorithm that made simhash: 1 = yanyiwu/simhash-compatible, 2 = newsdedup default. Fingerprints of different versions are never compared.';
