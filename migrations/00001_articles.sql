-- The articles table: every stored article with its fingerprint, the eight
-- block columns that index the fingerprint, and its place in a cluster.

-- +goose Up
CREATE TABLE articles (
    id                  bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source              text        NOT NULL DEFAULT '',
    external_id         text        NOT NULL,
    title               text        NOT NULL DEFAULT '',
    url                 text        NOT NULL DEFAULT '',
    body                text        NOT NULL,
    content_type        text        NOT NULL DEFAULT 'text',
    published_at        timestamptz NOT NULL,
    ingested_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    content_hash        bytea       NOT NULL,
    simhash             bigint      NOT NULL,
    fingerprint_version smallint    NOT NULL,
    a0                  smallint    NOT NULL,
    a1                  smallint    NOT NULL,
    a2                  smallint    NOT NULL,
    a3                  smallint    NOT NULL,
    b0                  smallint    NOT NULL,
    b1                  smallint    NOT NULL,
    b2                  smallint    NOT NULL,
    b3                  smallint    NOT NULL,
    words               bigint[]    NOT NULL,
    status              text        NOT NULL,
    duplicate_of        bigint      REFERENCES articles (id),
    cluster_id          bigint      GENERATED ALWAYS AS (coalesce(duplicate_of, id)) STORED,
    distance            smallint,
    word_ratio          real,
    CONSTRAINT articles_source_external_id_key UNIQUE (source, external_id),
    CONSTRAINT articles_external_id_check CHECK (char_length(external_id) BETWEEN 1 AND 256),
    CONSTRAINT articles_content_type_check CHECK (content_type IN ('text', 'html')),
    CONSTRAINT articles_content_hash_check CHECK (octet_length(content_hash) = 32),
    CONSTRAINT articles_status_check CHECK (status IN ('unique', 'near_duplicate', 'exact_duplicate')),
    CONSTRAINT articles_duplicate_check CHECK (
        CASE status
            WHEN 'unique' THEN duplicate_of IS NULL AND distance IS NULL AND word_ratio IS NULL
            ELSE duplicate_of IS NOT NULL AND distance BETWEEN 0 AND 64 AND word_ratio BETWEEN 0 AND 1
        END)
);

-- One B-tree per block column: the candidate query ORs four of them per
-- family and ANDs the two families (a BitmapAnd of two BitmapOrs).
CREATE INDEX articles_a0_idx ON articles (a0);
CREATE INDEX articles_a1_idx ON articles (a1);
CREATE INDEX articles_a2_idx ON articles (a2);
CREATE INDEX articles_a3_idx ON articles (a3);
CREATE INDEX articles_b0_idx ON articles (b0);
CREATE INDEX articles_b1_idx ON articles (b1);
CREATE INDEX articles_b2_idx ON articles (b2);
CREATE INDEX articles_b3_idx ON articles (b3);

-- Exact duplicates are found by the hash of the normalised text.
CREATE INDEX articles_content_hash_idx ON articles (content_hash);

-- The members of a cluster point at its canonical article; this index finds
-- them, and keeps the foreign key cheap when a canonical article is deleted.
CREATE INDEX articles_duplicate_of_idx ON articles (duplicate_of) WHERE duplicate_of IS NOT NULL;

COMMENT ON TABLE articles IS 'Every stored article, its 64-bit simhash fingerprint and its place in a cluster of duplicates.';
COMMENT ON COLUMN articles.source IS 'The CMS or feed the article came from; with external_id, the client''s key.';
COMMENT ON COLUMN articles.external_id IS 'The client''s id of the article, unique within source.';
COMMENT ON COLUMN articles.published_at IS 'When the article was published, as the client said (default: when it was ingested).';
COMMENT ON COLUMN articles.ingested_at IS 'When the current content of the article was stored; the earliest ingested member of a cluster is its canonical article.';
COMMENT ON COLUMN articles.content_hash IS 'SHA-256 of the normalised title and body: equal hashes are exact duplicates.';
COMMENT ON COLUMN articles.simhash IS 'The 64-bit simhash fingerprint, as a signed bigint (the same 64 bits). Show it with lpad(to_hex(simhash), 16, ''0'').';
COMMENT ON COLUMN articles.fingerprint_version IS 'The algorithm that made simhash: 1 = yanyiwu/simhash-compatible, 2 = newsdedup default. Fingerprints of different versions are never compared.';
COMMENT ON COLUMN articles.a0 IS 'Block columns a0..a3 and b0..b3: the 16 bits of simhash under each of the eight masks (service/fingerprint/masks.go), packed into a smallint.';
COMMENT ON COLUMN articles.words IS 'The word set: 64-bit hashes of the counted words, for the shared-word ratio.';
COMMENT ON COLUMN articles.status IS 'unique, near_duplicate or exact_duplicate: the verdict when the article was stored (unique also for the article that took over a cluster whose canonical article was deleted).';
COMMENT ON COLUMN articles.duplicate_of IS 'The canonical (earliest ingested) article of the cluster; NULL for a canonical article.';
COMMENT ON COLUMN articles.cluster_id IS 'The id of the cluster''s canonical article; an article alone is its own cluster.';
COMMENT ON COLUMN articles.distance IS 'Hamming distance between this article''s simhash and its canonical article''s.';
COMMENT ON COLUMN articles.word_ratio IS 'Shared-word ratio with the canonical article: |A ∩ B| / min(|A|, |B|).';

-- +goose Down
DROP TABLE articles;
