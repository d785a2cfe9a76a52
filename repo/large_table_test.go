package repo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// largeTable is a table large enough for the planner to care: 20,000 real
// articles from 围城 (5,000 originals and three edited copies of each) and
// 100,000 extra fingerprints, half random and half a few bits away from the
// real ones, so that distances 0–5 are all well represented.
type largeTable struct {
	store    *repo.Store
	version  fingerprint.Version
	real     []uint64         // the simhashes of the stored real articles
	unstored []corpus.Article // edited copies that are not stored, to query with
}

const (
	originals     = 5_000
	editsEach     = 3
	extraRandom   = 50_000
	extraFlipped  = 50_000
	minArticleLen = 300
	maxArticleLen = 1500
)

func buildLargeTable(t *testing.T) *largeTable {
	t.Helper()
	ctx := context.Background()
	st := newStore(t, 4)
	n := novel(t)
	alg := algorithm(t)
	rng := rand.New(rand.NewPCG(20261123, 1))

	var articles []corpus.Article
	for _, a := range n.Overlapping(rng, originals, minArticleLen, maxArticleLen) {
		articles = append(articles, a)
		for range editsEach {
			articles = append(articles, n.Apply(rng, a, corpus.AllEdits[rng.IntN(len(corpus.AllEdits))]))
		}
	}
	fps := fingerprintAll(t, alg, articles)

	rows := make([]repo.CopyRow, 0, len(articles)+extraRandom+extraFlipped)
	lt := &largeTable{store: st, version: alg.Version()}
	for i, fp := range fps {
		row := fixtureRow("real", i, fp.Simhash, alg.Version())
		row.Article.Words, row.Article.ContentHash = fp.Words, fp.ContentHash
		rows = append(rows, row)
		lt.real = append(lt.real, fp.Simhash)
	}
	for i := range extraRandom {
		rows = append(rows, fixtureRow("random", i, rng.Uint64(), alg.Version()))
	}
	for i := range extraFlipped {
		h := flipBits(rng, lt.real[rng.IntN(len(lt.real))], 1+rng.IntN(5))
		rows = append(rows, fixtureRow("flipped", i, h, alg.Version()))
	}
	if _, err := st.CopyArticles(ctx, rows); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, "ANALYZE articles"); err != nil {
		t.Fatal(err)
	}
	for _, a := range n.Overlapping(rng, 200, minArticleLen, maxArticleLen) {
		lt.unstored = append(lt.unstored, n.Apply(rng, a, corpus.Light))
	}
	return lt
}

// fingerprintAll fingerprints articles on every CPU.
func fingerprintAll(t testing.TB, alg fingerprint.Algorithm, articles []corpus.Article) []fingerprint.Fingerprint {
	t.Helper()
	fps := make([]fingerprint.Fingerprint, len(articles))
	errs := make([]error, len(articles))
	var wg sync.WaitGroup
	const workers = 4
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(articles); i += workers {
				fps[i], errs[i] = alg.Fingerprint(context.Background(), fingerprint.Document{Title: articles[i].Title, Body: articles[i].Body})
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("fingerprint article %d: %v", i, err)
		}
	}
	return fps
}

// flipBits returns h with n distinct random bits flipped.
func flipBits(rng *rand.Rand, h uint64, n int) uint64 {
	for _, i := range rng.Perm(64)[:n] {
		h ^= 1 << i
	}
	return h
}

// TestLargeTable checks the candidate query on 120,000 stored fingerprints:
// that it returns exactly what a full scan returns, and that PostgreSQL
// answers it through the block indexes.
func TestLargeTable(t *testing.T) {
	lt := buildLargeTable(t)
	t.Run("indexed query equals brute force", lt.testExactAgainstBruteForce)
	t.Run("plan uses the block indexes", lt.testPlan)
}

// queries returns the fingerprints the exactness test asks about: stored
// real ones, unstored reposts, stored ones with 0–4 bits flipped, random.
func (lt *largeTable) queries(t *testing.T) []uint64 {
	rng := rand.New(rand.NewPCG(7, 7))
	var qs []uint64
	for range 150 {
		qs = append(qs, lt.real[rng.IntN(len(lt.real))])
	}
	for _, fp := range fingerprintAll(t, algorithm(t), lt.unstored[:150]) {
		qs = append(qs, fp.Simhash)
	}
	for i := range 250 {
		qs = append(qs, flipBits(rng, lt.real[rng.IntN(len(lt.real))], i%5))
	}
	for range 50 {
		qs = append(qs, rng.Uint64())
	}
	return qs
}

