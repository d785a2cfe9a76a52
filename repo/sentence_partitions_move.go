package repo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Moving a sentence partition to another server, and splitting 2^k
// partitions into 2^(k+1), while the service serves: the new home
// subscribes to its source by logical replication (a row filter for a
// split), then writes pause (partitionWritesLock taken exclusively), the
// new home catches up, sentence_partitions is re-pointed in one
// transaction, and the lock goes. A split then deletes the moved rows from
// their old partition in batches, writes going on (lookups merge the
// duplicates: sentenceSearchFromParts). Lookups never pause. The steps
// and figures: docs/operations.md, "Moving and splitting sentence
// partitions".

// partitionWritesLock is the advisory lock (one bigint key) that every
// partition write takes shared, in its transaction, and a move or split
// exclusively while it re-points the partitions.
const partitionWritesLock int64 = 0x6e64_7061_7274 // "ndpart"

// partitionRewritesLock is the advisory lock every write that replaces a
// stored article's partition rows takes shared as well, and a split
// exclusively from its pause until the rows that moved are deleted from
// their old partition: a stale copy there of rows a correction replaced on
// the new one would be returned beside them. New articles' writes, the
// most, go on.
const partitionRewritesLock int64 = 0x6e64_7072_6577 // "ndprew"

// PartitionMove is what a move or a split did.
type PartitionMove struct {
	Rows  int64         // rows the new homes hold once caught up
	Copy  time.Duration // from the subscriptions to the pause
	Pause time.Duration // the writes held back
	Tidy  time.Duration // a split's delete of the moved rows, writes going on
}

// replication is one new home of sentence rows: its source, and the rows
// it takes (an SQL condition on article_id, "" for all).
type replication struct {
	name           string
	source, target string // libpq connection strings
	filter         string
}

// MovePartition moves partition part to the database at target (a libpq
// connection string the primary's PL/Proxy reaches it by, which this
// process uses too): prepared, filled by logical replication, then
// registered in the partition's place during a brief write pause. The old
// database keeps its rows; drop it when done.
func (s *Store) MovePartition(ctx context.Context, part int, target string) (PartitionMove, error) {
	connstrs, err := s.partitionConnstrs(ctx)
	if err != nil {
		return PartitionMove{}, err
	}
	if part < 0 || part >= len(connstrs) {
		return PartitionMove{}, fmt.Errorf("move sentence partition %d: there are %d", part, len(connstrs))
	}
	jobs := []replication{{name: "newsdedup_move_" + strconv.Itoa(part), source: connstrs[part], target: target}}
	return s.replicatePartitions(ctx, jobs, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE sentence_partitions SET connstr = $2 WHERE part = $1`, part, target)
		return err
	}, nil)
}

// SplitPartitions doubles the partitions, 2^k to 2^(k+1): targets, one for
// each partition there is, become partitions 2^k … 2^(k+1)-1, partition
// 2^k+p taking from p the articles whose hash has bit k set, as PL/Proxy
// routes them once the count doubles (hash & (2^(k+1)-1)).
func (s *Store) SplitPartitions(ctx context.Context, targets []string) (PartitionMove, error) {
	connstrs, err := s.partitionConnstrs(ctx)
	if err != nil {
		return PartitionMove{}, err
	}
	n := len(connstrs)
	if n == 0 || len(targets) != n {
		return PartitionMove{}, fmt.Errorf("split %d sentence partitions: want %d new ones, not %d", n, n, len(targets))
	}
	var jobs []replication
	for p, c := range connstrs {
		jobs = append(jobs, replication{
			name:   "newsdedup_split_" + strconv.Itoa(n+p),
			source: c, target: targets[p],
			filter: fmt.Sprintf("hashint8(article_id) & %d = %d", 2*n-1, n+p),
		})
	}
	return s.replicatePartitions(ctx, jobs, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO sentence_partitions (part, connstr)
			SELECT $1 + n - 1, c FROM unnest($2::text[]) WITH ORDINALITY AS t(c, n)`, n, targets)
		return err
	}, func(ctx context.Context, j replication) error {
		return deleteMovedRows(ctx, j.source, j.filter)
	})
}

// beforeTidy runs once a split is registered and before its moved rows are
// deleted; a test holds the split there.
var beforeTidy = func() {}

