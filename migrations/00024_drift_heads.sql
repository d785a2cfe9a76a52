-- Clusters that stay one story (issue 36): a partial duplicate sharing less
-- than 30 % of its sampled 5-grams with the original of the cluster it
-- would join keeps its link (duplicate_of, status, coverage) but heads a
-- cluster of its own (service/rules_drift.go). So a head may link to an
-- article; a member that is not a head still always does, and its cluster
-- is the one its link is in. docs/reporting.md, "How clusters form".
--
-- +goose Up
ALTER TABLE articles DROP CONSTRAINT articles_cluster_check,
    ADD CONSTRAINT articles_cluster_check CHECK (cluster_head IS NULL OR duplicate_of IS NOT NULL);
COMMENT ON COLUMN articles.duplicate_of IS 'The article this one links to: an article ingested before it that it was compared with and matched (exactly, or within distance and ratio). NULL for an article that matched none, which heads its cluster; a partial duplicate sharing little with the original of its link''s cluster links to it and heads a cluster of its own (cluster_head NULL).';
COMMENT ON COLUMN articles.cluster_head IS 'The id of the cluster''s head (its earliest ingested member), NULL for the head itself (which may link to an article of another cluster: a partial duplicate that would drift from that cluster''s story); cluster_id is the same, the head''s own id included.';
COMMENT ON COLUMN articles.cluster_id IS 'The cluster: the id of its head, the earliest ingested member, which every chain of duplicate_of links within it leads to. An article alone is its own cluster.';

-- +goose Down
-- Before 00024 every linked article was in its link's cluster: each head
-- that links to an article goes back, with its cluster, into its link's
-- cluster, the deepest first (a cluster moved may land in another such).
-- +goose StatementBegin
DO $$
BEGIN
    LOOP
        UPDATE articles m SET cluster_head = l.cluster_id
        FROM articles h JOIN articles l ON l.id = h.duplicate_of
        WHERE h.cluster_head IS NULL AND h.duplicate_of IS NOT NULL
          AND (m.id = h.id OR m.cluster_head = h.id);
        EXIT WHEN NOT FOUND;
    END LOOP;
END
$$;
-- +goose StatementEnd
ALTER TABLE articles DROP CONSTRAINT articles_cluster_check,
    ADD CONSTRAINT articles_cluster_check CHECK ((duplicate_of IS NULL) = (cluster_head IS NULL));
COMMENT ON COLUMN articles.duplicate_of IS 'The article this one links to: an article ingested before it that it was compared with and matched (exactly, or within distance and ratio). NULL for the head of a cluster.';
COMMENT ON COLUMN articles.cluster_head IS 'The id of the cluster''s head (its earliest ingested member), NULL for the head itself; cluster_id is the same, the head''s own id included.';
COMMENT ON COLUMN articles.cluster_id IS 'The cluster: the id of its head, the earliest ingested member, which every chain of duplicate_of links leads to. An article alone is its own cluster.';
