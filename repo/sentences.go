package repo

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The sentence index: table sentences, one row per indexed sentence, its
// exact text hash in a B-tree, and the eight block keys of its simhash
// (sentence_block_keys, migration 00019) in one GIN index, which finds the
// sentences that match a query's in both families by intersecting the
// posting lists of its keys. The layouts measured before it was chosen, and
// their figures: docs/scaling.md, "The sentence index's layout".

// sentenceColumns are the columns of a sentence's row, in sentenceValues'
// order; written with COPY in the article's transaction. The block columns
// a0–b3 stay NULL: the GIN index keys the simhash itself.
var sentenceColumns = []string{"article_id", "position", "start_char", "end_char", "runes", "text_hash", "simhash"}

// sentenceColumnList is sentenceColumns for a SELECT.
var sentenceColumnList = strings.Join(sentenceColumns, ", ")

func sentenceValues(articleID int64, position int, s *fingerprint.Sentence) []any {
	var simhash *int64
	if s.HasSimhash {
		h := int64(s.Simhash)
		simhash = &h
	}
	return []any{articleID, position, s.Start, s.End, s.Runes, int64(s.TextHash), simhash}
}

// writeSentences stores the sentences of article id, replacing any it had.
func (t *storeTx) writeSentences(ctx context.Context, id int64, sentences []fingerprint.Sentence, replacing bool) error {
	if replacing {
		if _, err := t.db.Exec(ctx, `DELETE FROM sentences WHERE article_id = $1`, id); err != nil {
			return interpretError(err, "delete sentences")
		}
	}
	if len(sentences) > 0 {
		_, err := t.db.CopyFrom(ctx, pgx.Identifier{"sentences"}, sentenceColumns,
			pgx.CopyFromSlice(len(sentences), func(i int) ([]any, error) {
				return sentenceValues(id, i, &sentences[i]), nil
			}))
		if err != nil {
			return interpretError(err, "copy sentences")
		}
	}
	parts, err := t.sentencePartitions(ctx)
	if err != nil || parts == 0 {
		return err
	}
	rows := make([][]any, len(sentences))
	for i := range sentences {
		rows[i] = sentenceValues(id, i, &sentences[i])
	}
	var forget []int64
	if replacing && len(sentences) == 0 {
		forget = []int64{id}
	}
	return writeSentenceParts(ctx, t.db, rows, forget, replacing)
}

func cond[T any](c bool, yes, no T) T {
	if c {
		return yes
	}
	return no
}

// sentenceMatchesSQL finds, for each query sentence, the stored sentences
// with the same text, through the exact hash (with or without a simhash:
// the same text can have simhashes far apart, migration 00011), and the
// others whose simhash is within $5 bits, through the block keys' GIN
// index, a match needed in both families, as for articles; at most $6 of
// them (NULL: all), then reads their articles. The query sentences arrive
// as arrays ($1–$3), one element each; a sentence without a simhash is
// looked up by its text alone.
//
// A stored sentence whose text is not the query's comes back with its span,
// and its article's plain text once, on the first of its article's rows
// that needs it: the caller cuts the sentences out (cutting them here with
// substring() walked the text from its start for every row). Each match's
// article is read in a lateral subquery that OFFSET 0 keeps from becoming
// a join, which a writer's plan for a young table sorted the whole articles
// table to merge. Measurements of both: docs/scaling.md.
const sentenceMatchesSQL = sentenceMatchesSelect + sentenceSearchFrom + sentenceMatchesArticles

// sentenceMatchesSelect and sentenceMatchesArticles are what
// sentenceMatchesSQL (and sentenceMatchesPartsSQL) put around the search.
const sentenceMatchesSelect = `
	SELECT q.i, m.article_id, m.position, m.runes, m.text_hash, m.simhash, m.start_char, m.end_char,
	       CASE WHEN m.text_hash <> q.text_hash
	             AND row_number() OVER (PARTITION BY m.article_id, m.text_hash = q.text_hash) = 1
	            THEN coalesce(a.plain_body, a.body) END,
	       a.fingerprint_version, a.published_at, a.ingested_at, a.sentence_runes,
	       a.external_id, a.source, a.title, a.cluster_id, a.status
	`

