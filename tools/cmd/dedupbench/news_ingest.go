package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
	"github.com/newsdedup/newsdedup/tools/internal/proccpu"
)

// The real-news section: issue 11 asks for ingest figures on real news,
// not only on 围城 and word soup. In one run, on the first
// cfg.newsArticles Sina articles, it measures what fingerprinting alone
// allows (the ceiling of ingest: the service fingerprints every article
// before it stores it), batch ingest with a few clients and single-article
// POSTs with many, with the sentence index on (the default) and off. The
// measurements of one repetition run back to back, so each batch rate is
// put over the fingerprint-only rate of its own repetition.

// newsIngestRun is what each ingest measurement of the section needs.
type newsIngestRun struct {
	cfg  *config
	dict *fingerprint.Dictionary
	set  *newsSet
	made *[]string // the databases made, for the caller to drop
	cpu  proccpu.Clock
}

// benchNewsIngest measures the section. novel loads 围城, for when the
// corpora are missing. The databases it makes are appended to made; it
// drops each after its run unless cfg.keep.
func benchNewsIngest(ctx context.Context, cfg *config, dict *fingerprint.Dictionary, novel func() (*corpus.Novel, error), made *[]string) (*NewsIngestResult, error) {
	start := time.Now()
	set, err := loadNewsSet(ctx, cfg.corpora, cfg.newsArticles, novel)
	if err != nil {
		return nil, err
	}
	if set.Fallback != "" {
		progressf(cfg, "  real news MISSING (%s): ingesting %d 围城 articles instead", set.Fallback, len(set.Items))
	}
	textBytes, meanChars := set.size()
	res := &NewsIngestResult{
		Date: start.UTC(), Command: cfg.command, Commit: gitCommit(),
		Source: set.Source, CorporaDir: cfg.corpora, Fallback: set.Fallback,
		Articles: len(set.Items), MeanChars: meanChars, TextBytes: textBytes,
		Reps: cfg.newsReps, BatchSize: cfg.newsBatchSize, Workers: runtime.GOMAXPROCS(0), PoolSize: cfg.poolSize,
		Load: []LoadSample{loadAverage("real news: start")},
	}
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	clock, err := serverCPUClock(ctx, cfg.serverURL)
	if err != nil {
		return nil, err
	}
	res.ServerCPU = clock.Why()
	nr := &newsIngestRun{cfg: cfg, dict: dict, set: set, made: made, cpu: clock}

	// Warm the dictionary's pages and the allocator, uncounted, so that the
	// first fingerprint-only run does not pay for them.
	if _, err := fingerprintOnly(ctx, alg, set.Items[:min(len(set.Items), 100)], true); err != nil {
		return nil, err
	}

	modes := newsModes(cfg, res.Workers)
	for rep := 1; rep <= cfg.newsReps; rep++ {
		fpRate := map[bool]float64{}
		for i := range modes {
			m := &modes[i]
			var run NewsRun
			switch m.Kind {
			case newsFingerprint:
				start := proccpu.Process()
				run, err = fingerprintOnly(ctx, alg, set.Items, m.Sentences)
				run.CPU = &RunCPU{ProcessSeconds: (proccpu.Process() - start).Seconds()} // no database
				fpRate[m.Sentences] = run.PerSecond
			case newsBatch:
				run, err = nr.ingest(ctx, m)
				run.Ratio = run.PerSecond / fpRate[m.Sentences]
			case newsSingle:
				run, err = nr.ingest(ctx, m)
			case newsPeer:
				run, err = peerIngest(ctx, set.Items, cfg.newsBatchSize)
			}
			if err != nil {
				return nil, fmt.Errorf("real news, %s: %w", modeName(m), err)
			}
			progressf(cfg, "  real news %d/%d, %s: %.0f articles/s", rep, cfg.newsReps, modeName(m), run.PerSecond)
			m.Runs = append(m.Runs, run)
		}
	}
	for i := range modes {
		modes[i].summarizeRuns()
		if modes[i].Kind == newsBatch {
			for _, run := range modes[i].Runs {
				cfg.batchSent += run.Sent
			}
		}
	}
	res.Modes = modes
	res.Load = append(res.Load, loadAverage("real news: end"))
	res.TotalSeconds = time.Since(start).Seconds()
	return res, nil
}