func (lt *largeTable) testExactAgainstBruteForce(t *testing.T) {
	ctx := context.Background()
	queries := lt.queries(t)
	found := make([]int, fingerprint.MaxIndexedDistance+1)
	for qi, h := range queries {
		brute := lt.bruteForce(t, h) // id → distance, for every row within 3 bits
		// Each distance asked alone (the statement for one fingerprint),
		// then all four in one call (the statement for several).
		var all []service.NearQuery
		for k := 0; k <= fingerprint.MaxIndexedDistance; k++ {
			all = append(all, service.NearQuery{Simhash: h, Version: lt.version, MaxDistance: k})
		}
		together, err := lt.store.NearCandidates(ctx, all)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k <= fingerprint.MaxIndexedDistance; k++ {
			var want []int64
			for id, d := range brute {
				if d <= k {
					want = append(want, id)
				}
			}
			slices.Sort(want)
			alone, err := lt.store.NearCandidates(ctx, all[k:k+1])
			if err != nil {
				t.Fatal(err)
			}
			for form, cs := range map[string][]service.Candidate{"alone": alone[0], "together": together[k]} {
				var got []int64
				for _, c := range cs {
					got = append(got, c.ID)
					if d := fingerprint.Distance(c.Simhash, h); d > k {
						t.Errorf("query %d (%016x), k=%d, asked %s: candidate %d at distance %d", qi, h, k, form, c.ID, d)
					}
				}
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("query %d (%016x), k=%d, asked %s: the index returned %d rows %v, the full scan %d rows %v",
						qi, h, k, form, len(got), got, len(want), want)
				}
			}
			found[k] += len(want)
		}
	}
	t.Logf("%d queries; rows within distance k, summed over the queries: k=0:%d k=1:%d k=2:%d k=3:%d",
		len(queries), found[0], found[1], found[2], found[3])
	// The comparison means something only if the queries find many rows at
	// every distance.
	for k, n := range found {
		if n < 100 {
			t.Errorf("only %d rows within distance %d over all queries: the fixture is too thin to prove exactness", n, k)
		}
	}
}

// bruteForce scans the whole table with bit_count and no index.
func (lt *largeTable) bruteForce(t *testing.T, h uint64) map[int64]int {
	ctx := context.Background()
	rows, err := lt.store.Pool().Query(ctx, `
		SELECT id, bit_count((simhash # $1)::bit(64))::int
		FROM articles
		WHERE fingerprint_version = $2 AND bit_count((simhash # $1)::bit(64)) <= 3`, int64(h), lt.version)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[int64]int)
	var id int64
	var d int
	if _, err := pgx.ForEachRow(rows, []any{&id, &d}, func() error { out[id] = d; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// testPlan checks the plans of both forms of the candidate statement:
// for several fingerprints (arrays) and for one (scalars).
func (lt *largeTable) testPlan(t *testing.T) {
	q := service.NearQuery{Simhash: lt.real[0], Version: lt.version, MaxDistance: 3, Limit: 1000}
	t.Run("several", func(t *testing.T) {
		lt.testPlanOf(t, repo.NearCandidatesSQL, repo.NearCandidatesArgs([]service.NearQuery{q}))
	})
	t.Run("one", func(t *testing.T) {
		lt.testPlanOf(t, repo.NearCandidateSQL, repo.NearCandidateArgs(q))
	})
}

func (lt *largeTable) testPlanOf(t *testing.T, sql string, args []any) {
	ctx := context.Background()
	t.Run("custom plan", func(t *testing.T) {
		var plan []byte
		if err := lt.store.Pool().QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+sql, args...).Scan(&plan); err != nil {
			t.Fatal(err)
		}
		checkBlockPlan(t, plan)
	})

	// A prepared statement run often gets a generic plan, made without the
	// parameters' values: it must use the indexes too.
	t.Run("generic plan", func(t *testing.T) {
		checkBlockPlan(t, genericPlan(t, lt.store, sql, args))
	})
}

// genericPlan is EXPLAIN's JSON of the plan PostgreSQL makes for sql
// without its arguments' values, as it may for a prepared statement run
// often, run with args.
func genericPlan(t *testing.T, st *repo.Store, sql string, args []any) []byte {
	t.Helper()
	ctx := context.Background()
	conn, err := st.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
		t.Fatal(err)
	}
	defer conn.Exec(ctx, "DEALLOCATE generic_q; RESET plan_cache_mode")
	if _, err := conn.Exec(ctx, "PREPARE generic_q AS "+sql); err != nil {
		t.Fatal(err)
	}
	var plan []byte
	if err := conn.QueryRow(ctx, "EXPLAIN (FORMAT JSON) EXECUTE generic_q("+literals(t, args)+")").Scan(&plan); err != nil {
		t.Fatal(err)
	}
	return plan
}

