package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
	"github.com/newsdedup/newsdedup/tools/internal/proccpu"
)

// The check-on-real-news section: issue 11 sets /v1/check's goal — p99 ≤
// 10 ms for one client, ≤ 50 ms for 16, with 1,000,000 stored articles —
// on real news. The 1m tier's /v1/check runs in a crowded corpus (cuts of
// one novel: each check finds hundreds of near duplicates), which is the
// worst case, not a newsroom's. This section builds a database of
// cfg.newsCheckRows articles: every Sina and CCTV article but a held-out
// few, stored through the service so that they carry word sets, shingles,
// clusters and sentence rows as in production, and random fingerprints
// for the rest, the bulk of an archive. It then checks reposts of stored
// news and the held-out news, never stored.

// newsCheckRequests is one kind of check request of the section.
type newsCheckRequests struct {
	kind   string // newsCheckReposts or newsCheckNew
	bodies [][]byte
}

// benchNewsCheck measures the section. novel loads 围城, whose sentences
// and bylines some edits of the reposts add. Without the corpora it
// measures nothing and says why in Skipped. The database it makes is
// appended to made; it drops it at the end unless cfg.keep.
func benchNewsCheck(ctx context.Context, cfg *config, dict *fingerprint.Dictionary, novel func() (*corpus.Novel, error), made *[]string) (*NewsCheckResult, error) {
	start := time.Now()
	res := &NewsCheckResult{
		Date: start.UTC(), Command: cfg.command, Commit: gitCommit(), CorporaDir: cfg.corpora,
		Database: cfg.dbPrefix + "news_check", Rows: cfg.newsCheckRows,
		IngestClients: cfg.newsCheckIngestClients, BatchSize: cfg.batchSize, PoolSize: cfg.poolSize, Cores: runtime.NumCPU(),
		WarmupSeconds: checkWarmup(cfg).Seconds(), SeqSeconds: cfg.seqDuration.Seconds(),
		CheckSeconds: cfg.checkDuration.Seconds(), CheckClients: cfg.checkClients,
		Load: []LoadSample{loadAverage("news check: start")},
	}
	defer func() {
		res.Load = append(res.Load, loadAverage("news check: end"))
		res.TotalSeconds = time.Since(start).Seconds()
	}()
	set, why, err := readNewsCheckSet(ctx, cfg.corpora, cfg.newsCheckQueries, cfg.newsCheckArticles)
	if err != nil {
		return nil, err
	}
	if why != "" {
		progressf(cfg, "  real news MISSING (%s): /v1/check on real news not measured", why)
		res.Skipped = why
		return res, nil
	}
	if len(set.Stored) > cfg.newsCheckRows {
		return nil, fmt.Errorf("the %d real articles to store are more than -news-check-rows %d: ask for more rows or fewer -news-check-articles", len(set.Stored), cfg.newsCheckRows)
	}
	res.HeldOut, res.Blank, res.Unstored = len(set.HeldOut), set.Blank, set.Unstored
	requests, err := newsCheckKinds(novel, set, cfg.newsCheckQueries)
	if err != nil {
		return nil, err
	}
	res.Reposts = len(requests[0].bodies)
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	if res.FingerprintMS, err = fingerprintTimes(ctx, alg, requests); err != nil {
		return nil, err
	}

	*made = append(*made, res.Database)
	dbURL, err := createDatabase(ctx, cfg.serverURL, res.Database, false)
	if err != nil {
		return nil, err
	}
	pool, err := openPool(ctx, dbURL, 4)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	first, last := publishedSpan(set.Stored)
	version := alg.Version()
	if err := copyRandomRows(ctx, cfg, pool, cfg.newsCheckRows-len(set.Stored), first, last, version, &res.Build); err != nil {
		return nil, err
	}
	if err := storeNews(ctx, cfg, dbURL, dict, pool, set.Stored, requests, res); err != nil {
		return nil, err
	}
	if !cfg.keep {
		pool.Close()
		if err := dropDatabase(ctx, cfg.serverURL, res.Database); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// newsCheckKinds makes the section's two kinds of request: reposts of n
// stored articles, and the held-out articles.
func newsCheckKinds(novel func() (*corpus.Novel, error), set *newsCheckSet, n int) ([]newsCheckRequests, error) {
	nv, err := novel()
	if err != nil {
		return nil, err
	}
	reposts, err := newsCheckBodies(newsReposts(nv, set.Stored, n))
	if err != nil {
		return nil, err
	}
	fresh, err := newsCheckBodies(set.HeldOut)
	if err != nil {
		return nil, err
	}
	return []newsCheckRequests{{newsCheckReposts, reposts}, {newsCheckNew, fresh}}, nil
}

// storeNews serves the database, stores the news through it, settles the
// table and times the checks on the same server.
func storeNews(ctx context.Context, cfg *config, dbURL string, dict *fingerprint.Dictionary, pool *pgxpool.Pool, news []newsItem, requests []newsCheckRequests, res *NewsCheckResult) (err error) {
	srv, err := startServer(ctx, dbURL, dict, cfg.poolSize)
	if err != nil {
		return err
	}
	defer func() {
		if serr := srv.stop(); err == nil && serr != nil {
			err = fmt.Errorf("stop the server: %w", serr)
		}
	}()
	if err := ingestNews(ctx, cfg, srv, news, res); err != nil {
		return err
	}
	if err := settleNewsCheck(ctx, pool, &res.Build); err != nil {
		return err
	}
	if err := countNewsCheck(ctx, pool, res); err != nil {
		return err
	}
	progressf(cfg, "  %s rows: %s real articles (%s Sina, %s CCTV; %s sentence rows), %s random",
		num(res.Loaded), num(res.News), num(res.Sina), num(res.CCTV), num(res.SentenceRows), num(res.Random))
	res.Load = append(res.Load, loadAverage("news check: checks"))
	return measureNewsChecks(ctx, cfg, srv, requests, res)
}

// copyRandomRows fills the table with n uniformly random fingerprints of
// the service's fingerprint version, published at random between first
// and last (the stored news's span: an archive of the same years), with
// no text and no word set, as the tiers' random rows. The block indexes
// are dropped during the COPY and built again after it, as loadTier does,
// then VACUUM (ANALYZE), so that the news's ingest finds the table as a
// running server would.
func copyRandomRows(ctx context.Context, cfg *config, pool *pgxpool.Pool, n int, first, last time.Time, version fingerprint.Version, t *NewsCheckTimings) error {
	defs, err := dropIndexes(ctx, pool)
	if err != nil {
		return err
	}
	start := time.Now()
	rng := rand.New(rand.NewPCG(uint64(n), 13))
	rows := makeRows(rng, Mix{N: n, Random: n}, nil)
	spread := int64(last.Sub(first)) + 1
	for from := 0; from < len(rows); from += copyChunk {
		chunk := rows[from:min(from+copyChunk, len(rows))]
		batch := make([]fixtureRow, len(chunk))
		for i, r := range chunk {
			batch[i] = syntheticRow("random-"+strconv.Itoa(from+i), r.Simhash, first.Add(time.Duration(rng.Int64N(spread))), version)
		}
		if err := copyFixtures(ctx, pool, batch); err != nil {
			return err
		}
		progressf(cfg, "  news check: copied %s of %s random rows", num(from+len(chunk)), num(n))
	}
	t.CopySeconds = time.Since(start).Seconds()

	if t.IndexSeconds, err = restoreIndexes(ctx, cfg, pool, defs); err != nil {
		return err
	}
	start = time.Now()
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) articles"); err != nil {
		return fmt.Errorf("vacuum analyze the random rows: %w", err)
	}
	t.VacuumSeconds = time.Since(start).Seconds()
	return nil
}

