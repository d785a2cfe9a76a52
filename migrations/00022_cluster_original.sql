-- cluster_original (issue 36): each cluster's original (首发), the member
-- the others derive from: the earliest published, then the lowest id; a
-- partial duplicate that holds the article it links to plus much more (a
-- digest, a compilation, an expansion: at least 0.8 of the other found in
-- it, less than 0.8 of it in the other) is not, unless every member is one.
-- service/original.go names the same member; a test in repo holds the two
-- to each other.

-- +goose Up
-- +goose StatementBegin
CREATE VIEW cluster_original AS
SELECT DISTINCT ON (a.cluster_id)
    a.cluster_id,
    a.id           AS original_id,
    a.source       AS original_source,
    a.external_id  AS original_external_id,
    a.title        AS original_title,
    a.published_at AS original_published_at,
    l.size - 1     AS copies
FROM articles a
JOIN cluster_listing l ON l.cluster_id = a.cluster_id
ORDER BY a.cluster_id,
         coalesce(a.status = 'partial_duplicate' AND a.coverage_that >= 0.8::real AND a.coverage_this < 0.8::real, false),
         a.published_at,
         a.id;
-- +goose StatementEnd
COMMENT ON VIEW cluster_original IS 'One row per cluster of two or more articles: its original (首发), the earliest published member that is not a digest or compilation of the others, and how many copies (other members) it has, as GET /v1/clusters/{id} says.';

-- +goose Down
DROP VIEW cluster_original;
