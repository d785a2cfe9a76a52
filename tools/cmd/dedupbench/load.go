package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// copyChunk is how many rows one COPY sends.
const copyChunk = 50_000

// LoadTiming is how long building a tier took, phase by phase.
type LoadTiming struct {
	CopySeconds      float64 `json:"copy_seconds"`
	IndexSeconds     float64 `json:"block_index_seconds"`
	TrgmIndexSeconds float64 `json:"trgm_index_seconds,omitempty"`
	VacuumSeconds    float64 `json:"vacuum_analyze_seconds"`
}

// tierDB is a built tier: its database and what is in it.
type tierDB struct {
	N          int
	Label      string
	Name       string // the database
	URL        string
	Mix        Mix
	WithBodies bool // every row has a text and the pg_trgm index exists
	Pool       *pgxpool.Pool
}

// rebuiltIndexes are the indexes dropped before the COPY and built after
// it: the eight block indexes and the content hash's.
var rebuiltIndexes = regexp.MustCompile(`^articles_([ab][0-3]|content_hash)_idx$`)

// loadTier builds a database of n rows: it migrates it with the project's
// migrations, drops the block indexes, fills the table with COPY
// (copyFixtures), builds the indexes again, and VACUUM ANALYZEs. With
// bodies, every row gets a text (the real rows their own, the others a
// passage of the novel) and body gets a pg_trgm GIN index.
func loadTier(ctx context.Context, cfg *config, rs *realSet, novel *corpus.Novel, n int, bodies bool) (*tierDB, LoadTiming, error) {
	var timing LoadTiming
	t := &tierDB{N: n, Label: tierLabel(n), Name: cfg.dbPrefix + tierLabel(n), WithBodies: bodies}
	t.Mix = planMix(n, len(rs.Stored), groupSize)
	var err error
	if t.URL, err = createDatabase(ctx, cfg.serverURL, t.Name, bodies); err != nil {
		return nil, timing, err
	}
	if t.Pool, err = openPool(ctx, t.URL, 4); err != nil {
		return nil, timing, err
	}
	defs, err := dropIndexes(ctx, t.Pool)
	if err != nil {
		return t, timing, err
	}

	start := time.Now()
	rng := rand.New(rand.NewPCG(uint64(n), 3))
	rows := makeRows(rng, t.Mix, simhashes(rs.Stored))
	passages := rand.New(rand.NewPCG(uint64(n), 4))
	for from := 0; from < len(rows); from += copyChunk {
		chunk := rows[from:min(from+copyChunk, len(rows))]
		var texts []corpus.Article
		if bodies {
			texts = novel.Overlapping(passages, len(chunk), 300, 3000)
		}
		batch := make([]fixtureRow, len(chunk))
		for i, r := range chunk {
			batch[i] = copyRow(rs, r, from+i, rng, texts, i)
		}
		if err := copyFixtures(ctx, t.Pool, batch); err != nil {
			return t, timing, err
		}
		progressf(cfg, "  %s: copied %d of %d rows", t.Label, from+len(chunk), len(rows))
	}
	timing.CopySeconds = time.Since(start).Seconds()

	if timing.IndexSeconds, err = restoreIndexes(ctx, cfg, t.Pool, defs); err != nil {
		return t, timing, err
	}

	if bodies {
		start = time.Now()
		for _, s := range []string{
			"CREATE EXTENSION IF NOT EXISTS pg_trgm",
			"CREATE INDEX articles_body_trgm_idx ON articles USING gin (body gin_trgm_ops)",
		} {
			if _, err := t.Pool.Exec(ctx, s); err != nil {
				return t, timing, fmt.Errorf("%s: %w", s, err)
			}
		}
		timing.TrgmIndexSeconds = time.Since(start).Seconds()
	}

	start = time.Now()
	if _, err := t.Pool.Exec(ctx, "VACUUM (ANALYZE) articles"); err != nil {
		return t, timing, fmt.Errorf("vacuum analyze: %w", err)
	}
	timing.VacuumSeconds = time.Since(start).Seconds()
	// Write the load's dirty pages now rather than during the measurement.
	_, _ = t.Pool.Exec(ctx, "CHECKPOINT")
	return t, timing, nil
}

// restoreIndexes runs again the definitions of the indexes dropped for a
// COPY (dropIndexes, dropSentenceIndexes), each named in the progress, and
// returns how long they took.
func restoreIndexes(ctx context.Context, cfg *config, pool *pgxpool.Pool, defs []string) (seconds float64, err error) {
	start := time.Now()
	for _, def := range defs {
		progressf(cfg, "  %s", def)
		if _, err := pool.Exec(ctx, def); err != nil {
			return 0, fmt.Errorf("%s: %w", def, err)
		}
	}
	return time.Since(start).Seconds(), nil
}