// ingestNews stores the news through POST /v1/articles/batch with the
// news ingest's clients (postNews). A batch the service answers with an
// error status ends the section: the database would lack its articles.
func ingestNews(ctx context.Context, cfg *config, srv *server, news []newsItem, res *NewsCheckResult) error {
	requests, err := newsBatchRequests(news, cfg.batchSize)
	if err != nil {
		return err
	}
	progressf(cfg, "  news check: storing %s real articles through the service, batches of %d, %d clients", num(len(news)), cfg.batchSize, cfg.newsCheckIngestClients)
	start := time.Now()
	run, err := postNews(ctx, srv.URL, "/v1/articles/batch", requests, cfg.newsCheckIngestClients)
	if err != nil {
		return fmt.Errorf("store the real news: %w", err)
	}
	if len(run.HTTPErrors) > 0 {
		return fmt.Errorf("store the real news: the service answered %s", counts(run.HTTPErrors))
	}
	res.Ingest = run
	res.Build.IngestSeconds = time.Since(start).Seconds()
	progressf(cfg, "  news check: stored in %s (%.0f articles/s): %s", duration(res.Build.IngestSeconds), run.PerSecond, counts(run.Statuses))
	return nil
}

// settleNewsCheck analyses the tables again now that the news is in them,
// writes the dirty pages out, and prewarms the block indexes of the
// articles and of the sentences, which every check reads and steady
// traffic keeps in memory (as the tiers' are before their lookups).
func settleNewsCheck(ctx context.Context, pool *pgxpool.Pool, t *NewsCheckTimings) error {
	start := time.Now()
	for _, table := range []string{"articles", "sentences"} {
		if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) "+ident(table)); err != nil {
			return fmt.Errorf("vacuum analyze %s: %w", table, err)
		}
	}
	t.VacuumSeconds += time.Since(start).Seconds()
	_, _ = pool.Exec(ctx, "CHECKPOINT")
	for _, table := range []string{"articles", "sentences"} {
		if err := prewarm(ctx, pool, table); err != nil {
			return err
		}
	}
	return nil
}

