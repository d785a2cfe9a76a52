package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// run is the command: it parses args, measures, and writes the report.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	cfg, err := parseFlags(args, os.Stderr)
	if err != nil {
		return err
	}
	cfg.progress = stdout
	stopProfile := func() {}
	if cfg.cpuProfile != "" {
		f, err := os.Create(cfg.cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		stopProfile = sync.OnceFunc(func() { pprof.StopCPUProfile(); _ = f.Close() })
		defer stopProfile()
	}
	if cfg.rerender != "" {
		return rerender(cfg.rerender, cfg.out)
	}
	switch cfg.only {
	case onlyNewsIngest:
		cfg.progress = os.Stderr // stdout is the section's Markdown
		if err := runNewsOnly(ctx, &cfg, stdout); err != nil {
			return err
		}
		if cfg.cpuProfile == "" {
			return nil
		}
		stopProfile()
		return writeStages(stdout, cfg.cpuProfile, cfg.batchSent)
	case onlySentenceLookup:
		cfg.progress = os.Stderr
		return runSentenceOnly(ctx, &cfg, stdout)
	case onlyNewsCheck:
		cfg.progress = os.Stderr
		return runNewsCheckOnly(ctx, &cfg, stdout)
	case onlyCorrections:
		cfg.progress = os.Stderr
		return runCorrectionsOnly(ctx, &cfg, stdout)
	}
	res, err := bench(ctx, &cfg)
	if err != nil {
		return err
	}
	if err := writeOutputs(cfg.out, res); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s/benchmarks.md, benchmarks.json and benchmarks-latency.png in %.0f s\n", cfg.out, res.TotalSeconds)
	return nil
}

// gitCommit names the source the run measured: the commit, and whether
// the work tree differed from it. Empty outside a git work tree.
func gitCommit() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// rerender writes the report and the plot again from a run's JSON.
func rerender(jsonPath, out string) error {
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		return err
	}
	var res Results
	if err := json.Unmarshal(data, &res); err != nil {
		return fmt.Errorf("read %s: %w", jsonPath, err)
	}
	return writeOutputs(out, &res)
}

// progressf writes a progress line, if the configuration has somewhere to
// write it.
func progressf(cfg *config, format string, args ...any) {
	if cfg.progress != nil {
		fmt.Fprintf(cfg.progress, time.Now().Format("15:04:05 ")+format+"\n", args...)
	}
}

// phases times the parts of a run and samples the load average at each,
// and every 15 seconds in between.
type phases struct {
	cfg     *config
	mu      sync.Mutex
	list    []Phase
	load    []LoadSample
	current string
	started time.Time
	stopped chan struct{}
	done    sync.WaitGroup
}

func startPhases(cfg *config) *phases {
	p := &phases{cfg: cfg, stopped: make(chan struct{})}
	p.done.Go(func() {
		tick := time.NewTicker(15 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				p.mu.Lock()
				p.load = append(p.load, loadAverage(p.current))
				p.mu.Unlock()
			case <-p.stopped:
				return
			}
		}
	})
	return p
}

// begin ends the current phase and starts the next.
func (p *phases) begin(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLocked()
	p.current, p.started = name, time.Now()
	s := loadAverage(name)
	p.load = append(p.load, s)
	progressf(p.cfg, "%s (load average %.2f)", name, s.Load1)
}

func (p *phases) endLocked() {
	if p.current != "" {
		p.list = append(p.list, Phase{Name: p.current, Seconds: time.Since(p.started).Seconds()})
		p.current = ""
	}
}

// stop ends the last phase and the sampling.
func (p *phases) stop() {
	close(p.stopped)
	p.done.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLocked()
	p.load = append(p.load, loadAverage("end"))
}