// dropIndexes drops the indexes loadTier rebuilds and returns their
// definitions.
func dropIndexes(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	rows, err := pool.Query(ctx, `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'articles' ORDER BY indexname`)
	if err != nil {
		return nil, fmt.Errorf("list indexes: %w", err)
	}
	var names, defs []string
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			return nil, fmt.Errorf("list indexes: %w", err)
		}
		if rebuiltIndexes.MatchString(name) {
			names, defs = append(names, name), append(defs, def)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list indexes: %w", err)
	}
	if len(names) < 8 {
		return nil, fmt.Errorf("the schema has %d of the eight block indexes (%v): has it changed?", len(names), names)
	}
	for _, name := range names {
		if _, err := pool.Exec(ctx, "DROP INDEX "+ident(name)); err != nil {
			return nil, fmt.Errorf("drop index %s: %w", name, err)
		}
	}
	return defs, nil
}

// copyRow makes row r, the i-th of the table, into what copyFixtures
// stores. A real row carries its article's title, text and word set; the
// others carry no word set (storing millions of word sets would measure the
// disk, not the index) and a passage of the novel as their text when texts
// is given, else none.
func copyRow(rs *realSet, r synthRow, i int, rng *rand.Rand, texts []corpus.Article, j int) fixtureRow {
	if r.Kind == kindReal {
		a := &rs.Stored[r.Base]
		return fixtureRow{Article: service.Article{
			Source:             "bench",
			ExternalID:         "real-" + strconv.Itoa(int(r.Base)),
			Title:              a.Title,
			PublishedAt:        realPublished(int(r.Base)),
			Simhash:            r.Simhash,
			FingerprintVersion: a.FP.Version,
			Words:              a.FP.Words,
			Shingles:           a.FP.Shingles,
			ContentHash:        a.FP.ContentHash,
		}, Body: a.Body}
	}
	kind := "random-"
	if r.Kind == kindVariant {
		kind = "variant-"
	}
	row := syntheticRow(kind+strconv.Itoa(i), r.Simhash,
		publishBase.Add(time.Duration(rng.Int64N(int64(365*24*time.Hour)))), rs.Stored[0].FP.Version)
	if texts != nil {
		row.Article.Title, row.Body = texts[j%len(texts)].Title, texts[j%len(texts)].Body
	}
	return row
}

// syntheticRow is a row that is no article: a fingerprint under id, with
// no title, text or word set, and a content hash of its own (of the id)
// so that it is nobody's exact duplicate.
func syntheticRow(id string, simhash uint64, published time.Time, version fingerprint.Version) fixtureRow {
	return fixtureRow{Article: service.Article{
		Source:             "bench",
		ExternalID:         id,
		PublishedAt:        published,
		Simhash:            simhash,
		FingerprintVersion: version,
		ContentHash:        sha256.Sum256([]byte(id)),
	}}
}

// Sizes are the on-disk sizes of a table and its indexes, in bytes.
type Sizes struct {
	Heap         int64            `json:"heap"`
	Toast        int64            `json:"toast"`
	BlockIndexes map[string]int64 `json:"block_indexes"`
	BlockTotal   int64            `json:"block_indexes_total"`
	OtherIndexes map[string]int64 `json:"other_indexes"`
	Total        int64            `json:"total"`
}

// tableSizes measures table and its indexes.
func tableSizes(ctx context.Context, pool *pgxpool.Pool, table string) (Sizes, error) {
	s := Sizes{BlockIndexes: map[string]int64{}, OtherIndexes: map[string]int64{}}
	err := pool.QueryRow(ctx, `
		SELECT pg_relation_size(c.oid),
		       coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0),
		       pg_total_relation_size(c.oid)
		FROM pg_class c WHERE c.oid = $1::regclass`, table).Scan(&s.Heap, &s.Toast, &s.Total)
	if err != nil {
		return s, fmt.Errorf("size of %s: %w", table, err)
	}
	rows, err := pool.Query(ctx, `
		SELECT c.relname, pg_relation_size(c.oid)
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		WHERE i.indrelid = $1::regclass`, table)
	if err != nil {
		return s, fmt.Errorf("index sizes of %s: %w", table, err)
	}
	block := regexp.MustCompile(`_[ab][0-3]_idx$`)
	for rows.Next() {
		var name string
		var size int64
		if err := rows.Scan(&name, &size); err != nil {
			return s, fmt.Errorf("index sizes of %s: %w", table, err)
		}
		if block.MatchString(name) {
			s.BlockIndexes[name] = size
			s.BlockTotal += size
		} else {
			s.OtherIndexes[name] = size
		}
	}
	return s, rows.Err()
}
