-- The sentence index: every indexed sentence of every article (sentences of
-- at least 10 characters, service/fingerprint/sentences.go), with the same
-- eight masked block columns as articles (one B-tree each, a match needed
-- in both families), an exact hash of its normalised text and its content
-- words. Written in the same transaction as its article, removed with it.
-- It finds the sentences articles share: partial copies (the new verdict
-- partial_duplicate) and different views of one topic
-- (GET /v1/articles/{id}/shared-sentences, the shared_sentences view).

-- +goose Up
CREATE TABLE sentences (
    article_id  bigint   NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    position    integer  NOT NULL,
    start_char  integer  NOT NULL,
    end_char    integer  NOT NULL,
    runes       integer  NOT NULL,
    text_hash   bigint   NOT NULL,
    simhash     bigint,
    a0          smallint,
    a1          smallint,
    a2          smallint,
    a3          smallint,
    b0          smallint,
    b1          smallint,
    b2          smallint,
    b3          smallint,
    words       bigint[] NOT NULL,
    PRIMARY KEY (article_id, position),
    CONSTRAINT sentences_span_check CHECK (0 <= start_char AND start_char < end_char),
    CONSTRAINT sentences_simhash_check CHECK ((simhash IS NULL) = (a0 IS NULL))
);

-- Exact matches, and how many articles hold a sentence (boilerplate).
CREATE INDEX sentences_text_hash_idx ON sentences (text_hash);
-- One B-tree per block column, as for articles; a sentence without a
-- simhash (too few content words) is found by its exact hash alone.
CREATE INDEX sentences_a0_idx ON sentences (a0) WHERE a0 IS NOT NULL;
CREATE INDEX sentences_a1_idx ON sentences (a1) WHERE a1 IS NOT NULL;
CREATE INDEX sentences_a2_idx ON sentences (a2) WHERE a2 IS NOT NULL;
CREATE INDEX sentences_a3_idx ON sentences (a3) WHERE a3 IS NOT NULL;
CREATE INDEX sentences_b0_idx ON sentences (b0) WHERE b0 IS NOT NULL;
CREATE INDEX sentences_b1_idx ON sentences (b1) WHERE b1 IS NOT NULL;
CREATE INDEX sentences_b2_idx ON sentences (b2) WHERE b2 IS NOT NULL;
CREATE INDEX sentences_b3_idx ON sentences (b3) WHERE b3 IS NOT NULL;

COMMENT ON TABLE sentences IS 'Every indexed sentence (10 characters or more) of every article, fingerprinted and indexed like articles: the sentences articles share.';
COMMENT ON COLUMN sentences.position IS 'The sentence''s place among its article''s indexed sentences, from 0.';
COMMENT ON COLUMN sentences.start_char IS 'Where the sentence starts in its article''s text (body, or plain_body for HTML), in characters from 0; end_char is where it ends: substring(body FROM start_char + 1 FOR end_char - start_char).';
COMMENT ON COLUMN sentences.runes IS 'The length of its normalised text without spaces: its weight when coverage is counted.';
COMMENT ON COLUMN sentences.text_hash IS 'xxhash64 of the normalised text without spaces: equal hashes are the same sentence.';
COMMENT ON COLUMN sentences.simhash IS 'The 64-bit simhash of its content words; NULL when it has fewer than four.';
COMMENT ON COLUMN sentences.words IS '64-bit hashes of its content words.';

ALTER TABLE articles ADD COLUMN sentence_runes integer NOT NULL DEFAULT 0;
ALTER TABLE articles ADD COLUMN plain_body text;
ALTER TABLE articles ADD COLUMN coverage_this real CHECK (coverage_this BETWEEN 0 AND 1);
ALTER TABLE articles ADD COLUMN coverage_that real CHECK (coverage_that BETWEEN 0 AND 1);
ALTER TABLE articles DROP CONSTRAINT articles_status_check;
ALTER TABLE articles ADD CONSTRAINT articles_status_check
    CHECK (status IN ('unique', 'near_duplicate', 'exact_duplicate', 'partial_duplicate'));