// literals renders the query's arguments as SQL literals for EXECUTE. They
// are numbers, arrays of numbers and time bounds made by this test, never
// text from outside.
func literals(t *testing.T, args []any) string {
	var out []string
	for _, a := range args {
		out = append(out, literal(t, a))
	}
	return strings.Join(out, ", ")
}

func literal(t *testing.T, a any) string {
	switch v := a.(type) {
	case int16, int32, int64, int, fingerprint.Version:
		return fmt.Sprint(v)
	case *int32:
		if v == nil {
			return "NULL"
		}
		return fmt.Sprint(*v)
	case *time.Time:
		if v != nil {
			t.Fatalf("literals: a time bound %v; the plan test runs with none", v)
		}
		return "NULL"
	case pgtype.Timestamptz:
		switch v.InfinityModifier {
		case pgtype.NegativeInfinity:
			return "'-infinity'::timestamptz"
		case pgtype.Infinity:
			return "'infinity'::timestamptz"
		}
		t.Fatalf("literals: a time bound %v; the plan test runs with none", v)
	}
	rv := reflect.ValueOf(a)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return "NULL"
		}
		return literal(t, rv.Elem().Interface())
	}
	if rv.Kind() != reflect.Slice {
		t.Fatalf("literals: unexpected argument %T %v", a, a)
	}
	elems := make([]string, rv.Len())
	for i := range elems {
		elems[i] = literal(t, rv.Index(i).Interface())
	}
	return "ARRAY[" + strings.Join(elems, ", ") + "]"
}

// planNode is the part of EXPLAIN's JSON that the test reads.
type planNode struct {
	NodeType  string     `json:"Node Type"`
	IndexName string     `json:"Index Name"`
	IndexCond string     `json:"Index Cond"`
	Plans     []planNode `json:"Plans"`
}

// checkBlockPlan asserts that the plan holds a BitmapAnd of two BitmapOrs,
// one over the four family-A indexes and one over the four family-B ones.
func checkBlockPlan(t *testing.T, raw []byte) {
	t.Helper()
	var doc []struct {
		Plan planNode `json:"Plan"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc) != 1 {
		t.Fatalf("cannot read the plan (%v): %s", err, raw)
	}
	and := findNode(&doc[0].Plan, "BitmapAnd")
	if and == nil {
		t.Fatalf("the plan has no BitmapAnd:\n%s", raw)
	}
	var families []string
	for _, or := range and.Plans {
		if or.NodeType != "BitmapOr" {
			t.Fatalf("a child of the BitmapAnd is a %s, not a BitmapOr:\n%s", or.NodeType, raw)
		}
		var indexes []string
		for _, scan := range or.Plans {
			if scan.NodeType != "Bitmap Index Scan" {
				t.Fatalf("a child of a BitmapOr is a %s:\n%s", scan.NodeType, raw)
			}
			indexes = append(indexes, scan.IndexName)
		}
		slices.Sort(indexes)
		families = append(families, strings.Join(indexes, ","))
	}
	slices.Sort(families)
	want := []string{
		"articles_a0_idx,articles_a1_idx,articles_a2_idx,articles_a3_idx",
		"articles_b0_idx,articles_b1_idx,articles_b2_idx,articles_b3_idx",
	}
	if !slices.Equal(families, want) {
		t.Errorf("the BitmapAnd combines %v, want %v:\n%s", families, want, raw)
	}
}

func findNode(n *planNode, nodeType string) *planNode {
	if n.NodeType == nodeType {
		return n
	}
	for i := range n.Plans {
		if found := findNode(&n.Plans[i], nodeType); found != nil {
			return found
		}
	}
	return nil
}