// countNewsCheck counts the rows of the built database, by kind.
func countNewsCheck(ctx context.Context, pool *pgxpool.Pool, res *NewsCheckResult) error {
	err := pool.QueryRow(ctx, `
		SELECT count(*),
		       count(*) FILTER (WHERE external_id LIKE 'random-%'),
		       count(*) FILTER (WHERE external_id LIKE $1),
		       count(*) FILTER (WHERE external_id LIKE $2),
		       (SELECT count(*) FROM sentences)
		FROM articles`, newscorpus.Sina+"-%", newscorpus.CCTV+"-%").
		Scan(&res.Loaded, &res.Random, &res.Sina, &res.CCTV, &res.SentenceRows)
	if err != nil {
		return fmt.Errorf("count the rows: %w", err)
	}
	res.News = res.Sina + res.CCTV
	return nil
}

// checkWarmup is how long the uncounted requests before each kind's runs
// last, as checkThroughService's.
func checkWarmup(cfg *config) time.Duration { return min(2*time.Second, cfg.seqDuration) }

// measureNewsChecks times each kind of request: uncounted requests from
// cfg.checkClients clients first (the pool's connections, their prepared
// statements, the pages the kind reads), then one client for
// cfg.seqDuration and cfg.checkClients for cfg.checkDuration; and all of
// it cfg.newsCheckReps times, in turn, so that a shared machine's passing
// load falls on every kind alike and the spread of the runs shows it.
func measureNewsChecks(ctx context.Context, cfg *config, srv *server, requests []newsCheckRequests, res *NewsCheckResult) error {
	clock, err := serverCPUClock(ctx, cfg.serverURL)
	if err != nil {
		return err
	}
	res.ServerCPU, res.Reps = clock.Why(), cfg.newsCheckReps
	for rep := 1; rep <= cfg.newsCheckReps; rep++ {
		for _, k := range requests {
			if _, err := benchCheck(ctx, srv.URL, k.bodies, cfg.checkClients, checkWarmup(cfg)); err != nil {
				return fmt.Errorf("warm up the %s: %w", k.kind, err)
			}
			for _, r := range []struct {
				clients int
				d       time.Duration
			}{{1, cfg.seqDuration}, {cfg.checkClients, cfg.checkDuration}} {
				run, err := timeNewsCheck(ctx, srv, clock, k, r.clients, r.d)
				if err != nil {
					return fmt.Errorf("check %s with %d clients: %w", k.kind, r.clients, err)
				}
				run.Rep, run.Database, run.DatabaseN = rep, res.Database, res.Loaded
				progressf(cfg, "  /v1/check on real news %d/%d, %s, %d clients: p50 %s ms, p99 %s ms, %.0f requests/s, %.1f candidates a check",
					rep, cfg.newsCheckReps, k.kind, r.clients, ms(run.LatencyMS.Median), ms(run.LatencyMS.P99), run.PerSecond, run.CandidatesMean)
				res.Runs = append(res.Runs, run)
			}
		}
	}
	return nil
}

// timeNewsCheck runs benchCheck once and reads, from the service's
// metrics before and after, how many candidates its checks read, and from
// clock the CPU time the run spent.
func timeNewsCheck(ctx context.Context, srv *server, clock proccpu.Clock, k newsCheckRequests, clients int, d time.Duration) (NewsCheckRun, error) {
	load := loadAverage("news check: " + k.kind)
	sum0, n0, err := srv.candidatesSeen()
	if err != nil {
		return NewsCheckRun{}, err
	}
	cpuStart := clock.Read()
	c, err := benchCheck(ctx, srv.URL, k.bodies, clients, d)
	if err != nil {
		return NewsCheckRun{}, err
	}
	cpu := runCPU(cpuStart, clock.Read())
	sum1, n1, err := srv.candidatesSeen()
	if err != nil {
		return NewsCheckRun{}, err
	}
	c.Corpus = "news"
	run := NewsCheckRun{Kind: k.kind, CheckResult: c, LoadAtStart: load.Load1, CPU: &cpu}
	if n1 > n0 {
		run.CandidatesMean = (sum1 - sum0) / float64(n1-n0)
	}
	return run, nil
}