COMMENT ON COLUMN articles.plain_body IS 'For an HTML article, the text a reader sees (what its sentences point into); NULL when body is plain text.';
COMMENT ON COLUMN articles.sentence_runes IS 'The length of its indexed sentences together: what coverage is a share of.';
COMMENT ON COLUMN articles.coverage_this IS 'For a partial duplicate: the share of this article''s indexed sentences (by length) found in duplicate_of.';
COMMENT ON COLUMN articles.coverage_that IS 'For a partial duplicate: the share of duplicate_of''s indexed sentences (by length) found in this article.';
COMMENT ON COLUMN articles.status IS 'unique, near_duplicate, exact_duplicate or partial_duplicate: the verdict on this article against the article it links to (unique: it links to none, and heads its cluster).';

-- Article pairs that share sentences without being duplicates: different
-- views of one topic, quotes of one statement. Exact sentences only (the
-- API's shared-sentences route finds near-identical ones too), and not the
-- sentences found in 20 articles or more: portals' disclaimers, app
-- promotions, broadcast formulas.
CREATE VIEW shared_sentence_pairs AS
WITH shared AS (
    SELECT a.article_id AS article_id, b.article_id AS other_id,
           count(*) AS sentences, sum(a.runes) AS runes
    FROM sentences a
    JOIN sentences b ON b.text_hash = a.text_hash AND b.article_id > a.article_id
    WHERE a.text_hash IN (
        SELECT text_hash FROM sentences GROUP BY text_hash HAVING count(DISTINCT article_id) BETWEEN 2 AND 19)
    GROUP BY 1, 2
)
SELECT
    x.id              AS article_id,
    x.source          AS article_source,
    x.title           AS article_title,
    x.published_at    AS article_published_at,
    y.id              AS other_id,
    y.source          AS other_source,
    y.title           AS other_title,
    y.published_at    AS other_published_at,
    s.sentences       AS shared_sentences,
    round((s.runes::numeric / nullif(x.sentence_runes, 0)), 4) AS article_coverage,
    round((s.runes::numeric / nullif(y.sentence_runes, 0)), 4) AS other_coverage
FROM shared s
JOIN articles x ON x.id = s.article_id
JOIN articles y ON y.id = s.other_id
WHERE x.cluster_id <> y.cluster_id;

COMMENT ON VIEW shared_sentence_pairs IS
    'Pairs of articles in different clusters that share exact sentences (not boilerplate: sentences in 20 articles or more are left out): different views of one topic, or the same quote.';
COMMENT ON COLUMN shared_sentence_pairs.article_coverage IS 'The share of article_id''s indexed sentences (by length) found in other_id.';
COMMENT ON COLUMN shared_sentence_pairs.other_coverage IS 'The share of other_id''s indexed sentences (by length) found in article_id.';

-- +goose Down
-- Partial duplicates keep their links and become near duplicates: the
-- schema before this migration knows no other status for a link.
DROP VIEW shared_sentence_pairs;
UPDATE articles SET status = 'near_duplicate' WHERE status = 'partial_duplicate';
ALTER TABLE articles DROP CONSTRAINT articles_status_check;
ALTER TABLE articles ADD CONSTRAINT articles_status_check
    CHECK (status IN ('unique', 'near_duplicate', 'exact_duplicate'));
ALTER TABLE articles DROP COLUMN coverage_that;
ALTER TABLE articles DROP COLUMN coverage_this;
ALTER TABLE articles DROP COLUMN plain_body;
ALTER TABLE articles DROP COLUMN sentence_runes;
COMMENT ON COLUMN articles.status IS 'unique, near_duplicate or exact_duplicate: the verdict on this article against the article it links to (unique: it links to none, and heads its cluster).';
DROP TABLE sentences;