const sentenceMatchesArticles = `
	CROSS JOIN LATERAL (
	    SELECT a.plain_body, a.body, a.fingerprint_version, a.published_at, a.ingested_at, a.sentence_runes,
	           a.external_id, a.source, a.title, a.cluster_id, a.status
	    FROM articles a
	    WHERE a.id = m.article_id
	    OFFSET 0
	) a`

// sentenceSearchFrom is the search of sentenceMatchesSQL and
// sentenceHoldersSQL: the query sentences q, each joined to its matches m.
// The near part asks the GIN index for the sentences whose keys overlap
// both the query's family-A keys (elements 1–4 of sentence_block_keys) and
// its family-B keys (5–8); the index intersects the two inside its scan.
const sentenceSearchFrom = `
	FROM unnest($1::int4[], $2::int8[], $3::int8[]) AS q(i, text_hash, simhash)
	CROSS JOIN LATERAL (
	    SELECT * FROM (
	        SELECT s.article_id, s.position, s.runes, s.text_hash, s.simhash, s.start_char, s.end_char
	        FROM sentences s
	        WHERE s.text_hash = q.text_hash AND s.article_id <> $4
	        UNION ALL
	        SELECT s.article_id, s.position, s.runes, s.text_hash, s.simhash, s.start_char, s.end_char
	        FROM sentences s
	        WHERE q.simhash IS NOT NULL AND s.simhash IS NOT NULL
	          AND sentence_block_keys(s.simhash) && (sentence_block_keys(q.simhash))[1:4]
	          AND sentence_block_keys(s.simhash) && (sentence_block_keys(q.simhash))[5:8]
	          AND bit_count((s.simhash # q.simhash)::bit(64)) <= $5
	          AND s.text_hash <> q.text_hash
	          AND s.article_id <> $4
	    ) found
	    LIMIT $6
	) m`

// sentenceHoldersSQL counts what sentenceMatchesSQL finds for each query
// sentence, all matches and those with its text, and reads no article:
// what the boilerplate check of a near match needs (service.Holders), for
// the same index probes without reading and shipping each match's article
// (measured: docs/scaling.md).
const sentenceHoldersSQL = `
	SELECT q.i, count(*), count(*) FILTER (WHERE m.text_hash = q.text_hash)
	` + sentenceSearchFrom + `
	GROUP BY q.i`

// SentenceMatches returns the stored sentences that match q's sentences.
func (q queries) SentenceMatches(ctx context.Context, sq service.SentenceQuery) ([]service.SentenceMatch, error) {
	parts, err := q.sentencePartitions(ctx)
	if err != nil {
		return nil, err
	}
	if missing := service.MissingPartitionsOf(ctx); parts > 0 && missing != nil {
		return q.sentenceMatchesEachPart(ctx, sq, parts, missing)
	}
	rows, err := q.db.Query(ctx, cond(parts > 0, sentenceMatchesPartsSQL, sentenceMatchesSQL), q.writerArgs(sentenceMatchesArgs(sq)...)...)
	if err != nil {
		return nil, interpretError(err, "find sentence matches")
	}
	found, err := scanSentenceMatches(rows)
	if err != nil {
		return nil, err
	}
	cutSentenceTexts(sq, found.matches, found.spans, found.plains)
	return found.matches, nil
}

// sentenceMatchRows are the rows of a sentence search as read: the
// matches, the span of each in its article's plain text, and the plain
// texts of the articles whose sentences need cutting out.
type sentenceMatchRows struct {
	matches []service.SentenceMatch
	spans   []fingerprint.Sentence
	plains  map[int64]string
}

