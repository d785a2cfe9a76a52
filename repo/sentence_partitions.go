package repo

import (
	"context"
	_ "embed"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// The sentence index in partitions. With rows in sentence_partitions
// (migration 00045), the sentence searches run through PL/Proxy on 2^k
// partition databases at once (sentence_proxy.search, RUN ON ALL), each
// keeping the per-sentence limit, and the primary merges them, keeping it
// again; an article's sentences are written, inside its ingest's
// transaction, to the partition its id hashes to. The primary keeps its own
// table sentences as well, for the reads of an article's own sentences.
//
// A partition's write commits on its own: an ingest that then rolls back
// leaves rows there under an article id that no committed article has
// (ids come from a sequence and are never given twice). The merge keeps
// only rows of existing articles, and SweepPartitionSentences deletes the
// rest once they are older than any transaction. A partition that cannot
// be reached fails the statement, and the ingest or check with it
// (KindUnavailable): never a partial answer. Set up and figures:
// docs/scaling.md, "The sentence index in partitions".

//go:embed sentence_partition.sql
var partitionSchemaSQL string

//go:embed sentence_proxy.sql
var sentenceProxySQL string

// PreparePartition installs (or brings up to date) the partition side of
// the sentence index in the database at url (sentence_partition.sql).
func PreparePartition(ctx context.Context, url string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("prepare sentence partition: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, partitionSchemaSQL); err != nil {
		return fmt.Errorf("prepare sentence partition: %w", err)
	}
	return nil
}

// SetSentencePartitions installs the proxy functions (sentence_proxy.sql,
// which needs a superuser for CREATE EXTENSION plproxy) and makes
// connstrs, in order, the partitions; none for the table sentences alone.
// Their number must be a power of two. It does not move sentences: it is
// for an empty index, or one whose partitions already hold theirs (the
// tools that move and split partitions: partition_tools.go). A running
// service follows the change within partitionsReread.
func (s *Store) SetSentencePartitions(ctx context.Context, connstrs []string) error {
	if n := len(connstrs); n&(n-1) != 0 {
		return fmt.Errorf("%d sentence partitions: the number must be a power of two", n)
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if len(connstrs) > 0 {
			if _, err := tx.Exec(ctx, sentenceProxySQL); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM sentence_partitions`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO sentence_partitions (part, connstr)
			SELECT n - 1, c FROM unnest($1::text[]) WITH ORDINALITY AS p(c, n)`, connstrs)
		return err
	})
	if err != nil {
		return interpretError(err, "set sentence partitions")
	}
	s.parts.forget()
	return nil
}

// partitioning is how many sentence partitions the database has, as last
// read. The count is read again once it is older than partitionsReread, so
// that a running service follows a change made elsewhere (another dedupd,
// the partition tools) without a restart; where the partitions are and
// how many, PL/Proxy reads itself on every call (the version in
// sentence_partition_settings). The count only chooses between the table
// alone and the proxy.
type partitioning struct {
	mu   sync.Mutex
	read time.Time // zero: never read, or forgotten
	n    int
}

// partitionsReread is how old the count of partitions may grow before it is
// read again: one short statement a second at most, whatever the load.
const partitionsReread = time.Second

func (p *partitioning) forget() {
	p.mu.Lock()
	p.read = time.Time{}
	p.mu.Unlock()
}

// sentencePartitions returns the number of sentence partitions, 0 for the
// table sentences alone.
func (q queries) sentencePartitions(ctx context.Context) (int, error) {
	p := q.parts
	if p == nil {
		return 0, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.read.IsZero() || time.Since(p.read) >= partitionsReread {
		if err := q.db.QueryRow(ctx, `SELECT count(*) FROM sentence_partitions`).Scan(&p.n); err != nil {
			return 0, interpretError(err, "count sentence partitions")
		}
		p.read = time.Now()
	}
	return p.n, nil
}

// sentenceSearchFromParts is sentenceSearchFrom over the partitions: the
// rows of every partition's search, each once (during a split a row is on
// two partitions a moment: sentence_partitions_move.go), those of articles
// that exist (not of an ingest rolled back, nor of an article deleted
// since), at most $6 of a query sentence after the merge.
const sentenceSearchFromParts = `
	FROM unnest($1::int4[], $2::int8[], $3::int8[]) AS q(i, text_hash, simhash)
	JOIN (
	    SELECT f.i, f.article_id, f.pos AS position, f.runes, f.text_hash, f.simhash, f.start_char, f.end_char,
	           row_number() OVER (PARTITION BY f.i) AS nth
	    FROM (SELECT DISTINCT ON (p.i, p.article_id, p.pos) *
	          FROM sentence_proxy.search($1::int4[], $2::int8[], $3::int8[], $4::int8, $5::int4, $6::int4) p) f
	    WHERE EXISTS (SELECT 1 FROM articles x WHERE x.id = f.article_id)
	) m ON m.i = q.i AND (m.nth <= $6::int4 OR $6::int4 IS NULL)`

// sentenceMatchesPartsSQL and sentenceHoldersPartsSQL are
// sentenceMatchesSQL and sentenceHoldersSQL over the partitions.
const (
	sentenceMatchesPartsSQL = sentenceMatchesSelect + sentenceSearchFromParts + sentenceMatchesArticles
	sentenceHoldersPartsSQL = `
	SELECT q.i, count(*), count(*) FILTER (WHERE m.text_hash = q.text_hash)
	` + sentenceSearchFromParts + `
	GROUP BY q.i`
)

// writeSentenceParts writes sentence rows (sentenceValues') to their
// articles' partitions, replacing what those articles had there; forget
// are articles left with no sentence, whose rows there go. rewrite says
// whether the rows replace those of stored articles (a correction,
// replacement, re-fingerprint or repair), not a new article's.
//
// It takes the partition-writes lock shared first, in the same round trip,
// so that a move or split of partitions (sentence_partitions_move.go) waits
// for this transaction to end and holds back the next; a rewrite takes the
// partition-rewrites lock shared too, which a split holds until the rows
// that moved are gone from their old partition.
func writeSentenceParts(ctx context.Context, db querier, rows [][]any, forget []int64, rewrite bool) error {
	if len(forget) == 0 && len(rows) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock_shared($1)`, partitionWritesLock)
	if rewrite || len(forget) > 0 {
		b.Queue(`SELECT pg_advisory_xact_lock_shared($1)`, partitionRewritesLock)
	}
	if len(forget) > 0 {
		b.Queue(`SELECT count(*) FROM sentence_proxy.forget_replaced($1::int8[])`, forget)
	}
	if len(rows) > 0 {
		cols := make([][]any, len(sentenceColumns))
		for _, r := range rows {
			for c := range cols {
				cols[c] = append(cols[c], r[c])
			}
		}
		b.Queue(`SELECT count(*) FROM sentence_proxy.write($1::int8[], $2::int4[], $3::int4[], $4::int4[], $5::int4[], $6::int8[], $7::int8[])`,
			cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6])
	}
	return interpretError(db.SendBatch(ctx, b).Close(), "write partition sentences")
}
