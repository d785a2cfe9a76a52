package repo

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

var _ service.SearchStore = queries{}

// SearchArticles returns the articles terms names by id, key, external id
// or URL, then at most limit whose headline holds its words, newest first.
// Each way is an index probe of migration 00021 (or of the key's unique
// index), all in one statement. Words are looked up in article_search:
// every key of the query in the headline's keys, then each of its words in
// the headline itself (two keys side by side in the query need not be side
// by side in the headline), by the keys' GIN index or, for a common word,
// newest first by the time index, as the planner finds cheaper.
func (q queries) SearchArticles(ctx context.Context, t service.SearchTerms, limit int) ([]service.SearchHit, error) {
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	var parts []string
	part := func(match service.SearchMatch, rank int, where string) {
		parts = append(parts, "SELECT id, '"+string(match)+"' AS match, "+strconv.Itoa(rank)+" AS rank FROM articles WHERE "+where)
	}
	if t.ID != 0 {
		part(service.MatchID, 1, "id = "+arg(t.ID))
	}
	if t.Key != nil {
		part(service.MatchKey, 2, "source = "+arg(t.Key.Source)+" AND external_id = "+arg(t.Key.ExternalID))
	}
	if t.ExternalID != "" {
		part(service.MatchExternalID, 3, "external_id = "+arg(t.ExternalID))
	}
	if t.URL != "" {
		part(service.MatchURL, 4, "search_url(url) = search_url("+arg(t.URL)+")")
	}
	if t.Words {
		text := arg(t.Text)
		parts = append(parts, `(SELECT article_id AS id, 'words' AS match, 5 AS rank FROM article_search
			WHERE keys @> search_keys(`+text+`)
			  AND NOT EXISTS (SELECT 1 FROM unnest(search_terms(`+text+`)) w WHERE strpos(title_text, w) = 0)
			ORDER BY published_at DESC, article_id DESC
			LIMIT `+arg(limit)+`)`)
	}
	if len(parts) == 0 {
		return nil, nil
	}
	rows, err := q.db.Query(ctx, `
		SELECT a.id, a.external_id, a.source, a.title, a.url, a.published_at, a.ingested_at, a.status,
		       coalesce(a.duplicate_of, 0), a.cluster_id, p.match, coalesce(l.size, 1)
		FROM (SELECT DISTINCT ON (id) id, match, rank FROM (`+strings.Join(parts, "\n\t\tUNION ALL ")+`) x ORDER BY id, rank) p
		JOIN articles a ON a.id = p.id
		LEFT JOIN cluster_listing l ON l.cluster_id = a.cluster_id
		ORDER BY p.rank, a.published_at DESC, a.id DESC`, args...)
	if err != nil {
		return nil, interpretError(err, "search articles")
	}
	hits, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.SearchHit, error) {
		var h service.SearchHit
		var status, match string
		err := row.Scan(&h.ID, &h.ExternalID, &h.Source, &h.Title, &h.URL, &h.PublishedAt, &h.IngestedAt, &status,
			&h.DuplicateOf, &h.ClusterID, &match, &h.ClusterSize)
		h.Status, h.Match = service.Status(status), service.SearchMatch(match)
		return h, err
	})
	return hits, interpretError(err, "search articles")
}

// Sources returns the sources that begin with prefix, compared without
// case, sorted; at most limit. It walks the key's unique index from one
// source to the next (a loose index scan), reading one entry a source
// however many articles each has.
func (q queries) Sources(ctx context.Context, prefix string, limit int) ([]string, error) {
	rows, err := q.db.Query(ctx, `
		WITH RECURSIVE s(source) AS (
			(SELECT source FROM articles ORDER BY source LIMIT 1)
			UNION ALL
			SELECT (SELECT a.source FROM articles a WHERE a.source > s.source ORDER BY a.source LIMIT 1)
			FROM s WHERE s.source IS NOT NULL
		)
		SELECT source FROM s
		WHERE source IS NOT NULL AND lower(left(source, char_length($1))) = lower($1)
		ORDER BY source
		LIMIT $2`, prefix, limit)
	if err != nil {
		return nil, interpretError(err, "list sources")
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return out, interpretError(err, "list sources")
}