// bench runs every measurement of the configuration.
func bench(ctx context.Context, cfg *config) (_ *Results, err error) {
	start := time.Now()
	ph := startPhases(cfg)
	res := &Results{Date: start.UTC(), Command: cfg.command, Commit: gitCommit()}
	trgmTier, bigTier := tierFor(cfg.tiers, 100_000), tierFor(cfg.tiers, 1_000_000)
	res.Settings = RunSettings{
		Tiers: cfg.tiers, Queries: cfg.queries, ScanQueries: cfg.scanQueries, ScanAllBelow: cfg.scanAllBelow,
		TrgmQueries: cfg.trgmQueries, Unrelated: cfg.unrelated, TrgmTier: trgmTier, ColumnTier: bigTier, CheckTier: bigTier,
		CheckClients: cfg.checkClients, CheckSeconds: cfg.checkDuration.Seconds(), SeqSeconds: cfg.seqDuration.Seconds(),
		IngestCount: cfg.ingestCount, IngestClients: cfg.ingestClients, BatchSize: cfg.batchSize,
		PoolSize: cfg.poolSize, Kept: cfg.keep,
	}

	// Databases this run made, dropped at the end unless kept.
	var made []string
	defer func() {
		ph.stop()
		res.Phases, res.Load = ph.list, ph.load
		if cfg.keep {
			return
		}
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		for _, name := range made {
			if derr := dropDatabase(dctx, cfg.serverURL, name); derr != nil {
				err = errors.Join(err, derr)
			}
		}
	}()

	ph.begin("load the dictionary and the novel")
	server, err := pgxpool.New(ctx, cfg.serverURL)
	if err != nil {
		return nil, fmt.Errorf("connect to DATABASE_URL: %w", err)
	}
	res.Machine = describeMachine(ctx, server)
	server.Close()
	if res.Machine.PostgreSQL == "" {
		return nil, errors.New("DATABASE_URL's server does not answer")
	}
	dict, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		return nil, err
	}
	defer dict.Close()
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	novel, err := corpus.LoadNovel()
	if err != nil {
		return nil, err
	}

	ph.begin("fingerprint the real articles")
	rs, err := buildRealSet(ctx, novel, alg, cfg.realGroups)
	if err != nil {
		return nil, err
	}
	res.RealSet = RealSetInfo{Originals: cfg.realGroups, Stored: len(rs.Stored), Reposts: len(rs.Reposts),
		FingerprintSeconds: rs.FingerprintTime.Seconds()}

	soup, err := wordSoup(cfg.ingestCount)
	if err != nil {
		return nil, err
	}
	soupChecks := soup[:min(len(soup), 500)]
	for _, n := range cfg.tiers {
		label := tierLabel(n)
		ph.begin("build the " + label + " tier")
		made = append(made, cfg.dbPrefix+label)
		t, timing, err := loadTier(ctx, cfg, rs, novel, n, n == trgmTier)
		if err != nil {
			return nil, fmt.Errorf("tier %s: %w", label, err)
		}
		tr, err := measureTier(ctx, cfg, ph, rs, t, timing, n == trgmTier)
		if err != nil {
			t.Pool.Close()
			return nil, fmt.Errorf("tier %s: %w", label, err)
		}
		if n == bigTier {
			ph.begin("column types at " + label)
			if res.ColumnType, err = compareColumnTypes(ctx, t, makeQueries(rs, t.Mix.Real, cfg.queries, uint64(n))); err != nil {
				t.Pool.Close()
				return nil, fmt.Errorf("tier %s: column types: %w", label, err)
			}
			ph.begin("/v1/check against " + label)
			if res.Check, err = checkThroughService(ctx, cfg, rs, t, dict, soupChecks); err != nil {
				t.Pool.Close()
				return nil, fmt.Errorf("tier %s: /v1/check: %w", label, err)
			}
		}
		t.Pool.Close()
		res.Tiers = append(res.Tiers, *tr)
		if !cfg.keep { // free the disk before the next tier
			if err := dropDatabase(ctx, cfg.serverURL, t.Name); err != nil {
				return nil, err
			}
		}
	}

	loaded := func() (*corpus.Novel, error) { return novel, nil }
	if cfg.newsCheckRows > 0 {
		ph.begin("/v1/check on real news at " + tierLabel(cfg.newsCheckRows))
		if res.NewsCheck, err = benchNewsCheck(ctx, cfg, dict, loaded, &made); err != nil {
			return nil, fmt.Errorf("/v1/check on real news: %w", err)
		}
	}

	if cfg.sentenceRows > 0 {
		ph.begin("sentence lookup at " + tierLabel(cfg.sentenceRows) + " sentences")
		if res.SentenceLookup, res.SentenceLookupLarge, err = benchSentenceLookup(ctx, cfg, dict, loaded, &made); err != nil {
			return nil, fmt.Errorf("sentence lookup: %w", err)
		}
	}

	if len(cfg.correctionDependants) > 0 {
		ph.begin("corrections and deletions")
		if res.Corrections, err = benchCorrections(ctx, cfg, dict, loaded, &made); err != nil {
			return nil, fmt.Errorf("corrections: %w", err)
		}
	}

	for _, set := range []struct {
		name     string
		articles []corpus.Article
	}{{corpusNovel, ingestArticles(novel, cfg.ingestCount)}, {corpusSoup, soup}} {
		for _, c := range cfg.ingestClients {
			ph.begin("ingest " + set.name + " with " + strconv.Itoa(c) + " clients")
			name := cfg.dbPrefix + "ingest_" + strconv.Itoa(c)
			made = append(made, name)
			r, err := ingestThroughService(ctx, cfg, dict, set.articles, name, c)
			if err != nil {
				return nil, fmt.Errorf("ingest %s with %d clients: %w", set.name, c, err)
			}
			r.Corpus = set.name
			res.Ingest = append(res.Ingest, r)
			if !cfg.keep {
				if err := dropDatabase(ctx, cfg.serverURL, name); err != nil {
					return nil, err
				}
			}
		}
	}

	ph.begin("ingest on real news")
	if res.NewsIngest, err = benchNewsIngest(ctx, cfg, dict, loaded, &made); err != nil {
		return nil, fmt.Errorf("ingest on real news: %w", err)
	}

	ph.begin("fingerprint throughput")
	docs, err := fingerprintDocuments(novel)
	if err != nil {
		return nil, err
	}
	if res.Fingerprint, err = benchFingerprint(alg, docs, cfg.fpDuration); err != nil {
		return nil, err
	}
	res.TotalSeconds = time.Since(start).Seconds()
	res.Goals = judgeGoals(res)
	return res, nil
}

