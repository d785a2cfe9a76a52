package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The bulk of the sentence index: synthetic sentences with uniformly random
// simhashes and text hashes, which match nothing a query asks for but are
// there to be stepped over, as the sentences of millions of other articles
// are. Each takes the shape (length, word count, simhash or none) of a
// sentence of the real part drawn at random, so that the rows weigh what
// real ones weigh; they belong to synthetic articles of bulk_rows_per_article
// sentences each, the real part's mean, written together as the service
// writes an article's sentences.

// sentenceRebuilt are the sentence indexes dropped before the bulk COPY and
// built after it: the block keys' and the text hash's. The BRIN index on
// article_id stays (it costs next to nothing to keep), and so do the block
// columns' B-trees, which hold only rows written before migration 00019:
// the bulk, as the service, leaves the block columns empty.
var sentenceRebuilt = regexp.MustCompile(`^sentences_(block_keys|text_hash)_idx$`)

// bulkColumns are the sentence columns the bulk fills, those of repo's
// sentenceColumns (unexported), in its order.
var bulkColumns = []string{"article_id", "position", "start_char", "end_char", "runes", "text_hash", "simhash"}

// sentenceShape is what a bulk row takes from a real sentence.
type sentenceShape struct {
	Runes, Chars int
	Simhash      bool
}

// loadBulk adds rows synthetic sentence rows, perArticle to a synthetic
// article, with the sentence indexes dropped during the COPY and restored
// after it, then VACUUM (ANALYZE). (Sentences have no foreign key to
// articles since migration 00013: a trigger deletes them with their
// article, at no cost per row written.)
func loadBulk(ctx context.Context, cfg *config, pool *pgxpool.Pool, rows, perArticle int, res *SentenceLookupResult) error {
	shapes, err := realShapes(ctx, pool)
	if err != nil {
		return err
	}
	defs, err := dropSentenceIndexes(ctx, pool)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(uint64(rows), 10))
	start := time.Now()
	articles := (rows + perArticle - 1) / perArticle
	ids, err := copySyntheticArticles(ctx, cfg, pool, rng, articles)
	if err != nil {
		return err
	}
	if err := copySyntheticSentences(ctx, cfg, pool, rng, ids, rows, perArticle, shapes); err != nil {
		return err
	}
	res.Load.CopySeconds = time.Since(start).Seconds()
	res.BulkArticles, res.BulkRows, res.BulkPerArticle = articles, rows, perArticle

	if res.Load.IndexSeconds, err = restoreSentenceIndexes(ctx, cfg, pool, defs); err != nil {
		return err
	}
	start = time.Now()
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) sentences, articles"); err != nil {
		return fmt.Errorf("vacuum analyze: %w", err)
	}
	res.Load.VacuumSeconds = time.Since(start).Seconds()
	// Write the load's dirty pages now rather than during the measurement.
	_, _ = pool.Exec(ctx, "CHECKPOINT")
	progressf(cfg, "  bulk: %d rows copied in %.0f s, indexes %.0f s, vacuum analyze %.0f s",
		rows, res.Load.CopySeconds, res.Load.IndexSeconds, res.Load.VacuumSeconds)
	return nil
}

// realShapes reads the shape of every sentence of the real part.
func realShapes(ctx context.Context, pool *pgxpool.Pool) ([]sentenceShape, error) {
	// The real part was stored first, into an empty database: its
	// articles have the lowest ids.
	rows, err := pool.Query(ctx, `
		SELECT runes, end_char - start_char, simhash IS NOT NULL FROM sentences
		WHERE article_id <= (SELECT max(id) FROM articles WHERE source = $1)`, sentenceSource)
	if err != nil {
		return nil, fmt.Errorf("read the real sentences' shapes: %w", err)
	}
	shapes, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (sentenceShape, error) {
		var s sentenceShape
		return s, row.Scan(&s.Runes, &s.Chars, &s.Simhash)
	})
	if err != nil {
		return nil, fmt.Errorf("read the real sentences' shapes: %w", err)
	}
	if len(shapes) == 0 {
		return nil, fmt.Errorf("the real part stored no sentence")
	}
	return shapes, nil
}

// dropSentenceIndexes drops the indexes loadBulk rebuilds and returns
// their definitions.
func dropSentenceIndexes(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	rows, err := pool.Query(ctx, `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'sentences' ORDER BY indexname`)
	if err != nil {
		return nil, fmt.Errorf("list the sentence indexes: %w", err)
	}
	type index struct{ name, def string }
	all, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (index, error) {
		var i index
		return i, row.Scan(&i.name, &i.def)
	})
	if err != nil {
		return nil, fmt.Errorf("list the sentence indexes: %w", err)
	}
	var defs []string
	for _, i := range all {
		if !sentenceRebuilt.MatchString(i.name) {
			continue
		}
		if _, err := pool.Exec(ctx, "DROP INDEX "+ident(i.name)); err != nil {
			return nil, fmt.Errorf("drop index %s: %w", i.name, err)
		}
		defs = append(defs, i.def)
	}
	if len(defs) != 2 {
		return nil, fmt.Errorf("the schema has %d of the two sentence indexes rebuilt (the block keys' and the text hash's): has it changed?", len(defs))
	}
	return defs, nil
}

