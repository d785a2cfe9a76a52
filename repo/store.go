package repo

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/service"
)

var _ service.Store = (*Store)(nil)

// Options size the pool and bound every wait on the database.
type Options struct {
	MaxConns         int32         // the pool's size; 0 for pgx's default (4 or the CPUs)
	ConnectTimeout   time.Duration // per connection attempt; 0 for 5 s
	StatementTimeout time.Duration // per statement, lock waits included; 0 for none
	// SearchParts is how many statements at most a long sentence search
	// outside a transaction is split into when the pool is idle
	// (sentence_parts.go): the database's cores. 0 for this machine's
	// (GOMAXPROCS), 1 never to split.
	SearchParts int
	// Tracer, when set, sees every statement the store runs, with its
	// arguments (pgx's tracing hook): for statement logs and metrics, and for
	// the benchmarks, which EXPLAIN the statements as the service runs them.
	Tracer pgx.QueryTracer
}

// Parts is SearchParts resolved: this machine's cores when it is 0.
func (o Options) Parts() int { return cmp.Or(o.SearchParts, runtime.GOMAXPROCS(0)) }

// Store is the PostgreSQL implementation of service.Store. It is safe for
// concurrent use.
type Store struct {
	queries
	pool        *pgxpool.Pool
	writersPlan pgx.QueryExecMode // how its writers send their reads of the articles table (planEachRunMode)
	searchParts int               // Options.SearchParts, 0 resolved
}

// Open returns a Store over a pool of connections to databaseURL. It does not
// wait for the database: the pool connects on first use, so the service
// starts, and reports itself unready, while the database is down.
func Open(ctx context.Context, databaseURL string, opts Options) (*Store, error) {
	cfg, err := parseConfig(databaseURL)
	if err != nil {
		return nil, err
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	cfg.ConnConfig.ConnectTimeout = cmp.Or(opts.ConnectTimeout, 5*time.Second)
	if opts.StatementTimeout > 0 {
		ms := strconv.FormatInt(opts.StatementTimeout.Milliseconds(), 10)
		cfg.ConnConfig.RuntimeParams["statement_timeout"] = ms
		cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = ms
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = "dedupd"
	// PostgreSQL's JIT compiler spends more compiling a writer's batch
	// sentence search than it saves on a statement bound by index probes
	// (docs/design-notes.md, "How the writers' statements are planned").
	// Off for the service's sessions alone, unless the database URL sets
	// jit; analysts' reports, in sessions of their own, keep the server's.
	if _, set := cfg.ConnConfig.RuntimeParams["jit"]; !set {
		cfg.ConnConfig.RuntimeParams["jit"] = "off"
	}
	// plan_cache_mode stays PostgreSQL's default, under which a statement
	// pgx has prepared gets a generic plan once five runs suggest that one
	// plan fits all; a writer's reads of the articles table opt out
	// (planEachRunMode). Forcing generic plans on all was measured and not
	// kept (docs/design-notes.md); a database URL may still set it.

	// Acknowledged means stored as the server's synchronous_commit says:
	// on a formation, on the synchronous standby too (docs/operations.md).
	switch v := cfg.ConnConfig.RuntimeParams["synchronous_commit"]; strings.ToLower(v) {
	case "", "on", "true", "yes", "1", "remote_apply":
	default:
		return nil, fmt.Errorf("the database URL sets synchronous_commit=%s, which would acknowledge writes "+
			"before the server's setting does: remove it (docs/operations.md)", v)
	}
	cfg.ConnConfig.Tracer = opts.Tracer
	cfg.ConnConfig.OnPgError = dropReadOnly(cfg.ConnConfig.OnPgError)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database pool: %w", err)
	}
	return &Store{
		queries:     queries{db: pool, parts: &partitioning{}},
		pool:        pool,
		writersPlan: planEachRunMode(cfg.ConnConfig),
		searchParts: opts.Parts(),
	}, nil
}

// dropReadOnly closes a connection whose server refused a write as
// read-only, besides what next (pgx's handler: close on FATAL) closes. A
// database URL of several hosts with target_session_attrs=read-write
// chooses the server that accepts writes at each connection; a connection
// kept in the pool to a server that stopped accepting them (a primary
// being demoted) must go, for the next one to reach the new primary.
func dropReadOnly(next pgconn.PgErrorHandler) pgconn.PgErrorHandler {
	return func(c *pgconn.PgConn, err *pgconn.PgError) bool {
		if err.Code == readOnlyTransaction {
			return false
		}
		return next == nil || next(c, err)
	}
}

// Close waits for the pool's connections to be released and closes them.
func (s *Store) Close() { s.pool.Close() }

// Ping reports whether the database answers and accepts writes. A
// connection to a server that does not (a standby, a primary being demoted)
// is closed, and Ping returns KindUnavailable.
func (s *Store) Ping(ctx context.Context) error {
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return interpretError(err, "ping database")
	}
	defer c.Release()
	var readOnly bool
	err = c.QueryRow(ctx, `SELECT pg_is_in_recovery() OR current_setting('transaction_read_only')::bool`).Scan(&readOnly)
	if err != nil {
		return interpretError(err, "ping database")
	}
	if readOnly {
		_ = c.Conn().Close(ctx)
		return &service.Error{Kind: service.KindUnavailable, Message: "the database does not accept writes (a standby, or a primary being demoted)"}
	}
	return nil
}

