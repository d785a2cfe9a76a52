package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// ColumnTypeResult compares the schema's smallint block columns (16 bits
// packed) with bigint columns holding simhash & mask, on the same rows.
type ColumnTypeResult struct {
	N            int          `json:"n"`
	Smallint     Sizes        `json:"smallint_sizes"`
	Bigint       Sizes        `json:"bigint_sizes"`
	SmallintLook MethodResult `json:"smallint_lookup"`
	BigintLook   MethodResult `json:"bigint_lookup"`
	BuildSeconds float64      `json:"build_seconds"`
	// PairedRatio is the median over the queries of bigint's time over
	// smallint's for the same query, in the database: robust to the noise
	// of a shared machine, which moves both alike.
	PairedRatio float64 `json:"paired_ratio_bigint_over_smallint"`
	Better      string  `json:"better"`
	Why         string  `json:"why"`
}

// buildMaskedTable copies articles into articles_masked with the same
// columns in the same order, except that a0..b3 are bigint holding simhash
// & mask; it gives it the same eight B-trees and VACUUM ANALYZEs it.
func buildMaskedTable(ctx context.Context, pool *pgxpool.Pool) error {
	var blocks []string
	for j, m := range fingerprint.FamilyA {
		blocks = append(blocks, fmt.Sprintf("(simhash & %d) AS a%d", int64(m), j))
	}
	for j, m := range fingerprint.FamilyB {
		blocks = append(blocks, fmt.Sprintf("(simhash & %d) AS b%d", int64(m), j))
	}
	statements := []string{
		"DROP TABLE IF EXISTS articles_masked",
		`CREATE TABLE articles_masked AS
		 SELECT id, source, external_id, title, url, body, content_type, published_at, ingested_at,
		        content_hash, simhash, fingerprint_version, ` + strings.Join(blocks, ", ") + `,
		        words, shingles, status, duplicate_of, cluster_id, distance, word_ratio, overlap
		 FROM articles ORDER BY id`,
	}
	for _, c := range []string{"a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3"} {
		statements = append(statements, fmt.Sprintf("CREATE INDEX articles_masked_%s_idx ON articles_masked (%s)", c, c))
	}
	statements = append(statements, "VACUUM (ANALYZE) articles_masked", "CHECKPOINT")
	for _, s := range statements {
		if _, err := pool.Exec(ctx, s); err != nil && s != "CHECKPOINT" {
			return fmt.Errorf("%s: %w", firstLine(s), err)
		}
	}
	return nil
}

// compareColumnTypes builds the bigint layout next to the tier's table and
// measures both side by side with the same queries.
func compareColumnTypes(ctx context.Context, t *tierDB, queries []lookupQuery) (*ColumnTypeResult, error) {
	start := time.Now()
	if err := buildMaskedTable(ctx, t.Pool); err != nil {
		return nil, err
	}
	r := &ColumnTypeResult{N: t.N, BuildSeconds: time.Since(start).Seconds()}
	var err error
	if r.Smallint, err = tableSizes(ctx, t.Pool, "articles"); err != nil {
		return nil, err
	}
	if r.Bigint, err = tableSizes(ctx, t.Pool, "articles_masked"); err != nil {
		return nil, err
	}
	for _, table := range []string{"articles", "articles_masked"} {
		if err := prewarm(ctx, t.Pool, table); err != nil {
			return nil, err
		}
	}
	st, err := newServiceStatement(ctx, t.URL)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	both, err := bothMethod(ctx, st)
	if err != nil {
		return nil, err
	}
	bigint, err := bigintMethod(ctx, st)
	if err != nil {
		return nil, err
	}
	res, err := measureMethods(ctx, t.Pool, []method{both, bigint}, []int{len(queries), len(queries)}, queries)
	if err != nil {
		return nil, err
	}
	r.SmallintLook, r.BigintLook = res[0], res[1]
	ratios := make([]float64, 0, len(res[0].dbRaw))
	for i, a := range res[0].dbRaw {
		if a > 0 && i < len(res[1].dbRaw) {
			ratios = append(ratios, res[1].dbRaw[i]/a)
		}
	}
	r.PairedRatio = summarize(ratios).Median
	r.Better, r.Why = judgeColumnTypes(r)
	return r, nil
}

// judgeColumnTypes says which layout is better: the smaller on disk,
// unless the other is faster query for query (the median of the paired
// ratios) by more than 15%.
func judgeColumnTypes(r *ColumnTypeResult) (string, string) {
	s, b := r.Smallint, r.Bigint
	sizeS, sizeB := s.Heap+s.BlockTotal, b.Heap+b.BlockTotal
	sizes := fmt.Sprintf("heap %s against %s, block indexes %s against %s", humanBytes(s.Heap), humanBytes(b.Heap), humanBytes(s.BlockTotal), humanBytes(b.BlockTotal))
	switch q := r.PairedRatio; {
	case q > 0 && q < 0.85:
		return "bigint", fmt.Sprintf("faster: a query takes %.2f× as long with it (median of the paired ratios), at %s more on disk (%s)", q, humanBytes(sizeB-sizeS), sizes)
	case q > 1/0.85:
		return "smallint", fmt.Sprintf("faster: a query takes %.2f× as long with bigint (median of the paired ratios), and %s smaller (%s)", q, humanBytes(sizeB-sizeS), sizes)
	case sizeS < sizeB:
		return "smallint", fmt.Sprintf("as fast (a query takes %.2f× as long with bigint, median of the paired ratios: within the noise) and %s smaller (%s)", q, humanBytes(sizeB-sizeS), sizes)
	}
	return "either", "as fast and as large"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
