package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// MethodResult is one method's figures at one tier.
type MethodResult struct {
	Method  string `json:"method"`
	Queries int    `json:"queries"`
	// DBMS is EXPLAIN ANALYZE's "Execution Time", in milliseconds.
	DBMS Summary `json:"db_ms"`
	// ClientMS is the round trip through pgx on loopback, rows read, in
	// milliseconds.
	ClientMS Summary `json:"client_ms"`
	// Examined is the rows the index conditions let through to the heap
	// (all rows for the full scan); Returned the rows within the distance.
	Examined   Summary `json:"examined"`
	Returned   Summary `json:"returned"`
	HeapBlocks Summary `json:"heap_blocks"`
	SharedHit  float64 `json:"shared_hit_mean"`
	SharedRead float64 `json:"shared_read_mean"`
	JITMS      float64 `json:"jit_ms_mean"`
	Plan       string  `json:"plan"`
	UsesIndex  bool    `json:"uses_index"`

	dbRaw []float64 // DBMS's sample, in query order
}

// sample collects one method's measurements.
type sample struct {
	m                                    method
	db, client, examined, returned, heap []float64
	hit, read, jit                       float64
	plan                                 string
	usesIndex                            bool
}

// measureMethods times each method on queries, side by side: for each
// query in turn, every method that takes it runs once under EXPLAIN
// (ANALYZE, BUFFERS, FORMAT JSON) and once as a plain query whose rows
// the client reads. Interleaving the methods spreads the noise of a shared
// machine evenly over them. counts[i] is how many of the queries method i
// takes (the first ones). Every method first runs up to ten warm-up queries that
// are not counted, so the figures are those of a warm cache: the eight block
// indexes are small enough to stay in memory on a real server.
func measureMethods(ctx context.Context, pool *pgxpool.Pool, methods []method, counts []int, queries []lookupQuery) ([]MethodResult, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("acquire a connection: %w", err)
	}
	defer conn.Release()

	samples := make([]*sample, len(methods))
	for i, m := range methods {
		samples[i] = &sample{m: m}
		warm := min(10, max(1, counts[i]/4))
		for _, q := range queries[len(queries)-warm:] {
			if _, err := runQuery(ctx, conn, m, q); err != nil {
				return nil, err
			}
		}
	}
	for qi, q := range queries {
		for k := range methods {
			// Every other query runs the methods in reverse order, so that
			// none always runs first (or second) on a page another warmed.
			i := k
			if qi%2 == 1 {
				i = len(methods) - 1 - k
			}
			m := methods[i]
			if qi >= counts[i] {
				continue
			}
			s := samples[i]
			e, err := explainQuery(ctx, conn, m, q)
			if err != nil {
				return nil, err
			}
			s.db = append(s.db, e.ExecutionMS)
			s.examined = append(s.examined, e.Examined)
			s.returned = append(s.returned, e.Returned)
			s.heap = append(s.heap, e.HeapBlocks)
			s.hit += e.SharedHit
			s.read += e.SharedRead
			s.jit += e.JITMS
			if s.plan == "" {
				s.plan, s.usesIndex = e.Shape, e.UsesIndexes
			}
			d, err := runQuery(ctx, conn, m, q)
			if err != nil {
				return nil, err
			}
			s.client = append(s.client, d.Seconds()*1000)
		}
	}
	out := make([]MethodResult, len(samples))
	for i, s := range samples {
		n := float64(max(len(s.db), 1))
		out[i] = MethodResult{
			Method:     s.m.Name,
			Queries:    len(s.db),
			DBMS:       summarize(s.db),
			ClientMS:   summarize(s.client),
			Examined:   summarize(s.examined),
			Returned:   summarize(s.returned),
			HeapBlocks: summarize(s.heap),
			SharedHit:  s.hit / n,
			SharedRead: s.read / n,
			JITMS:      s.jit / n,
			Plan:       s.plan,
			UsesIndex:  s.usesIndex,
			dbRaw:      s.db,
		}
	}
	return out, nil
}

// explainQuery runs q under EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON).
func explainQuery(ctx context.Context, conn *pgxpool.Conn, m method, q lookupQuery) (e explained, err error) {
	if err := setUp(ctx, conn, m); err != nil {
		return e, err
	}
	defer func() { err = errors.Join(err, tearDown(ctx, conn, m)) }()
	var out []byte
	err = conn.QueryRow(ctx, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "+m.SQL, m.Args(q)...).Scan(&out)
	if err != nil {
		return explained{}, fmt.Errorf("explain %s: %w", m.Name, err)
	}
	return parseExplain(out, m.Table)
}

// plannerChoice returns the plan the planner picks for q by itself (plain
// EXPLAIN, nothing run, no Set) and its estimated cost.
func plannerChoice(ctx context.Context, pool *pgxpool.Pool, m method, q lookupQuery) (explained, error) {
	var out []byte
	if err := pool.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+m.SQL, m.Args(q)...).Scan(&out); err != nil {
		return explained{}, fmt.Errorf("explain %s: %w", m.Name, err)
	}
	return parseExplain(out, m.Table)
}

func setUp(ctx context.Context, conn *pgxpool.Conn, m method) error {
	if m.Set == "" {
		return nil
	}
	_, err := conn.Exec(ctx, m.Set)
	return err
}

func tearDown(ctx context.Context, conn *pgxpool.Conn, m method) error {
	if m.Reset == "" {
		return nil
	}
	_, err := conn.Exec(ctx, m.Reset)
	return err
}

// runQuery runs q and reads its rows, and returns how long that took.
func runQuery(ctx context.Context, conn *pgxpool.Conn, m method, q lookupQuery) (d time.Duration, err error) {
	if err := setUp(ctx, conn, m); err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, tearDown(ctx, conn, m)) }()
	args := m.Args(q) // before the clock starts: the service's arguments are read off a lookup of its own
	start := time.Now()
	rows, err := conn.Query(ctx, m.SQL, args...)
	if err != nil {
		return 0, fmt.Errorf("query %s: %w", m.Name, err)
	}
	for rows.Next() {
		if _, err := rows.Values(); err != nil {
			rows.Close()
			return 0, fmt.Errorf("query %s: %w", m.Name, err)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("query %s: %w", m.Name, err)
	}
	return time.Since(start), nil
}