// measureTier measures the lookup methods on a built tier.
func measureTier(ctx context.Context, cfg *config, ph *phases, rs *realSet, t *tierDB, timing LoadTiming, trgm bool) (*TierResult, error) {
	tr := &TierResult{N: t.N, Label: t.Label, Database: t.Name, Mix: t.Mix, Load: timing, QueryKinds: map[string]int{}}
	var err error
	if tr.Sizes, err = tableSizes(ctx, t.Pool, "articles"); err != nil {
		return nil, err
	}
	ph.begin("lookups at " + t.Label)
	st, err := newServiceStatement(ctx, t.URL)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	bothM, err := bothMethod(ctx, st)
	if err != nil {
		return nil, err
	}
	if err := prewarm(ctx, t.Pool, "articles"); err != nil {
		return nil, err
	}
	// Unrelated queries first, while the prewarmed indexes are all in
	// shared_buffers: at 5,000,000 rows the heap pages the query mix reads
	// push index pages out.
	tr.Unrelated, err = measureMethods(ctx, t.Pool, []method{familyAMethod, bothM},
		[]int{cfg.unrelated, cfg.unrelated}, unrelatedQueries(cfg.unrelated, uint64(t.N)))
	if err != nil {
		return nil, err
	}
	queries := makeQueries(rs, t.Mix.Real, cfg.queries, uint64(t.N))
	for _, q := range queries {
		tr.QueryKinds[q.Kind]++
	}
	scan := len(queries)
	if t.N > cfg.scanAllBelow {
		scan = min(cfg.scanQueries, len(queries))
	}
	tr.Methods, err = measureMethods(ctx, t.Pool,
		[]method{scanMethod, familyAMethod, bothM}, []int{scan, len(queries), len(queries)}, queries)
	if err != nil {
		return nil, err
	}
	if trgm {
		ph.begin("pg_trgm at " + t.Label)
		var reposts []lookupQuery
		for _, q := range queries {
			if q.Kind == queryRepost && len(reposts) < cfg.trgmQueries {
				reposts = append(reposts, q)
			}
		}
		r, err := measureMethods(ctx, t.Pool, []method{trgmMethod}, []int{len(reposts)}, reposts)
		if err != nil {
			return nil, err
		}
		own, err := plannerChoice(ctx, t.Pool, trgmMethod, reposts[0])
		if err != nil {
			return nil, err
		}
		tr.TrgmOwnPlan, tr.TrgmOwnCost = own.Shape, own.Cost
		tr.Methods = append(tr.Methods, r...)
	}
	both := tr.method(methodBoth).DBMS.Median
	if both > 0 {
		tr.Speedups.ScanOverBoth = tr.method(methodScan).DBMS.Median / both
		tr.Speedups.FamilyAOverBoth = tr.method(methodFamilyA).DBMS.Median / both
		if m := tr.method(methodTrgm); m != nil {
			tr.Speedups.TrgmOverBoth = m.DBMS.Median / both
		}
	}
	return tr, nil
}