func scanSentenceMatches(rows pgx.Rows) (sentenceMatchRows, error) {
	found := sentenceMatchRows{plains: make(map[int64]string)}
	matches, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.SentenceMatch, error) {
		var (
			m                   service.SentenceMatch
			span                fingerprint.Sentence
			textHash            int64
			simhash             *int64
			plain               *string
			version             int16
			published, ingested time.Time
			status              string
		)
		err := row.Scan(&m.Query, &m.ArticleID, &m.Position, &m.Runes, &textHash, &simhash, &span.Start, &span.End, &plain,
			&version, &published, &ingested, &m.SentenceRunes,
			&m.ExternalID, &m.Source, &m.Title, &m.ClusterID, &status)
		m.TextHash = uint64(textHash)
		if simhash != nil {
			m.Simhash, m.HasSimhash = uint64(*simhash), true
		}
		if plain != nil {
			found.plains[m.ArticleID] = *plain
		}
		found.spans = append(found.spans, span)
		m.Version, m.PublishedAt, m.IngestedAt, m.Status = fingerprint.Version(version), published, ingested, service.Status(status)
		return m, err
	})
	if err != nil {
		return found, interpretError(err, "find sentence matches")
	}
	found.matches = matches
	return found, nil
}

// SentenceHolders counts the stored sentences that match each of q's
// sentences.
func (q queries) SentenceHolders(ctx context.Context, sq service.SentenceQuery) ([]service.Holders, error) {
	parts, err := q.sentencePartitions(ctx)
	if err != nil {
		return nil, err
	}
	if missing := service.MissingPartitionsOf(ctx); parts > 0 && missing != nil {
		return q.sentenceHoldersEachPart(ctx, sq, parts, missing)
	}
	rows, err := q.db.Query(ctx, cond(parts > 0, sentenceHoldersPartsSQL, sentenceHoldersSQL), q.writerArgs(sentenceMatchesArgs(sq)...)...)
	if err != nil {
		return nil, interpretError(err, "count sentence holders")
	}
	return scanHolders(rows, len(sq.Sentences))
}

// scanHolders reads the holders of n query sentences.
func scanHolders(rows pgx.Rows, n int) ([]service.Holders, error) {
	out := make([]service.Holders, n)
	var (
		i             int32
		all, sameText int64
	)
	_, err := pgx.ForEachRow(rows, []any{&i, &all, &sameText}, func() error {
		if int(i) < 0 || int(i) >= len(out) {
			return fmt.Errorf("holders of query sentence %d of %d", i, len(out))
		}
		out[i] = service.Holders{All: int(all), SameText: int(sameText)}
		return nil
	})
	if err != nil {
		return nil, interpretError(err, "count sentence holders")
	}
	return out, nil
}

// cutSentenceTexts sets the Text of each match whose text is not its query
// sentence's, cut from its article's plain text at its span, one pass over
// each article's text.
func cutSentenceTexts(sq service.SentenceQuery, matches []service.SentenceMatch, spans []fingerprint.Sentence, plains map[int64]string) {
	byArticle := make(map[int64][]int) // the matches to cut, by article
	for i, m := range matches {
		if m.TextHash != sq.Sentences[m.Query].TextHash {
			byArticle[m.ArticleID] = append(byArticle[m.ArticleID], i)
		}
	}
	for id, idx := range byArticle {
		slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(spans[a].Start, spans[b].Start) })
		want := make([]fingerprint.Sentence, len(idx))
		for k, i := range idx {
			want[k] = spans[i]
		}
		for k, text := range fingerprint.SentenceTexts(plains[id], want) {
			matches[idx[k]].Text = text
		}
	}
}

// sentenceMatchesArgs are the arguments of sentenceMatchesSQL: the query
// sentences as columns, a sentence without a simhash with a NULL one, then
// the article to leave out, the distance and the limit.
func sentenceMatchesArgs(sq service.SentenceQuery) []any {
	n := len(sq.Sentences)
	idx := make([]int32, n)
	textHashes := make([]int64, n)
	simhashes := make([]*int64, n)
	for i, s := range sq.Sentences {
		idx[i], textHashes[i] = int32(i), int64(s.TextHash)
		if s.HasSimhash {
			h := int64(s.Simhash)
			simhashes[i] = &h
		}
	}
	return []any{idx, textHashes, simhashes, sq.ExcludeID, sq.MaxDistance, limitArg(sq.PerSentence)}
}

