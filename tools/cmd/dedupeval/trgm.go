package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// trgmThresholds are the pg_trgm similarity thresholds evaluated: a pair is
// predicted duplicate when similarity(a.body, b.body) ≥ t, as the % operator
// decides.
var trgmThresholds = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}

// trgmResult is the baseline's figures.
type trgmResult struct {
	Tallies tallies
	Server  string // PostgreSQL's version string
	Locale  string // LC_CTYPE of the scratch database
	// AllPairs is how long the database took to find, with the GIN index,
	// every pair at or above the lowest threshold, and Queries how many
	// queries that covered.
	AllPairs time.Duration
	Queries  int
	// Lookups are the timings of single lookups at the chosen threshold:
	// against the stored originals, then against them and filler rows.
	Lookups []lookupTimings
}

// lookupTimings are single-query lookup times against a table.
type lookupTimings struct {
	Threshold float64
	Rows      int             // rows in the table looked up
	Index     time.Duration   // how long building its GIN index took
	Short     []time.Duration // queries under 500 runes
	Long      []time.Duration // queries of 500 runes or more
}

// scratch is a database of its own for the baseline, created for the run
// and dropped after it.
type scratch struct {
	server string    // DATABASE_URL, where the scratch database is created and dropped
	conn   *pgx.Conn // on the scratch database
	name   string
	locale string
}

// openScratch creates a scratch database through the server at
// databaseURL, with pg_trgm and the given LC_CTYPE. The locale matters:
// under LC_CTYPE C (a common default) pg_trgm sees no letter in Chinese text
// and finds no trigram at all, so every similarity would be 0.
func openScratch(ctx context.Context, databaseURL, locale string) (*scratch, error) {
	var suffix [6]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return nil, err
	}
	s := &scratch{server: databaseURL, name: "dedupeval_" + hex.EncodeToString(suffix[:]), locale: locale}
	dbURL, err := dbtest.CreateDatabase(ctx, databaseURL, s.name, dbtest.DatabaseOptions{Locale: locale})
	if err != nil {
		return nil, fmt.Errorf("the scratch database (locale %s): %w", locale, err)
	}
	if s.conn, err = pgx.Connect(ctx, dbURL); err != nil {
		return nil, errors.Join(fmt.Errorf("connect to the scratch database: %w", err), s.close())
	}
	if err := s.prepare(ctx); err != nil {
		return nil, errors.Join(err, s.close())
	}
	return s, nil
}

// prepare installs pg_trgm and checks that it sees Chinese.
func (s *scratch) prepare(ctx context.Context) error {
	if _, err := s.conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_trgm"); err != nil {
		return fmt.Errorf("create extension pg_trgm: %w", err)
	}
	var n int
	if err := s.conn.QueryRow(ctx, "SELECT coalesce(array_length(show_trgm('方鸿渐笑道'), 1), 0)").Scan(&n); err != nil {
		return fmt.Errorf("show_trgm: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("pg_trgm finds no trigram in Chinese text under LC_CTYPE %q; give -trgm-locale a UTF-8 locale the server has", s.locale)
	}
	return nil
}

// close drops the scratch database. It runs even when ctx was cancelled.
func (s *scratch) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var errs []error
	if s.conn != nil {
		errs = append(errs, s.conn.Close(ctx))
	}
	errs = append(errs, dbtest.DropDatabase(ctx, s.server, s.name))
	return errors.Join(errs...)
}

// load stores the originals' bodies in stored, with a GIN trigram index, and
// every query's body in queries.
func (s *scratch) load(ctx context.Context, c labelledCorpus, qs []query) error {
	for _, stmt := range []string{
		"CREATE TABLE stored (id int PRIMARY KEY, body text NOT NULL)",
		"CREATE TABLE queries (id int PRIMARY KEY, body text NOT NULL)",
	} {
		if _, err := s.conn.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("create tables: %w", err)
		}
	}
	stored := make([][]any, len(c.Originals))
	for i, o := range c.Originals {
		stored[i] = []any{i, o.Body}
	}
	if _, err := s.conn.CopyFrom(ctx, pgx.Identifier{"stored"}, []string{"id", "body"}, pgx.CopyFromRows(stored)); err != nil {
		return fmt.Errorf("copy stored: %w", err)
	}
	rows := make([][]any, len(qs))
	for i, q := range qs {
		rows[i] = []any{i, q.Doc.Body}
	}
	if _, err := s.conn.CopyFrom(ctx, pgx.Identifier{"queries"}, []string{"id", "body"}, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("copy queries: %w", err)
	}
	for _, stmt := range []string{
		"CREATE INDEX stored_body_trgm ON stored USING gin (body gin_trgm_ops)",
		"ANALYZE stored",
		"ANALYZE queries",
		// The tables are small enough for the planner to prefer scanning
		// them; the service's table would not be.
		"SET enable_seqscan = off",
	} {
		if _, err := s.conn.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}

