package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// candidateCap is the LIMIT the service passes.
const candidateCap = service.CandidateCap

// maxDistance is the distance every method looks for.
const maxDistance = fingerprint.MaxIndexedDistance

// Method names, as the report and the JSON give them.
const (
	methodScan    = "full_scan"
	methodFamilyA = "family_a"
	methodBoth    = "both_families"
	methodBigint  = "both_families_bigint"
	methodTrgm    = "pg_trgm"
)

// method is one way to find the stored fingerprints within maxDistance
// bits of a query.
type method struct {
	Name  string
	Table string // the relation whose scans EXPLAIN counts
	SQL   string
	Args  func(q lookupQuery) []any
	// Set and Reset, when not empty, run before and after each query of
	// the method, untimed.
	Set, Reset string
}

const trgmSQL = `SELECT id, similarity(body, $1) FROM articles WHERE body % $1 ORDER BY similarity(body, $1) DESC LIMIT 10`

// candidateColumns are what the service's statement returns for a
// candidate: every method returns the same, to be compared fairly.
const candidateColumns = `id, external_id, source, title, published_at, simhash, words, content_hash, cluster_id`

// Distances are compared with the same expression in every method.
const withinDistance = `bit_count((simhash # $1)::bit(64)) <= 3`

var (
	// scanMethod reads every row: what the table would cost without the
	// block indexes.
	scanMethod = method{
		Name:  methodScan,
		Table: "articles",
		SQL:   `SELECT ` + candidateColumns + ` FROM articles WHERE ` + withinDistance,
		Args:  func(q lookupQuery) []any { return []any{int64(q.Simhash)} },
	}
	// familyAMethod uses the four family-A indexes alone: one unchanged
	// block in four is enough to keep every match, but lets 4/65536 of
	// unrelated rows through.
	familyAMethod = method{
		Name:  methodFamilyA,
		Table: "articles",
		SQL: `SELECT ` + candidateColumns + ` FROM articles
			WHERE (a0 = $2 OR a1 = $3 OR a2 = $4 OR a3 = $5) AND ` + withinDistance,
		Args: func(q lookupQuery) []any {
			b := fingerprint.BlocksOf(q.Simhash)
			return []any{int64(q.Simhash), int16(b.A[0]), int16(b.A[1]), int16(b.A[2]), int16(b.A[3])}
		},
	}
	// trgmMethod is what a text-similarity index would do instead: pg_trgm
	// on the body, asked with a repost's text. Sequential scans are off:
	// given a whole article's text, with its thousand or more trigrams, the
	// planner prices the GIN index above a scan of the table and picks the
	// scan, which computes similarity() on every row (seconds at 20,000
	// rows); the figures are those of the index the method is about.
	trgmMethod = method{
		Name:  methodTrgm,
		Table: "articles",
		SQL:   trgmSQL,
		Args:  func(q lookupQuery) []any { return []any{q.Body} },
		Set:   "SET enable_seqscan = off",
		Reset: "RESET enable_seqscan",
	}
)

// maskedBlocks are the eight block values of the bigint layout: the
// simhash under each mask, unpacked.
func maskedBlocks(h uint64) []int64 {
	out := make([]int64, 0, 8)
	for _, m := range fingerprint.FamilyA {
		out = append(out, int64(h&m))
	}
	for _, m := range fingerprint.FamilyB {
		out = append(out, int64(h&m))
	}
	return out
}

// bothMethod is the service's query, with no publication window: every row
// is eligible.
func bothMethod(ctx context.Context, st *serviceStatement) (method, error) {
	sql, _, err := st.of(ctx, 0)
	return method{
		Name:  methodBoth,
		Table: "articles",
		SQL:   sql,
		Args:  func(q lookupQuery) []any { return serviceArgs(ctx, st, q.Simhash) },
	}, err
}

// bigintMethod is the service's query on articles_masked, whose block
// columns are bigint and hold simhash & mask.
func bigintMethod(ctx context.Context, st *serviceStatement) (method, error) {
	sql, _, err := st.of(ctx, 0)
	if err != nil {
		return method{}, err
	}
	// The same statement on the other table, its block values (or arrays
	// of them) bigint.
	masked := strings.ReplaceAll(strings.Replace(sql, "FROM articles a\n", "FROM articles_masked a\n", 1), "::int2", "::int8")
	if !strings.Contains(masked, "articles_masked") || strings.Contains(masked, "::int2") {
		return method{}, fmt.Errorf("the service's candidate statement changed shape; the bigint variant cannot be derived from it:\n%s", sql)
	}
	return method{
		Name:  methodBigint,
		Table: "articles_masked",
		SQL:   masked,
		Args: func(q lookupQuery) []any {
			args := serviceArgs(ctx, st, q.Simhash)
			// The eight block values come first: scalars in the statement
			// for one fingerprint, one-element arrays in the one for
			// several.
			for i, v := range maskedBlocks(q.Simhash) {
				switch args[i].(type) {
				case int16:
					args[i] = v
				case []int16:
					args[i] = []int64{v}
				}
			}
			return args
		},
	}, nil
}

// serviceArgs are the arguments the service's query takes for a lookup of
// h; nil if the store failed, which the query's run then reports.
func serviceArgs(ctx context.Context, st *serviceStatement, h uint64) []any {
	_, args, err := st.of(ctx, h)
	if err != nil {
		return nil
	}
	return args
}
