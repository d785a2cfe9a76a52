package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// sentenceSource is the source of the real part's articles; the bulk's
// synthetic articles have sentenceSynthetic.
const (
	sentenceSource    = "bench-news"
	sentenceSynthetic = "bench-synthetic"
	// sentenceIngestBatch is the batch size of the real part's ingest.
	sentenceIngestBatch = 100
)

// sentenceDB is the built sentence index: its database, and the real
// articles, stored and held back.
type sentenceDB struct {
	URL      string
	Pool     *pgxpool.Pool
	Set      *newsSet
	Stored   []newsItem
	StoredID map[string]int64 // external id → article id
	Unstored []newsItem
	// Grow are more real articles, neither stored nor queried: what the
	// largest tier stores through the service to see how ingest grows it.
	Grow []newsItem
}

// buildSentenceDB makes database name hold cfg.sentenceRows sentence
// rows: the real part first, stored through the service's own write path
// (service.IngestBatch on a repo.Store, in-process), then the synthetic
// bulk (sentence_bulk.go). It fills in res's load figures.
func buildSentenceDB(ctx context.Context, cfg *config, alg fingerprint.Algorithm, novel func() (*corpus.Novel, error), name string, res *SentenceLookupResult) (*sentenceDB, error) {
	held := max(cfg.sentenceArticles/10, 1) // unstored articles, to query
	grow := 0
	if cfg.sentenceLargeRows > cfg.sentenceRows {
		grow = cfg.sentenceGrowArticles
	}
	set, err := loadNewsSet(ctx, cfg.corpora, cfg.sentenceArticles+held+grow, novel)
	if err != nil {
		return nil, err
	}
	if set.Fallback != "" {
		progressf(cfg, "  real news MISSING (%s): storing 围城 articles instead", set.Fallback)
	}
	res.Source, res.CorporaDir, res.Fallback = set.Source, cfg.corpora, set.Fallback
	stored := min(cfg.sentenceArticles, len(set.Items))
	unstored := min(stored+held, len(set.Items))
	db := &sentenceDB{Set: set, Stored: set.Items[:stored], Unstored: set.Items[stored:unstored], Grow: set.Items[unstored:]}
	res.UnstoredArticles = len(db.Unstored)

	if db.URL, err = createDatabase(ctx, cfg.serverURL, name, false); err != nil {
		return nil, err
	}
	if db.Pool, err = openPool(ctx, db.URL, 4); err != nil {
		return nil, err
	}
	start := time.Now()
	if res.RealRefused, err = ingestReal(ctx, db.URL, alg, db.Stored); err != nil {
		return db, err
	}
	res.Load.RealIngestSeconds = time.Since(start).Seconds()
	if db.StoredID, err = storedIDs(ctx, db.Pool); err != nil {
		return db, err
	}
	res.RealArticles = len(db.StoredID)
	// Query only what the service stored.
	db.Stored = slices.DeleteFunc(db.Stored, func(it newsItem) bool { return db.StoredID[it.ExternalID] == 0 })
	err = db.Pool.QueryRow(ctx, `SELECT count(*), coalesce(avg((simhash IS NULL)::int), 0)::float8 FROM sentences`).
		Scan(&res.RealRows, &res.RealNoSimhash)
	if err != nil {
		return db, fmt.Errorf("count the real part's sentences: %w", err)
	}
	res.RowsPerArticle = float64(res.RealRows) / float64(max(res.RealArticles, 1))
	progressf(cfg, "  real part: %d articles, %d sentence rows (%.1f an article) in %.0f s",
		res.RealArticles, res.RealRows, res.RowsPerArticle, res.Load.RealIngestSeconds)
	if res.RealRows > cfg.sentenceRows {
		return db, fmt.Errorf("the real part alone holds %d sentence rows, more than -sentence-rows %d: ask for more rows or fewer -sentence-articles", res.RealRows, cfg.sentenceRows)
	}
	if err := loadBulk(ctx, cfg, db.Pool, cfg.sentenceRows-res.RealRows, max(int(res.RowsPerArticle+0.5), 1), res); err != nil {
		return db, err
	}
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM sentences`).Scan(&res.Loaded); err != nil {
		return db, fmt.Errorf("count the sentence rows: %w", err)
	}
	res.Sizes, err = tableSizes(ctx, db.Pool, "sentences")
	return db, err
}

// ingestReal stores items through service.IngestBatch, in batches, as
// POST /v1/articles/batch would: the verdicts are the service's, and so
// are the sentence rows. It returns how many articles the service refused
// as invalid (the corpus has a few with an empty body).
func ingestReal(ctx context.Context, dbURL string, alg fingerprint.Algorithm, items []newsItem) (refused int, err error) {
	store, err := repo.Open(ctx, dbURL, repo.Options{MaxConns: 4})
	if err != nil {
		return 0, err
	}
	defer store.Close()
	svc, err := service.New(store, alg, service.DefaultOptions)
	if err != nil {
		return 0, err
	}
	for from := 0; from < len(items); from += sentenceIngestBatch {
		chunk := items[from:min(from+sentenceIngestBatch, len(items))]
		batch := make([]service.BatchItem, len(chunk))
		for i, it := range chunk {
			batch[i] = service.BatchItem{Options: service.DefaultOptions, Article: service.ArticleInput{
				Text:       service.Text{Title: it.Title, Body: it.Body},
				ExternalID: it.ExternalID, Source: sentenceSource, PublishedAt: it.Published,
			}}
		}
		results, err := svc.IngestBatch(ctx, batch)
		if err != nil {
			return refused, fmt.Errorf("store the real part: %w", err)
		}
		for i, r := range results {
			switch {
			case r.Err != nil && service.KindOf(r.Err) == service.KindInvalid:
				refused++
			case r.Err != nil:
				return refused, fmt.Errorf("store the real part: article %s: %w", chunk[i].ExternalID, r.Err)
			}
		}
	}
	return refused, nil
}

// storedIDs maps the real part's external ids to their articles' ids.
func storedIDs(ctx context.Context, pool *pgxpool.Pool) (map[string]int64, error) {
	rows, err := pool.Query(ctx, `SELECT external_id, id FROM articles WHERE source = $1`, sentenceSource)
	if err != nil {
		return nil, fmt.Errorf("read the real part's ids: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var ext string
		var id int64
		if err := rows.Scan(&ext, &id); err != nil {
			return nil, fmt.Errorf("read the real part's ids: %w", err)
		}
		out[ext] = id
	}
	return out, rows.Err()
}
