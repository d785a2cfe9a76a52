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

// sourcesSQL is Sources' statement ($1 the prefix, $2 the limit).
const sourcesSQL = `
		WITH RECURSIVE s(key, source) AS (
			(SELECT lower(source) COLLATE "C", source FROM articles
			 WHERE lower(source) COLLATE "C" >= lower($1) COLLATE "C"
			 ORDER BY lower(source) COLLATE "C", source LIMIT 1)
			UNION ALL
			SELECT n.key, n.source FROM s, LATERAL (
				SELECT lower(a.source) COLLATE "C" AS key, a.source FROM articles a
				WHERE (lower(a.source) COLLATE "C", a.source) > (s.key, s.source)
				ORDER BY lower(a.source) COLLATE "C", a.source LIMIT 1) n
			WHERE starts_with(s.key, lower($1))
		),
		found AS (
			SELECT source FROM s WHERE starts_with(key, lower($1)) LIMIT $2
		)
		SELECT source FROM found ORDER BY source`

// Sources returns the sources that begin with prefix, compared without
// case, sorted; at most limit. It walks articles_source_lower_idx from the
// prefix, from one source to the next (a loose index scan), and stops at the
// first that does not begin with it: one index entry a source it returns,
// however many sources and articles there are.
func (q queries) Sources(ctx context.Context, prefix string, limit int) ([]string, error) {
	rows, err := q.db.Query(ctx, sourcesSQL, prefix, limit)
	if err != nil {
		return nil, interpretError(err, "list sources")
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return out, interpretError(err, "list sources")
}