// LockTableSize returns how many locks the server can hold at once, all
// sessions together: the size of its shared lock table.
func (s *Store) LockTableSize(ctx context.Context) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `
		SELECT current_setting('max_locks_per_transaction')::int
		     * (current_setting('max_connections')::int + current_setting('max_prepared_transactions')::int)`).Scan(&n)
	return n, interpretError(err, "read the lock table's size")
}

// InTx runs fn in one READ COMMITTED transaction and commits if fn returns
// nil; otherwise it rolls back and returns fn's error.
func (s *Store) InTx(ctx context.Context, fn func(service.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return interpretError(err, "begin transaction")
	}
	if err := fn(&storeTx{queries: queries{db: tx, planEachRun: s.writersPlan, parts: s.parts}}); err != nil {
		// Roll back without the caller's context: it may be the one that
		// expired, and the connection must go back to the pool clean.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = tx.Rollback(rctx)
		return err
	}
	return interpretError(tx.Commit(ctx), "commit transaction")
}

// planEachRunMode is how a statement is sent that PostgreSQL must plan for
// its values every time it runs: a writer's reads of the articles table
// (queries of InTx) — its candidate search, the articles under its keys,
// the candidates its sentences lead to and the sentence search. pgx sends
// it as the unnamed statement, with its description cached (one round
// trip), or described on every run (two) when the database URL turned that
// cache off (description_cache_capacity=0) — never as a prepared
// statement, which may get a generic plan. A generic plan is kept until
// ANALYZE replaces it: made while the table was nearly empty (a new
// deployment, an archive's import) and kept while the writers grow it, it
// reads every stored article. A check keeps its prepared statements, whose
// generic plans are the indexes' and save the planning; checks do not grow
// the table. TestYoungTableKeepsUsingTheIndex checks the writers' reads;
// the figures: docs/design-notes.md, "How the writers' statements are
// planned".
func planEachRunMode(cfg *pgx.ConnConfig) pgx.QueryExecMode {
	if cfg.DescriptionCacheCapacity == 0 {
		return pgx.QueryExecModeDescribeExec
	}
	return pgx.QueryExecModeCacheDescribe
}

// querier is what pgxpool.Pool and pgx.Tx have in common.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, rows pgx.CopyFromSource) (int64, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// storeTx is the Store's service.Tx.
type storeTx struct {
	queries
}

var _ service.Tx = (*storeTx)(nil)