// ArticleText returns the indexed sentences of article id and the plain
// text they point into.
func (q queries) ArticleText(ctx context.Context, id int64) ([]fingerprint.Sentence, string, error) {
	var plain string
	err := q.db.QueryRow(ctx, `SELECT coalesce(plain_body, body) FROM articles WHERE id = $1`, id).Scan(&plain)
	if err != nil {
		return nil, "", interpretError(err, "read article text")
	}
	rows, err := q.db.Query(ctx, `
		SELECT start_char, end_char, runes, text_hash, simhash
		FROM sentences WHERE article_id = $1 ORDER BY position`, id)
	if err != nil {
		return nil, "", interpretError(err, "read sentences")
	}
	sentences, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (fingerprint.Sentence, error) {
		var (
			s        fingerprint.Sentence
			textHash int64
			simhash  *int64
		)
		err := row.Scan(&s.Start, &s.End, &s.Runes, &textHash, &simhash)
		s.TextHash = uint64(textHash)
		if simhash != nil {
			s.Simhash, s.HasSimhash = uint64(*simhash), true
		}
		return s, err
	})
	return sentences, plain, interpretError(err, "read sentences")
}

// ArticleTextHead returns the first runes characters of article id's plain
// text, whether the text is longer, and the indexed sentences that lie
// within them: ArticleText bounded, as a cluster's page reads it (see
// BodyHeads; plain_head is plain_body's start, migration 00047).
func (q queries) ArticleTextHead(ctx context.Context, id int64, runes int) ([]fingerprint.Sentence, string, bool, error) {
	var (
		plain string
		bytes int
	)
	err := q.db.QueryRow(ctx, `
		SELECT CASE WHEN plain_body IS NULL THEN substr(coalesce(body_head, body), 1, $2)
		            ELSE substr(coalesce(plain_head, plain_body), 1, $2) END,
		       octet_length(coalesce(plain_body, body))
		FROM articles WHERE id = $1`, id, runes).Scan(&plain, &bytes)
	if err != nil {
		return nil, "", false, interpretError(err, "read article text")
	}
	// The first sentences in order, as many as the start can hold (an
	// indexed sentence has MinSentenceRunes characters at least), then
	// those within it: an index scan that stops, however many the text has.
	rows, err := q.db.Query(ctx, `
		SELECT start_char, end_char, runes, text_hash, simhash
		FROM sentences WHERE article_id = $1 ORDER BY position LIMIT $2`, id, max(runes/fingerprint.MinSentenceRunes, 1))
	if err != nil {
		return nil, "", false, interpretError(err, "read sentences")
	}
	sentences, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (fingerprint.Sentence, error) {
		var (
			s        fingerprint.Sentence
			textHash int64
			simhash  *int64
		)
		err := row.Scan(&s.Start, &s.End, &s.Runes, &textHash, &simhash)
		s.TextHash = uint64(textHash)
		if simhash != nil {
			s.Simhash, s.HasSimhash = uint64(*simhash), true
		}
		return s, err
	})
	n := 0
	for n < len(sentences) && sentences[n].End <= runes {
		n++
	}
	return sentences[:n], plain, bytes > len(plain), interpretError(err, "read sentences")
}

// Candidates returns the stored articles with these ids.
func (q queries) Candidates(ctx context.Context, ids []int64) ([]service.Candidate, error) {
	rows, err := q.db.Query(ctx, `SELECT `+candidateColumns+` FROM articles WHERE id = ANY($1)`, q.writerArgs(ids)...)
	return collectCandidates(rows, err, "read candidates")
}
