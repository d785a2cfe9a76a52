package repo

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Pool returns the store's connection pool, for the tests of package
// repo_test that read the table directly.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// The search statements and their arguments, for the plan tests.
const (
	NearCandidatesSQL = nearCandidatesSQL
	NearCandidateSQL  = nearCandidateSQL
	ExactMatchSQL     = exactMatchSQL
	SourcesSQL        = sourcesSQL
)

var (
	NearCandidatesArgs = nearCandidatesArgs
	NearCandidateArgs  = nearCandidateArgs
)

// HoldBeforeTidy makes every split wait, once registered and before it
// deletes the moved rows, for hold to return.
func HoldBeforeTidy(hold func()) (restore func()) {
	beforeTidy = hold
	return func() { beforeTidy = func() {} }
}

// CopyRow and CopyArticles load fixtures without judging them.
type CopyRow = copyRow

func (s *Store) CopyArticles(ctx context.Context, rows []CopyRow) (int64, error) {
	return s.copyArticles(ctx, rows)
}

// The sentence statements and their arguments, for the sentence plan test
// and the tests that count statements.
const (
	SentenceMatchesSQL = sentenceMatchesSQL
	SentenceHoldersSQL = sentenceHoldersSQL
)

var (
	SentenceMatchesArgs = sentenceMatchesArgs
	SentenceSearchParts = sentenceSearchParts
)

// CopySentences stores the sentences of stored articles, for fixtures.
func (s *Store) CopySentences(ctx context.Context, bySentence map[int64][]fingerprint.Sentence) error {
	var rows [][]any
	for id, sentences := range bySentence {
		for i := range sentences {
			rows = append(rows, sentenceValues(id, i, &sentences[i]))
		}
	}
	_, err := s.pool.CopyFrom(ctx, pgx.Identifier{"sentences"}, sentenceColumns, pgx.CopyFromRows(rows))
	return err
}

// SeqScannedInTx returns how many rows of table tx has read by sequential
// scan so far: the transaction's own count, which PostgreSQL does not flush
// before it ends.
func SeqScannedInTx(ctx context.Context, tx service.Tx, table string) (int64, error) {
	var n int64
	err := tx.(*storeTx).db.QueryRow(ctx, "SELECT pg_stat_get_xact_tuples_returned($1::regclass)", table).Scan(&n)
	return n, err
}

// SentenceMatchesTableAlone is SentenceMatches from the primary's table
// sentences alone, whatever the partitions: the reference of the
// partition tests.
func (s *Store) SentenceMatchesTableAlone(ctx context.Context, q service.SentenceQuery) ([]service.SentenceMatch, error) {
	return queries{db: s.pool}.SentenceMatches(ctx, q)
}

// SentenceHoldersTableAlone is SentenceHolders from the primary's table
// alone.
func (s *Store) SentenceHoldersTableAlone(ctx context.Context, q service.SentenceQuery) ([]service.Holders, error) {
	return queries{db: s.pool}.SentenceHolders(ctx, q)
}
