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
	// The service's statements are index probes that run for milliseconds;
	// PostgreSQL's JIT compiler, on by default, compiles a statement whose
	// estimated cost passes jit_above_cost before running it. A writer's
	// sentence search for a whole batch, planned at each run for its
	// thousands of sentences, passes it, and a statement bound by its index
	// probes has little for compiled expressions to speed up. In
	// dedupbench's real-news batch ingest with the sentence index (-only
	// news-ingest, pg_stat_statements), 11–26 % of those searches' time
	// went to JIT: 0.58 s of 5.3 s and 1.26 s of 4.8 s for about 140
	// searches (2 clients), 0.82 s of 5.1 s and 0.92 s of 4.6 s for 163 (4
	// clients); with it off, none, and the same searches took 3.5–4.8 s in
	// all (two runs). Nothing else the service runs was compiled. Off for
	// the service's sessions alone, unless the database URL sets jit;
	// analysts' reports, in sessions of their own, keep the server's
	// setting.
	if _, set := cfg.ConnConfig.RuntimeParams["jit"]; !set {
		cfg.ConnConfig.RuntimeParams["jit"] = "off"
	}
	// plan_cache_mode stays PostgreSQL's default, under which a statement
	// pgx has prepared gets a generic plan once five runs suggest that one
	// plan fits all; a writer's reads of the articles table opt out
	// (planEachRunMode). Generic plans forced on every statement
	// (force_generic_plan) were measured: 16 clients' checks at 1,000,000
	// articles answered a fifth more a second (744 → 885 and 922 reposts a
	// second), but batch ingest into a young table fell by a quarter (1,477
	// and 1,385 → 1,152 and 1,023 articles/s, 2 clients, no sentence index).
	// A database URL may still set plan_cache_mode.

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
		queries:     queries{db: pool},
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
	if err := fn(&storeTx{queries: queries{db: tx, planEachRun: s.writersPlan}}); err != nil {
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
// (queries of InTx), its candidate search first. pgx sends it as the
// unnamed statement, with its description cached (one round trip), or
// described on every run (two) when the database URL turned that cache off
// (description_cache_capacity=0) — never as a prepared statement, which
// may get a generic plan. A generic plan is made for the
// table as it is when the plan is chosen and kept until ANALYZE replaces it;
// chosen while the table is nearly empty, in a new deployment's first minute
// or an archive's import, it reads the whole table, and kept while the
// writers grow it, every lookup read every stored article: 175 ms a group of
// 100 articles at 8,000 stored (auto_explain, real news into an empty
// database), until autovacuum analyzed the table
// (TestYoungTableKeepsUsingTheIndex).
//
// Measured on real news (dedupbench -only news-ingest, then -only
// news-check, against the code before, in turn, on a loaded machine):
// batch ingest into an empty database 393–453 articles/s with the sentence
// index, 1,065–1,260 without, against 375–411 and 1,049–1,200 before, and
// 463–487 against 456–460 into 1,000,000 articles. A check keeps its
// prepared statement: planned each run, 16 clients' checks at 1,000,000
// articles answered 17–26 % fewer requests a second (means of two runs:
// 272 against 366 reposts a second, 364 against 439 new stories) —
// PostgreSQL's generic plan there is the block indexes' (TestLargeTable)
// and saves the planning. Checks do not grow the table; on a young one,
// autovacuum's next ANALYZE corrects their plan.
//
// A writer's other reads of the articles table are sent the same way: the
// articles under its articles' keys, the candidates its sentences lead to,
// and the sentence search, which reads the articles of the sentences it
// matches. Their generic plans made for an empty table read every stored
// article (auto_explain, real news into an empty database, 16 clients
// posting single articles with the sentence index, a 17 s run: all 747
// key lookups, 782 of 863 candidate reads and all 910 sentence searches
// seq-scanned the articles table, 1.3 s, 0.7 s and 7.0 s of statement
// time; planned at each run, 0.03 s, 0.12 s and 3.7 s in the same kind of
// run). TestYoungTableKeepsUsingTheIndex checks all of them.
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