// deleteBatch is how many rows one transaction of deleteMovedRows looks at.
const deleteBatch = 20_000

// deleteMovedRows deletes from the partition at connstr the rows a split
// gave another (filter), once registered and with the writes going on: in
// transactions of a range of article ids each (about deleteBatch rows, by
// the primary key), so that none holds many row locks or runs long, and a
// range is read once. Nothing writes those rows meanwhile (their articles
// are routed to the new partition); a lookup sees them on both partitions
// until they go, and the merge keeps one (sentenceSearchFromParts).
func deleteMovedRows(ctx context.Context, connstr, filter string) error {
	c, err := pgx.Connect(ctx, connstr)
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	var lo int64
	if err := c.QueryRow(ctx, `SELECT coalesce(min(article_id), 0) FROM sentence_part.sentences`).Scan(&lo); err != nil {
		return err
	}
	for {
		// The range ends at the article id deleteBatch rows on (an index
		// scan of the primary key), or past the last row.
		var hi *int64
		err := c.QueryRow(ctx, `SELECT article_id FROM sentence_part.sentences WHERE article_id >= $1
			ORDER BY article_id OFFSET $2 LIMIT 1`, lo, deleteBatch).Scan(&hi)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if hi != nil && *hi == lo { // one article of more rows than a batch
			*hi = lo + 1
		}
		if hi == nil {
			_, err = c.Exec(ctx, `DELETE FROM sentence_part.sentences WHERE article_id >= $1 AND (`+filter+`)`, lo)
			return err
		}
		if _, err := c.Exec(ctx, `DELETE FROM sentence_part.sentences WHERE article_id >= $1 AND article_id < $2 AND (`+filter+`)`, lo, *hi); err != nil {
			return err
		}
		lo = *hi
	}
}

