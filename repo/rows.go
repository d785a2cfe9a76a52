package repo

import (
	"crypto/sha256"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// articleColumns are the columns of a service.Article, in scanArticle's order.
const articleColumns = `id, external_id, source, title, url, content_type, published_at, ingested_at,
	simhash, fingerprint_version, words, content_hash,
	status, coalesce(duplicate_of, 0), cluster_id, coalesce(distance, 0), coalesce(word_ratio, 0)`

func scanArticle(row pgx.Row) (service.Article, error) {
	var (
		a                   service.Article
		simhash             int64
		words               []int64
		hash                []byte
		contentType, status string
		distance            int16
		ratio               float32
	)
	err := row.Scan(&a.ID, &a.ExternalID, &a.Source, &a.Title, &a.URL, &contentType, &a.PublishedAt, &a.IngestedAt,
		&simhash, &a.FingerprintVersion, &words, &hash,
		&status, &a.DuplicateOf, &a.ClusterID, &distance, &ratio)
	if err != nil {
		return a, err
	}
	if len(hash) != sha256.Size {
		return a, fmt.Errorf("article %d: content hash of %d bytes", a.ID, len(hash))
	}
	a.ContentType = service.ContentType(contentType)
	a.Status = service.Status(status)
	a.Simhash = uint64(simhash)
	a.Words = wordSet(words)
	a.ContentHash = [sha256.Size]byte(hash)
	a.Distance = int(distance)
	a.WordRatio = float64(ratio)
	return a, nil
}

// CandidateColumns are the columns of a service.Candidate, in
// scanCandidate's order: what NearCandidatesSQL returns (the benchmarks'
// other methods return the same, to be compared fairly).
const CandidateColumns = `id, external_id, source, title, published_at, simhash, words, content_hash, cluster_id`

func scanCandidate(row pgx.Row) (service.Candidate, error) {
	var (
		c       service.Candidate
		simhash int64
		words   []int64
		hash    []byte
	)
	err := row.Scan(&c.ID, &c.ExternalID, &c.Source, &c.Title, &c.PublishedAt, &simhash, &words, &hash, &c.ClusterID)
	if err != nil {
		return c, err
	}
	if len(hash) != sha256.Size {
		return c, fmt.Errorf("article %d: content hash of %d bytes", c.ID, len(hash))
	}
	c.Simhash = uint64(simhash)
	c.Words = wordSet(words)
	c.ContentHash = [sha256.Size]byte(hash)
	return c, nil
}

// The database has no unsigned integers: a simhash, a block value and a word
// hash are stored as signed integers holding the same bits.

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
