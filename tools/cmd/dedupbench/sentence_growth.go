package main

import (
	"context"
	"fmt"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
	"github.com/newsdedup/newsdedup/tools/internal/proccpu"
)

// growByIngest stores db.Grow, more real articles, through the service's
// own write path (ingestReal, as the real part was stored) into the index
// as it is, and measures what they grew the table sentences and its
// indexes by, with no VACUUM after, and the CPU time they took: what an
// article costs an archive of this size.
func growByIngest(ctx context.Context, cfg *config, alg fingerprint.Algorithm, db *sentenceDB) (*SentenceGrowth, error) {
	if len(db.Grow) == 0 {
		return nil, fmt.Errorf("no article left to grow the index with (-sentence-grow-articles %d)", cfg.sentenceGrowArticles)
	}
	size := func() (total, heap, rows int64, err error) {
		err = db.Pool.QueryRow(ctx, `SELECT pg_total_relation_size('sentences'), pg_relation_size('sentences'),
			(SELECT count(*) FROM sentences WHERE article_id > (SELECT max(id) FROM articles WHERE source = $1))`, sentenceSynthetic).
			Scan(&total, &heap, &rows)
		if err != nil {
			err = fmt.Errorf("measure the sentence index: %w", err)
		}
		return total, heap, rows, err
	}
	total0, heap0, _, err := size()
	if err != nil {
		return nil, err
	}
	clock := proccpu.NewClock(ctx, db.Pool)
	start, cpu := time.Now(), clock.Read()
	refused, err := ingestReal(ctx, db.URL, alg, db.Grow)
	if err != nil {
		return nil, err
	}
	end := clock.Read()
	g := &SentenceGrowth{Refused: refused, Articles: len(db.Grow) - refused, Seconds: time.Since(start).Seconds()}
	n := float64(max(g.Articles, 1))
	g.ProcessMS = (end.Process - cpu.Process).Seconds() * 1000 / n
	if end.ServerKnown && cpu.ServerKnown {
		g.ServerMS = (end.Server - cpu.Server).Seconds() * 1000 / n
	}
	total1, heap1, rows, err := size()
	if err != nil {
		return nil, err
	}
	g.Bytes, g.HeapBytes, g.Rows = total1-total0, heap1-heap0, int(rows)
	return g, nil
}