// prewarm loads the block indexes of table into shared_buffers with
// pg_prewarm, as steady traffic keeps them on a running server: every
// lookup reads a leaf page of each of the eight, so a busy server has them
// all in memory (they are small: see the sizes). Without it, each
// benchmark query would be the first to touch its eight leaf pages, a
// cold start no server sees after its first minutes. The heap is not
// prewarmed. For sentences, the block keys' GIN index (migration 00019)
// is theirs.
func prewarm(ctx context.Context, pool *pgxpool.Pool, table string) error {
	_, err := pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_prewarm`)
	if err == nil {
		_, err = pool.Exec(ctx, `
			SELECT pg_prewarm(i.indexrelid)
			FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
			WHERE i.indrelid = $1::regclass AND c.relname ~ '(_[ab][0-3]|_block_keys)_idx$'`, table)
	}
	if err != nil {
		return fmt.Errorf("prewarm the block indexes of %s: %w", table, err)
	}
	return nil
}

// checkThroughService serves the tier's database and times /v1/check with
// reposts of its stored originals: first one client alone, then
// cfg.checkClients at once.
func checkThroughService(ctx context.Context, cfg *config, rs *realSet, t *tierDB, dict *fingerprint.Dictionary, soup []corpus.Article) ([]CheckResult, error) {
	srv, err := startServer(ctx, t.URL, dict, cfg.poolSize)
	if err != nil {
		return nil, err
	}
	defer srv.stop()
	bodies, err := checkBodies(rs, t.Mix.Real)
	if err != nil {
		return nil, err
	}
	// Warm the pool's connections and their prepared statements.
	if _, err := benchCheck(ctx, srv.URL, bodies, cfg.checkClients, min(2*time.Second, cfg.seqDuration)); err != nil {
		return nil, err
	}
	soupBodies, err := soupCheckBodies(soup)
	if err != nil {
		return nil, err
	}
	var out []CheckResult
	for _, run := range []struct {
		corpus  string
		bodies  [][]byte
		clients int
		d       time.Duration
	}{
		{corpusNovel, bodies, 1, cfg.seqDuration},
		{corpusNovel, bodies, cfg.checkClients, cfg.checkDuration},
		{corpusSoup, soupBodies, 1, cfg.seqDuration},
	} {
		progressf(cfg, "  /v1/check: %s, %d clients for %s", run.corpus, run.clients, run.d)
		r, err := benchCheck(ctx, srv.URL, run.bodies, run.clients, run.d)
		if err != nil {
			return nil, err
		}
		r.Corpus, r.Database, r.DatabaseN = run.corpus, t.Name, t.N
		out = append(out, r)
	}
	return out, nil
}

// neighbours counts, for every stored article, the other articles within
// 3 bits (through the block indexes), and returns their mean and maximum,
// and the mean size of a word set.
func neighbours(ctx context.Context, dbURL string) (mean, most, words float64, err error) {
	pool, err := openPool(ctx, dbURL, 1)
	if err != nil {
		return 0, 0, 0, err
	}
	defer pool.Close()
	err = pool.QueryRow(ctx, `
		SELECT avg(n)::float8, max(n)::float8, avg(w)::float8 FROM (
			SELECT cardinality(a.words) AS w, (
				SELECT count(*) FROM articles b
				WHERE (b.a0 = a.a0 OR b.a1 = a.a1 OR b.a2 = a.a2 OR b.a3 = a.a3)
				  AND (b.b0 = a.b0 OR b.b1 = a.b1 OR b.b2 = a.b2 OR b.b3 = a.b3)
				  AND bit_count((b.simhash # a.simhash)::bit(64)) <= 3
				  AND b.id <> a.id) AS n
			FROM articles a) s`).Scan(&mean, &most, &words)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("count neighbours: %w", err)
	}
	return mean, most, words, nil
}

// ingestThroughService posts the articles to a fresh database through
// /v1/articles/batch with clients concurrent clients.
func ingestThroughService(ctx context.Context, cfg *config, dict *fingerprint.Dictionary, articles []corpus.Article, name string, clients int) (IngestResult, error) {
	dbURL, err := createDatabase(ctx, cfg.serverURL, name, false)
	if err != nil {
		return IngestResult{}, err
	}
	srv, err := startServer(ctx, dbURL, dict, cfg.poolSize)
	if err != nil {
		return IngestResult{}, err
	}
	defer srv.stop()
	batches, text, err := ingestBatches(articles, cfg.batchSize, "ingest-"+strconv.Itoa(clients)+"-")
	if err != nil {
		return IngestResult{}, err
	}
	r, err := benchIngest(ctx, srv.URL, batches, len(articles), text, clients, cfg.batchSize)
	if err != nil {
		return r, err
	}
	if r.NeighboursMean, r.NeighboursMax, r.WordsMean, err = neighbours(ctx, dbURL); err != nil {
		return r, err
	}
	progressf(cfg, "  %d clients: %.0f articles/s", clients, r.PerSecond)
	return r, nil
}