// copySyntheticArticles stores n more synthetic articles, unique, with a
// random simhash and no text to speak of, and returns their ids in order.
func copySyntheticArticles(ctx context.Context, cfg *config, pool *pgxpool.Pool, rng *rand.Rand, n int) ([]int64, error) {
	var before, lastID int64 // the synthetic articles there are already, and the highest id
	err := pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE source = $1), coalesce(max(id), 0) FROM articles`, sentenceSynthetic).Scan(&before, &lastID)
	if err != nil {
		return nil, fmt.Errorf("count the synthetic articles: %w", err)
	}
	for from := 0; from < n; from += copyChunk {
		batch := make([]fixtureRow, min(copyChunk, n-from))
		for i := range batch {
			id := "synthetic-" + strconv.FormatInt(before+int64(from+i), 10)
			batch[i] = fixtureRow{Body: "synthetic", Article: service.Article{
				Source:             sentenceSynthetic,
				ExternalID:         id,
				Title:              "synthetic",
				PublishedAt:        publishBase.Add(time.Duration(rng.Int64N(int64(365 * 24 * time.Hour)))),
				Simhash:            rng.Uint64(),
				FingerprintVersion: fingerprint.VersionOneScript,
				ContentHash:        sha256.Sum256([]byte(id)),
			}}
		}
		if err := copyFixtures(ctx, pool, batch); err != nil {
			return nil, err
		}
	}
	rows, err := pool.Query(ctx, `SELECT id FROM articles WHERE source = $1 AND id > $2 ORDER BY id`, sentenceSynthetic, lastID)
	if err != nil {
		return nil, fmt.Errorf("read the synthetic articles' ids: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("read the synthetic articles' ids: %w", err)
	}
	progressf(cfg, "  bulk: %d synthetic articles", len(ids))
	return ids, nil
}

// sentenceCopyChunk is how many sentence rows one COPY of the bulk sends.
const sentenceCopyChunk = 500_000

// copySyntheticSentences stores rows synthetic sentences, perArticle to
// each article of ids in turn, the last article taking what is left.
func copySyntheticSentences(ctx context.Context, cfg *config, pool *pgxpool.Pool, rng *rand.Rand, ids []int64, rows, perArticle int, shapes []sentenceShape) error {
	next, position, char := 0, 0, 0
	row := func() []any {
		article := ids[next/perArticle]
		if position == 0 {
			char = 0
		}
		s := shapes[rng.IntN(len(shapes))]
		values := []any{article, int32(position), int32(char), int32(char + max(s.Chars, 1)), int32(s.Runes), int64(rng.Uint64())}
		char += max(s.Chars, 1)
		next++
		position = next % perArticle
		if !s.Simhash {
			return append(values, nil)
		}
		return append(values, int64(rng.Uint64()))
	}
	for from := 0; from < rows; from += sentenceCopyChunk {
		n := min(sentenceCopyChunk, rows-from)
		sent := 0
		_, err := pool.CopyFrom(ctx, pgx.Identifier{"sentences"}, bulkColumns, pgx.CopyFromFunc(func() ([]any, error) {
			if sent == n {
				return nil, nil
			}
			sent++
			return row(), nil
		}))
		if err != nil {
			return fmt.Errorf("copy synthetic sentences: %w", err)
		}
		progressf(cfg, "  bulk: copied %d of %d sentence rows", from+n, rows)
	}
	return nil
}

// sentenceIndexMemory is the maintenance_work_mem the sentence indexes are
// built with: a GIN index builds its posting lists in it and writes them
// out each time it fills, so at 100,000,000 rows a smaller one means more
// passes over the index, and fuller and fewer pages with a larger one.
const sentenceIndexMemory = "2GB"

// restoreSentenceIndexes builds the sentence indexes loadBulk dropped, on
// one connection with sentenceIndexMemory, and returns how long it took.
func restoreSentenceIndexes(ctx context.Context, cfg *config, pool *pgxpool.Pool, defs []string) (seconds float64, err error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return 0, fmt.Errorf("acquire a connection: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SET maintenance_work_mem = '"+sentenceIndexMemory+"'"); err != nil {
		return 0, fmt.Errorf("set maintenance_work_mem: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "RESET maintenance_work_mem")
	start := time.Now()
	for _, def := range defs {
		progressf(cfg, "  %s", def)
		if _, err := conn.Exec(ctx, def); err != nil {
			return 0, fmt.Errorf("%s: %w", def, err)
		}
	}
	return time.Since(start).Seconds(), nil
}
