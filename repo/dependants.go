package repo

import (
	"context"
	"crypto/sha256"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The reads of an article's dependants, when it changes or leaves: what
// ArticleText and Separated read for one article, for many in one statement
// each (service/dependants.go).

// Dependants returns the articles that link to article id, earliest
// ingested first. Copies of one text share its word set and shingles, read
// once: a much-copied story's dependants are mostly copies, and those
// arrays, stored out of line, are most of what reading them costs.
func (q queries) Dependants(ctx context.Context, id int64) ([]service.Article, error) {
	rows, err := q.db.Query(ctx, `
		SELECT `+dependantColumns+`
		FROM (SELECT *, row_number() OVER (PARTITION BY content_hash, fingerprint_version ORDER BY ingested_at, id) AS nth
		      FROM articles WHERE duplicate_of = $1) a
		ORDER BY ingested_at, id`, id)
	as, err := collectArticles(rows, err, "list dependants")
	type text struct {
		hash    [sha256.Size]byte
		version fingerprint.Version
	}
	first := make(map[text]int)
	for i := range as {
		k := text{as[i].ContentHash, as[i].FingerprintVersion}
		if j, ok := first[k]; ok {
			as[i].Words, as[i].Shingles = as[j].Words, as[j].Shingles
		} else {
			first[k] = i
		}
	}
	return as, err
}

// dependantColumns are articleColumns with the word set and the shingles of
// a text's first copy only (empty for the others).
var dependantColumns = strings.NewReplacer(
	"words,", "CASE WHEN nth = 1 THEN words END,",
	"shingles,", "CASE WHEN nth = 1 THEN shingles END,").Replace(articleColumns)

// ArticleTexts returns, for each of articles ids that exists, its indexed
// sentences in their order and, when plain, the plain text they point into.
func (q queries) ArticleTexts(ctx context.Context, ids []int64, plain bool) (map[int64]service.StoredText, error) {
	out := make(map[int64]service.StoredText, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	if plain {
		rows, err := q.db.Query(ctx, `SELECT id, coalesce(plain_body, body) FROM articles WHERE id = ANY($1)`, q.writerArgs(ids)...)
		if err != nil {
			return nil, interpretError(err, "read article texts")
		}
		var (
			id   int64
			text string
		)
		_, err = pgx.ForEachRow(rows, []any{&id, &text}, func() error {
			out[id] = service.StoredText{Plain: text}
			return nil
		})
		if err != nil {
			return nil, interpretError(err, "read article texts")
		}
	}
	rows, err := q.db.Query(ctx, `
		SELECT article_id, start_char, end_char, runes, text_hash, simhash
		FROM sentences WHERE article_id = ANY($1)
		ORDER BY article_id, position`, ids)
	if err != nil {
		return nil, interpretError(err, "read sentences")
	}
	var (
		id       int64
		s        fingerprint.Sentence
		textHash int64
		simhash  *int64
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &s.Start, &s.End, &s.Runes, &textHash, &simhash}, func() error {
		s.TextHash, s.Simhash, s.HasSimhash = uint64(textHash), 0, simhash != nil
		if simhash != nil {
			s.Simhash = uint64(*simhash)
		}
		t := out[id]
		t.Sentences = append(t.Sentences, s)
		out[id] = t
		return nil
	})
	return out, interpretError(err, "read sentences")
}

// SeparatedPairs returns the pairs an editor separated that hold one of
// articles ids, each with the lower id first.
func (q queries) SeparatedPairs(ctx context.Context, ids []int64) ([][2]int64, error) {
	rows, err := q.db.Query(ctx, `
		SELECT a, b FROM separations WHERE a = ANY($1)
		UNION
		SELECT a, b FROM separations WHERE b = ANY($1)`, ids)
	if err != nil {
		return nil, interpretError(err, "list separations")
	}
	pairs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) ([2]int64, error) {
		var p [2]int64
		err := row.Scan(&p[0], &p[1])
		return p, err
	})
	return pairs, interpretError(err, "list separations")
}