// partitionConnstrs returns the partitions' connection strings in order.
func (s *Store) partitionConnstrs(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT connstr FROM sentence_partitions ORDER BY part`)
	if err != nil {
		return nil, interpretError(err, "read sentence partitions")
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func onPartition(ctx context.Context, connstr, sql string, args ...any) error {
	c, err := pgx.Connect(ctx, connstr)
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	_, err = c.Exec(ctx, sql, args...)
	return err
}

// catchUpTimeout bounds the wait, writes paused, for a new home to reach
// its source's WAL position; past it the move gives up and changes nothing.
const catchUpTimeout = time.Minute

// replicatePartitions fills each job's target by logical replication,
// pauses the writes, waits for the targets to catch up, runs register in a
// transaction on the primary, then after (if any) for each job, and lets
// the writes go. On an error before register nothing is changed.
func (s *Store) replicatePartitions(ctx context.Context, jobs []replication,
	register func(pgx.Tx) error, after func(context.Context, replication) error) (out PartitionMove, err error) {
	began := time.Now()
	cleanup := func() {
		c := context.WithoutCancel(ctx)
		for _, j := range jobs {
			_ = onPartition(c, j.target, `DROP SUBSCRIPTION IF EXISTS `+j.name)
			_ = onPartition(c, j.source, `DROP PUBLICATION IF EXISTS `+j.name)
		}
	}
	defer cleanup()
	for _, j := range jobs {
		if err := PreparePartition(ctx, j.target); err != nil {
			return out, err
		}
		if err := emptyPartition(ctx, j.target); err != nil {
			return out, err
		}
		pub := `CREATE PUBLICATION ` + j.name + ` FOR TABLE sentence_part.sentences`
		if j.filter != "" {
			pub += ` WHERE (` + j.filter + `)`
		}
		if err := onPartition(ctx, j.source, `DROP PUBLICATION IF EXISTS `+j.name+`; `+pub); err != nil {
			return out, fmt.Errorf("publish %s: %w", j.name, err)
		}
		if err := onPartition(ctx, j.target, `CREATE SUBSCRIPTION `+j.name+` CONNECTION `+quoteLiteral(j.source)+
			` PUBLICATION `+j.name); err != nil {
			return out, fmt.Errorf("subscribe %s: %w", j.name, err)
		}
	}
	for _, j := range jobs {
		if err := waitCopied(ctx, j); err != nil {
			return out, err
		}
	}
	out.Copy = time.Since(began)

	// The pause.
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return out, interpretError(err, "pause partition writes")
	}
	// The lock is the session's: the connection goes back to the pool
	// only once it is released.
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, partitionWritesLock); err != nil {
		return out, interpretError(err, "pause partition writes")
	}
	if after != nil {
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, partitionRewritesLock); err != nil {
			_, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, partitionWritesLock)
			return out, interpretError(err, "pause partition rewrites")
		}
		defer func() {
			_, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, partitionRewritesLock)
		}()
	}
	paused := time.Now()
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			_, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, partitionWritesLock)
			out.Pause = time.Since(paused)
		}
	}
	defer resume()
	for _, j := range jobs {
		if err := waitCaughtUp(ctx, j); err != nil {
			return out, err
		}
		var rows int64
		if err := queryPartition(ctx, j.target, `SELECT count(*) FROM sentence_part.sentences`, &rows); err != nil {
			return out, err
		}
		out.Rows += rows
	}
	// The new homes stop following their sources before anything is
	// deleted there.
	for _, j := range jobs {
		if err := onPartition(ctx, j.target, `DROP SUBSCRIPTION `+j.name); err != nil {
			return out, fmt.Errorf("unsubscribe %s: %w", j.name, err)
		}
	}
	if err := pgx.BeginFunc(ctx, conn.Conn(), func(tx pgx.Tx) error {
		// The proxy functions of this release, as SetSentencePartitions
		// installs them.
		if _, err := tx.Exec(ctx, sentenceProxySQL); err != nil {
			return err
		}
		return register(tx)
	}); err != nil {
		return out, interpretError(err, "register sentence partitions")
	}
	s.parts.forget()
	// The writes go on: what remains (a split's rows leaving their old
	// partition) grows with the partition, and no write reaches those rows
	// any more.
	resume()
	if after != nil {
		beforeTidy()
		tidied := time.Now()
		for _, j := range jobs {
			if err := after(ctx, j); err != nil {
				return out, fmt.Errorf("%s, registered: %w", j.name, err)
			}
		}
		out.Tidy = time.Since(tidied)
	}
	return out, nil
}

// emptyPartition refuses a target that holds sentences already.
func emptyPartition(ctx context.Context, connstr string) error {
	var any bool
	if err := queryPartition(ctx, connstr, `SELECT EXISTS (SELECT 1 FROM sentence_part.sentences)`, &any); err != nil {
		return err
	}
	if any {
		return errors.New("the new partition holds sentences already: it must be empty")
	}
	return nil
}

func queryPartition(ctx context.Context, connstr, sql string, dest ...any) error {
	c, err := pgx.Connect(ctx, connstr)
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	return c.QueryRow(ctx, sql).Scan(dest...)
}

// waitCopied waits for j's subscription to have copied the table.
func waitCopied(ctx context.Context, j replication) error {
	c, err := pgx.Connect(ctx, j.target)
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	for {
		var ready bool
		err := c.QueryRow(ctx, `
			SELECT coalesce(bool_and(r.srsubstate = 'r'), false)
			FROM pg_subscription s JOIN pg_subscription_rel r ON r.srsubid = s.oid
			WHERE s.subname = $1`, j.name).Scan(&ready)
		if err != nil || ready {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// waitCaughtUp waits, writes paused, for j's subscription to confirm its
// source's WAL position of now.
func waitCaughtUp(ctx context.Context, j replication) error {
	c, err := pgx.Connect(ctx, j.source)
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	var target string
	if err := c.QueryRow(ctx, `SELECT pg_current_wal_lsn()::text`).Scan(&target); err != nil {
		return err
	}
	deadline := time.Now().Add(catchUpTimeout)
	for {
		var done bool
		err := c.QueryRow(ctx, `
			SELECT coalesce(bool_and(confirmed_flush_lsn >= $2::pg_lsn), false)
			FROM pg_replication_slots WHERE slot_name = $1`, j.name, target).Scan(&done)
		if err != nil || done {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not catch up with its source in %s", j.name, catchUpTimeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// SentencePartitions returns the partitions' connection strings, in order;
// none for the table sentences alone.
func (s *Store) SentencePartitions(ctx context.Context) ([]string, error) {
	return s.partitionConnstrs(ctx)
}
