package repo

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// An article's row. The columns are named twice, once to write a row and
// once to read one, both here: every statement that writes or reads whole
// rows is built from these lists.

// articleWriteColumns are the columns an article's row is written with, in
// the order of articleValues. Insert and Replace are built from them; id,
// ingested_at and cluster_id come from the database.
var articleWriteColumns = []string{
	"source", "external_id", "title", "url", "body", "content_type", "published_at",
	"content_hash", "simhash", "fingerprint_version", "words", "shingles", "plain_body", "sentence_runes",
	"status", "duplicate_of", "distance", "word_ratio", "overlap", "coverage_this", "coverage_that", "cluster_head",
	"a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3",
}

// articleValues are the values of article a's row, with its body, in the
// order of articleWriteColumns.
func articleValues(a *service.Article, body string) []any {
	linked := a.DuplicateOf != 0
	partial := a.Status == service.StatusPartialDuplicate
	runes := 0
	for _, s := range a.Sentences {
		runes += s.Runes
	}
	return append([]any{
		a.Source, a.ExternalID, a.Title, a.URL, body, string(cmp.Or(a.ContentType, service.ContentText)), a.PublishedAt,
		a.ContentHash[:], int64(a.Simhash), a.FingerprintVersion, storedWords(a.Words), storedShingles(a.Shingles),
		nullIf(a.PlainBody != body, a.PlainBody), runes,
		string(a.Status), nullIf(linked, a.DuplicateOf), nullIf(linked, int16(a.Distance)), nullIf(linked, float32(a.WordRatio)),
		nullIf(linked, float32(a.Overlap)), nullIf(partial, float32(a.Coverage.This)), nullIf(partial, float32(a.Coverage.That)),
		nullIf(linked && a.ClusterID != 0 && a.ClusterID != a.ID, a.ClusterID), // a head's is NULL, linked or not (drift)
	}, blockArgs(a.Simhash)...)
}

// nullIf is v when ok, SQL's NULL otherwise.
func nullIf[T any](ok bool, v T) *T {
	if !ok {
		return nil
	}
	return &v
}

// insertArticleSQL stores a new row; replaceArticleSQL gives row $N (the
// last parameter) new content, and a new ingested_at; correctArticleSQL
// gives it new content keeping its ingested_at; refingerprintSQL gives it a
// new fingerprint and verdict, keeping its ingested_at.
var (
	refingerprintSQL = fmt.Sprintf(`UPDATE articles SET (%s) = (%s) WHERE id = $%d RETURNING cluster_id`,
		strings.Join(articleWriteColumns, ", "), placeholders(1, len(articleWriteColumns)), len(articleWriteColumns)+1)
	insertArticleSQL = fmt.Sprintf(`INSERT INTO articles (%s) VALUES (%s) RETURNING id, ingested_at, cluster_id`,
		strings.Join(articleWriteColumns, ", "), placeholders(1, len(articleWriteColumns)))
	correctArticleSQL = fmt.Sprintf(`UPDATE articles SET (%s) = (%s) WHERE id = $%d RETURNING ingested_at, cluster_id`,
		strings.Join(articleWriteColumns, ", "), placeholders(1, len(articleWriteColumns)), len(articleWriteColumns)+1)
	replaceArticleSQL = fmt.Sprintf(`UPDATE articles SET (%s, ingested_at) = (%s, clock_timestamp()) WHERE id = $%d RETURNING ingested_at, cluster_id`,
		strings.Join(articleWriteColumns, ", "), placeholders(1, len(articleWriteColumns)), len(articleWriteColumns)+1)
)

// placeholders is "$from, …, $(from+n-1)".
func placeholders(from, n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = "$" + strconv.Itoa(from+i)
	}
	return strings.Join(ps, ", ")
}

// articleColumns are the columns of a service.Article, in scanArticle's order.
const articleColumns = `id, external_id, source, title, url, content_type, published_at, ingested_at,
	simhash, fingerprint_version, words, content_hash, shingles,
	status, coalesce(duplicate_of, 0), cluster_id, coalesce(distance, 0), coalesce(word_ratio, 0), coalesce(overlap, 0),
	coalesce(coverage_this, 0), coalesce(coverage_that, 0), coalesce(credit, '')`