// similarities asks the database for every (query, stored) pair whose
// similarity reaches the lowest threshold, through the GIN index, and
// tallies all pairs at every threshold: a pair it does not return is below
// all of them.
func (s *scratch) similarities(ctx context.Context, qs []query, stored int) (tallies, time.Duration, error) {
	if _, err := s.conn.Exec(ctx, fmt.Sprintf("SET pg_trgm.similarity_threshold = %v", trgmThresholds[0])); err != nil {
		return nil, 0, err
	}
	start := time.Now()
	rows, err := s.conn.Query(ctx, `
		SELECT q.id, m.id, m.sim
		FROM queries q CROSS JOIN LATERAL (
			SELECT s.id, similarity(s.body, q.body) AS sim FROM stored s WHERE s.body % q.body
		) m`)
	if err != nil {
		return nil, 0, fmt.Errorf("similarities: %w", err)
	}
	sims := make([]map[int]float32, len(qs))
	var qi, si int
	var sim float32
	_, err = pgx.ForEachRow(rows, []any{&qi, &si, &sim}, func() error {
		if qi < 0 || qi >= len(qs) || si < 0 || si >= stored {
			return fmt.Errorf("similarities: pair (%d, %d) out of range", qi, si)
		}
		if sims[qi] == nil {
			sims[qi] = make(map[int]float32)
		}
		sims[qi][si] = sim
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("similarities: %w", err)
	}
	elapsed := time.Since(start)
	ts := countPairs(qs, stored, len(trgmThresholds), func(q, s int, hits []bool) bool {
		v, ok := sims[q][s]
		if !ok {
			return false
		}
		for i, t := range trgmThresholds {
			// As the % operator compares: the float4 similarity against
			// the float8 threshold.
			hits[i] = float64(v) >= t
		}
		return true
	})
	return ts, elapsed, nil
}

// timeLookups times one lookup per sampled query in table, as a service
// built on pg_trgm would run it: the stored articles at or above threshold,
// most similar first, through the GIN index.
func (s *scratch) timeLookups(ctx context.Context, table string, qs []query, sample []int, threshold float64) (lookupTimings, error) {
	lt := lookupTimings{Threshold: threshold}
	if _, err := s.conn.Exec(ctx, fmt.Sprintf("SET pg_trgm.similarity_threshold = %v", threshold)); err != nil {
		return lt, err
	}
	if err := s.conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{table}.Sanitize()).Scan(&lt.Rows); err != nil {
		return lt, fmt.Errorf("count %s: %w", table, err)
	}
	lookup := `SELECT id, similarity(body, $1) AS sim FROM ` + pgx.Identifier{table}.Sanitize() + ` WHERE body % $1 ORDER BY sim DESC, id LIMIT 10`
	// One untimed run warms the cache and the prepared statement.
	for i, qi := range append([]int{sample[0]}, sample...) {
		start := time.Now()
		rows, err := s.conn.Query(ctx, lookup, qs[qi].Doc.Body)
		if err != nil {
			return lt, fmt.Errorf("lookup: %w", err)
		}
		for rows.Next() {
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return lt, fmt.Errorf("lookup: %w", err)
		}
		elapsed := time.Since(start)
		switch {
		case i == 0:
		case bands[qs[qi].Band].Long:
			lt.Long = append(lt.Long, elapsed)
		default:
			lt.Short = append(lt.Short, elapsed)
		}
	}
	return lt, nil
}

// serverInfo returns the server's version and the scratch database's
// LC_CTYPE.
func (s *scratch) serverInfo(ctx context.Context) (version, ctype string, err error) {
	err = s.conn.QueryRow(ctx, "SELECT current_setting('server_version'), (SELECT datctype FROM pg_database WHERE datname = current_database())").Scan(&version, &ctype)
	return version, ctype, err
}

// median returns the median of ds, or 0 when empty.
func median(ds []time.Duration) time.Duration { return percentile(ds, 50) }

// percentile returns the p-th percentile of ds (nearest rank), or 0 when
// empty.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := (p*len(s) + 99) / 100
	return s[max(rank, 1)-1]
}

// evaluateTrgm runs the whole baseline in a scratch database: load, every
// pair, then single lookups of the light copies at the threshold best picks
// from the tallies, against the stored originals and then against them
// with the filler rows added.
func evaluateTrgm(ctx context.Context, databaseURL, locale string, c labelledCorpus, qs []query, filler []string, best func(tallies) int) (res trgmResult, err error) {
	s, err := openScratch(ctx, databaseURL, locale)
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, s.close()) }()
	if res.Server, res.Locale, err = s.serverInfo(ctx); err != nil {
		return res, err
	}
	if err := s.load(ctx, c, qs); err != nil {
		return res, err
	}
	if res.Tallies, res.AllPairs, err = s.similarities(ctx, qs, len(c.Originals)); err != nil {
		return res, err
	}
	res.Queries = len(qs)
	var sample []int
	for i, q := range qs {
		if q.Edit == "light" {
			sample = append(sample, i)
		}
	}
	if len(sample) == 0 {
		return res, nil
	}
	threshold := trgmThresholds[best(res.Tallies)]
	lt, err := s.timeLookups(ctx, "stored", qs, sample, threshold)
	if err != nil {
		return res, err
	}
	res.Lookups = append(res.Lookups, lt)
	if len(filler) == 0 {
		return res, nil
	}
	build, err := s.loadLarge(ctx, filler)
	if err != nil {
		return res, err
	}
	lt, err = s.timeLookups(ctx, "stored_large", qs, sample, threshold)
	lt.Index = build
	res.Lookups = append(res.Lookups, lt)
	return res, err
}
