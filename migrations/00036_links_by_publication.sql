-- Links by publication (issue 47): a copy links to the earliest published
-- article that holds its text, and an article published before copies
-- stored earlier heads their cluster (service/rules_lineage.go). Only what
-- the columns and views mean changes; docs/reporting.md, "Who copied whom".
--
-- +goose Up
COMMENT ON COLUMN articles.duplicate_of IS 'The article this one links to: of the articles it was compared with and matched (exactly, or within distance and ratio), the earliest published (a publication time more than 10 minutes after arrival counts as the arrival), whatever arrived first. NULL for an article that matched none, or was published before what it matched, which heads its cluster; a partial duplicate sharing little with the original of its link''s cluster links to it and heads a cluster of its own (cluster_head NULL).';
COMMENT ON COLUMN articles.cluster_head IS 'The id of the cluster''s head, NULL for the head itself (which may link to an article of another cluster: a partial duplicate that would drift from that cluster''s story). The head is the earliest ingested member, unless a member published before it arrived later: that one heads the cluster and the copies it holds link to it.';
COMMENT ON COLUMN articles.cluster_id IS 'The cluster: the id of its head, which every chain of duplicate_of links within it leads to. An article alone is its own cluster.';
COMMENT ON VIEW duplicate_pairs IS 'One row per duplicate article with the article it links to: the earliest published article that holds its text, whatever arrived first — who copied whom, how closely, and how long after.';
COMMENT ON COLUMN clusters.cluster_id IS 'The id of the cluster''s head: its earliest published member that the others copy, or its earliest ingested.';

-- +goose Down
COMMENT ON COLUMN clusters.cluster_id IS 'The id of the cluster''s head: its earliest ingested member.';
COMMENT ON VIEW duplicate_pairs IS 'One row per duplicate article with the earlier article it was compared with and matched (its link): who copied whom, how closely, and how long after.';
COMMENT ON COLUMN articles.duplicate_of IS 'The article this one links to: an article ingested before it that it was compared with and matched (exactly, or within distance and ratio). NULL for an article that matched none, which heads its cluster; a partial duplicate sharing little with the original of its link''s cluster links to it and heads a cluster of its own (cluster_head NULL).';
COMMENT ON COLUMN articles.cluster_head IS 'The id of the cluster''s head (its earliest ingested member), NULL for the head itself (which may link to an article of another cluster: a partial duplicate that would drift from that cluster''s story); cluster_id is the same, the head''s own id included.';
COMMENT ON COLUMN articles.cluster_id IS 'The cluster: the id of its head, the earliest ingested member, which every chain of duplicate_of links within it leads to. An article alone is its own cluster.';