func scanArticle(row pgx.Row) (service.Article, error) {
	var (
		a                   service.Article
		simhash             int64
		words               []int64
		hash                []byte
		shingles            []int32
		contentType, status string
		credit              string
		distance            int16
		ratio, overlap      float32
		covThis, covThat    float32
	)
	err := row.Scan(&a.ID, &a.ExternalID, &a.Source, &a.Title, &a.URL, &contentType, &a.PublishedAt, &a.IngestedAt,
		&simhash, &a.FingerprintVersion, &words, &hash, &shingles,
		&status, &a.DuplicateOf, &a.ClusterID, &distance, &ratio, &overlap, &covThis, &covThat, &credit)
	if err != nil {
		return a, err
	}
	if len(hash) != sha256.Size {
		return a, fmt.Errorf("article %d: content hash of %d bytes", a.ID, len(hash))
	}
	a.ContentType = service.ContentType(contentType)
	a.Status = service.Status(status)
	a.Credit = service.Credit(credit)
	a.Simhash = uint64(simhash)
	a.Words = wordSet(words)
	a.ContentHash = [sha256.Size]byte(hash)
	a.Shingles = shingleSet(shingles)
	a.Similarity = service.Similarity{Distance: int(distance), WordRatio: float64(ratio), Overlap: float64(overlap),
		Coverage: service.Coverage{This: float64(covThis), That: float64(covThat)}}
	return a, nil
}

// candidateColumns are the columns of a service.Candidate, in
// scanCandidate's order: what nearCandidatesSQL returns.
const candidateColumns = `id, external_id, source, title, published_at, simhash, words, content_hash, shingles, cluster_id, ingested_at`

// scanCandidate reads a candidate's columns, after the destinations in
// before (a query's number, say) when the row starts with them.
func scanCandidate(row pgx.Row, before ...any) (service.Candidate, error) {
	var (
		c        service.Candidate
		simhash  int64
		words    []int64
		hash     []byte
		shingles []int32
	)
	err := row.Scan(append(before, &c.ID, &c.ExternalID, &c.Source, &c.Title, &c.PublishedAt, &simhash, &words, &hash, &shingles, &c.ClusterID, &c.IngestedAt)...)
	if err != nil {
		return c, err
	}
	if len(hash) != sha256.Size {
		return c, fmt.Errorf("article %d: content hash of %d bytes", c.ID, len(hash))
	}
	c.Simhash = uint64(simhash)
	c.Words = wordSet(words)
	c.ContentHash = [sha256.Size]byte(hash)
	c.Shingles = shingleSet(shingles)
	return c, nil
}

// The database has no unsigned integers: a simhash, a block value, a word
// hash and a shingle are stored as signed integers holding the same bits.

func shingleSet(stored []int32) fingerprint.ShingleSet {
	out := make(fingerprint.ShingleSet, len(stored)) // stored in their unsigned order
	for i, s := range stored {
		out[i] = uint32(s)
	}
	return out
}

func storedShingles(s fingerprint.ShingleSet) []int32 {
	out := make([]int32, len(s))
	for i, v := range s {
		out[i] = int32(v)
	}
	return out
}

func wordSet(stored []int64) fingerprint.WordSet {
	hashes := make([]uint64, len(stored))
	for i, w := range stored {
		hashes[i] = uint64(w)
	}
	return fingerprint.NewWordSet(hashes)
}

func storedWords(words fingerprint.WordSet) []int64 {
	out := make([]int64, len(words))
	for i, w := range words {
		out[i] = int64(w)
	}
	return out
}

// blockArgs returns the eight block values of h as query arguments, a0..a3
// then b0..b3.
func blockArgs(h uint64) []any {
	b := fingerprint.BlocksOf(h)
	args := make([]any, 0, 8)
	for _, v := range b.A {
		args = append(args, int16(v))
	}
	for _, v := range b.B {
		args = append(args, int16(v))
	}
	return args
}