// newsModes lists the section's measurements in the order each repetition
// runs them: fingerprint-only first (the batch runs' ratios need it).
func newsModes(cfg *config, workers int) []NewsMode {
	var modes []NewsMode
	for _, s := range []bool{true, false} {
		modes = append(modes, NewsMode{Kind: newsFingerprint, Sentences: s, Clients: workers})
	}
	// The peer between the fingerprint-only and the batch runs, so that
	// each repetition alternates it with newsdedup's (news_peer.go).
	modes = append(modes, NewsMode{Kind: newsPeer, Clients: 1})
	for _, c := range cfg.newsBatchClients {
		for _, s := range []bool{true, false} {
			modes = append(modes, NewsMode{Kind: newsBatch, Sentences: s, Clients: c})
		}
	}
	for _, s := range []bool{true, false} {
		if cfg.newsSingleClients == 0 {
			break
		}
		modes = append(modes, NewsMode{Kind: newsSingle, Sentences: s, Clients: cfg.newsSingleClients})
	}
	return modes
}

// modeName names a measurement in progress lines and errors.
func modeName(m *NewsMode) string {
	return fmt.Sprintf("%s, sentence index %s, %d clients", m.Kind, onOff(m.Sentences), m.Clients)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// ingest runs one batch or single-article measurement into a fresh
// database, served in-process with or without the sentence index, and
// counts the articles stored.
func (nr *newsIngestRun) ingest(ctx context.Context, m *NewsMode) (NewsRun, error) {
	cfg := nr.cfg
	name := cfg.dbPrefix + "news_" + m.Kind + "_" + strconv.Itoa(m.Clients) + "_" + onOff(m.Sentences)
	if !slices.Contains(*nr.made, name) {
		*nr.made = append(*nr.made, name)
	}
	dbURL, err := createDatabase(ctx, cfg.serverURL, name, false)
	if err != nil {
		return NewsRun{}, err
	}
	before, err := measureStored(ctx, dbURL)
	if err != nil {
		return NewsRun{}, err
	}
	var settings []service.Setting
	if !m.Sentences {
		settings = append(settings, service.WithoutSentenceIndex())
	}
	srv, err := startServer(ctx, dbURL, nr.dict, cfg.poolSize, settings...)
	if err != nil {
		return NewsRun{}, err
	}
	path, requests := "/v1/articles", []newsRequest(nil)
	if m.Kind == newsBatch {
		path = "/v1/articles/batch"
		requests, err = newsBatchRequests(nr.set.Items, cfg.newsBatchSize)
	} else {
		requests, err = newsSingleRequests(nr.set.Items)
	}
	if err != nil {
		_ = srv.stop()
		return NewsRun{}, err
	}
	sampler, err := startSessionSampler(ctx, cfg.serverURL, name)
	if err != nil {
		_ = srv.stop()
		return NewsRun{}, err
	}
	tracked, err := resetStatements(ctx, dbURL)
	if err != nil {
		_ = srv.stop()
		_, _ = sampler.stop()
		return NewsRun{}, err
	}
	cpuStart := nr.cpu.Read()
	run, err := postNews(ctx, srv.URL, path, requests, m.Clients)
	cpu := runCPU(cpuStart, nr.cpu.Read())
	run.CPU = &cpu
	if err == nil && tracked {
		run.Statements, err = readStatements(ctx, dbURL)
	}
	sessions, serr := sampler.stop()
	run.Sessions = &sessions
	if err == nil {
		err = serr
	}
	if serr := srv.stop(); err == nil && serr != nil {
		err = fmt.Errorf("stop the server: %w", serr)
	}
	if err != nil {
		return NewsRun{}, err
	}
	after, err := measureStored(ctx, dbURL)
	if err != nil {
		return NewsRun{}, err
	}
	run.Stored = after.articles
	run.Bytes = &RunBytes{Database: after.database - before.database, Sentences: after.sentences - before.sentences}
	if !cfg.keep {
		if err := dropDatabase(ctx, cfg.serverURL, name); err != nil {
			return NewsRun{}, err
		}
	}
	return run, nil
}

// serverCPUClock opens a connection to the server at url for as long as
// it takes to find its processes (proccpu.NewClock).
func serverCPUClock(ctx context.Context, url string) (proccpu.Clock, error) {
	pool, err := openPool(ctx, url, 1)
	if err != nil {
		return proccpu.Clock{}, err
	}
	defer pool.Close()
	return proccpu.NewClock(ctx, pool), nil
}

// stored is what a run's database holds: its articles, its size, and the
// size of the sentence index (the table sentences with its indexes).
type stored struct {
	articles            int
	database, sentences int64
}

// measureStored counts the articles at dbURL and measures the database and
// the sentence index, as they are: what ingest grew, free space included.
func measureStored(ctx context.Context, dbURL string) (stored, error) {
	pool, err := openPool(ctx, dbURL, 1)
	if err != nil {
		return stored{}, err
	}
	defer pool.Close()
	var s stored
	err = pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM articles), pg_database_size(current_database()), pg_total_relation_size('sentences')`).
		Scan(&s.articles, &s.database, &s.sentences)
	if err != nil {
		return stored{}, fmt.Errorf("count the stored articles and measure their bytes: %w", err)
	}
	return s, nil
}
