package repo

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The other coverage of a page of clusters (issue 36): the sentence index's
// matches of several articles' sentences in one statement, so that the list
// counts its fifty clusters' other coverage in a fixed number of statements
// rather than two searches a cluster; the articles' texts are read by
// ArticleTexts (dependants.go).

var _ service.CoverageReader = queries{}

// sentenceMatchesManySQL is sentenceMatchesSQL for several queries at once:
// each query sentence carries its query's number (n) and the article that
// query leaves out; the distance ($6) and the limit a sentence ($7) are
// the same for all; a text is read only from an article whose text is at
// most $8 bytes long (octet_length reads a stored text's length from its
// TOAST pointer, not the text), any when $8 <= 0.
const sentenceMatchesManySQL = `
	SELECT q.n, q.i, m.article_id, m.position, m.runes, m.text_hash, m.simhash, m.start_char, m.end_char,
	       CASE WHEN m.text_hash <> q.text_hash
	             AND row_number() OVER (PARTITION BY m.article_id, m.text_hash = q.text_hash) = 1
	             AND ($8 <= 0 OR octet_length(coalesce(a.plain_body, a.body)) <= $8)
	            THEN coalesce(a.plain_body, a.body) END,
	       a.fingerprint_version, a.published_at, a.ingested_at, a.sentence_runes,
	       a.external_id, a.source, a.title, a.cluster_id, a.status
	FROM unnest($1::int4[], $2::int4[], $3::int8[], $4::int8[], $5::int8[]) AS q(n, i, text_hash, simhash, exclude)
	CROSS JOIN LATERAL (
	    SELECT * FROM (
	        SELECT s.article_id, s.position, s.runes, s.text_hash, s.simhash, s.start_char, s.end_char
	        FROM sentences s
	        WHERE s.text_hash = q.text_hash AND s.article_id <> q.exclude
	        UNION ALL
	        SELECT s.article_id, s.position, s.runes, s.text_hash, s.simhash, s.start_char, s.end_char
	        FROM sentences s
	        WHERE q.simhash IS NOT NULL AND s.simhash IS NOT NULL
	          AND sentence_block_keys(s.simhash) && (sentence_block_keys(q.simhash))[1:4]
	          AND sentence_block_keys(s.simhash) && (sentence_block_keys(q.simhash))[5:8]
	          AND bit_count((s.simhash # q.simhash)::bit(64)) <= $6
	          AND s.text_hash <> q.text_hash
	          AND s.article_id <> q.exclude
	    ) found
	    LIMIT $7
	) m
	CROSS JOIN LATERAL (
	    SELECT a.plain_body, a.body, a.fingerprint_version, a.published_at, a.ingested_at, a.sentence_runes,
	           a.external_id, a.source, a.title, a.cluster_id, a.status
	    FROM articles a
	    WHERE a.id = m.article_id
	    OFFSET 0
	) a`

// SentenceMatchesOf returns, for each of qs, what SentenceMatches returns
// for it, in one statement. The queries share qs[0]'s distance and limit.
func (q queries) SentenceMatchesOf(ctx context.Context, qs []service.SentenceQuery, maxTextBytes int) ([][]service.SentenceMatch, error) {
	out := make([][]service.SentenceMatch, len(qs))
	var ns, idx []int32
	var textHashes, excludes []int64
	var simhashes []*int64
	for n, sq := range qs {
		for i, s := range sq.Sentences {
			ns, idx = append(ns, int32(n)), append(idx, int32(i))
			textHashes, excludes = append(textHashes, int64(s.TextHash)), append(excludes, sq.ExcludeID)
			var h *int64
			if s.HasSimhash {
				v := int64(s.Simhash)
				h = &v
			}
			simhashes = append(simhashes, h)
		}
	}
	if len(ns) == 0 {
		return out, nil
	}
	rows, err := q.db.Query(ctx, sentenceMatchesManySQL, ns, idx, textHashes, simhashes, excludes,
		qs[0].MaxDistance, limitArg(qs[0].PerSentence), maxTextBytes)
	if err != nil {
		return nil, interpretError(err, "find sentence matches")
	}
	spans := make([][]fingerprint.Sentence, len(qs))
	plains := make(map[int64]string)
	var (
		n                   int32
		m                   service.SentenceMatch
		span                fingerprint.Sentence
		textHash            int64
		simhash             *int64
		plain               *string
		version             int16
		published, ingested time.Time
		status              string
	)
	_, err = pgx.ForEachRow(rows, []any{&n, &m.Query, &m.ArticleID, &m.Position, &m.Runes, &textHash, &simhash, &span.Start, &span.End, &plain,
		&version, &published, &ingested, &m.SentenceRunes, &m.ExternalID, &m.Source, &m.Title, &m.ClusterID, &status}, func() error {
		if int(n) < 0 || int(n) >= len(qs) || m.Query < 0 || m.Query >= len(qs[n].Sentences) {
			return fmt.Errorf("match of query sentence %d:%d", n, m.Query)
		}
		m.TextHash, m.Simhash, m.HasSimhash = uint64(textHash), 0, simhash != nil
		if simhash != nil {
			m.Simhash = uint64(*simhash)
		}
		if plain != nil {
			plains[m.ArticleID] = *plain
		}
		m.Version, m.PublishedAt, m.IngestedAt, m.Status = fingerprint.Version(version), published, ingested, service.Status(status)
		out[n] = append(out[n], m)
		spans[n] = append(spans[n], span)
		return nil
	})
	if err != nil {
		return nil, interpretError(err, "find sentence matches")
	}
	for n := range qs {
		cutSentenceTexts(qs[n], out[n], spans[n], plains)
	}
	return out, nil
}

// CountedTexts returns, of each article, its first maxSentences indexed
// sentences, and its plain text when at most maxTextBytes long: the length
// is read from the row (octet_length of a stored text reads its TOAST
// pointer), a longer text never.
func (q queries) CountedTexts(ctx context.Context, ids []int64, maxSentences, maxTextBytes int) (map[int64]service.StoredText, error) {
	out := make(map[int64]service.StoredText, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.db.Query(ctx, `
		SELECT id, CASE WHEN octet_length(coalesce(plain_body, body)) <= $2 THEN coalesce(plain_body, body) END
		FROM articles WHERE id = ANY ($1)`, ids, maxTextBytes)
	if err != nil {
		return nil, interpretError(err, "read counted texts")
	}
	var (
		id   int64
		text *string
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &text}, func() error {
		if text != nil {
			out[id] = service.StoredText{Plain: *text}
		}
		return nil
	})
	if err != nil {
		return nil, interpretError(err, "read counted texts")
	}
	rows, err = q.db.Query(ctx, `
		SELECT article_id, start_char, end_char, runes, text_hash, simhash
		FROM sentences WHERE article_id = ANY ($1) AND position < $2
		ORDER BY article_id, position`, ids, maxSentences)
	if err != nil {
		return nil, interpretError(err, "read counted sentences")
	}
	var (
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
	return out, interpretError(err, "read counted sentences")
}
