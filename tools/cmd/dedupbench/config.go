package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

// config is one run's settings: the flags, and the sizes the tests shrink.
type config struct {
	serverURL string // a server where the role may CREATE DATABASE
	dbPrefix  string // the databases are named dbPrefix + tier label
	tiers     []int  // table sizes, ascending
	queries   int    // query fingerprints per method and tier
	keep      bool   // keep the databases
	out       string // folder of benchmarks.md, .json and -latency.png
	command   string // the command line, for the report

	realGroups    int           // originals cut from 围城; each gives 3 stored copies besides itself and 1 unstored repost
	scanQueries   int           // queries of the full scan at tiers above scanAllBelow
	scanAllBelow  int           // at or below this many rows the full scan runs every query
	trgmQueries   int           // pg_trgm queries (each a repost's body)
	unrelated     int           // uniformly random query fingerprints per tier
	seqDuration   time.Duration // /v1/check with one client
	checkDuration time.Duration // /v1/check with checkClients clients
	checkClients  int
	ingestCount   int   // articles per ingest run
	ingestClients []int // concurrent clients of the ingest runs
	batchSize     int
	fpDuration    time.Duration // the fingerprint loop
	poolSize      int32         // the service's pool
	progress      io.Writer     // where progress lines go
	rerender      string        // a benchmarks.json to write the report and plot from again, measuring nothing

	// The real-news ingest section (news_ingest.go).
	corpora           string // the folder of the real corpora; "" or missing: 围城 articles instead
	newsArticles      int    // the first newsArticles Sina articles
	newsReps          int    // each measurement this many times
	newsBatchSize     int
	newsBatchClients  []int
	newsSingleClients int
	cpuProfile        string // a CPU profile of the whole run goes there
	batchSent         int    // set by the real-news section: the articles its batch runs sent, for the per-stage table
	only              string // onlyNewsIngest, onlySentenceLookup or onlyNewsCheck: run that section alone

	// The sentence-lookup section (sentence_lookup.go).
	sentenceRows     int // sentence rows in all; 0 skips the section
	sentenceArticles int // real articles stored (a tenth as many more are held back)
	sentenceQueries  int
	// sentenceLargeRows: after the lookups at sentenceRows, the index grows
	// to this many rows and they run again (issue 38's tier); at most
	// sentenceRows skips it. sentenceGrowArticles more real articles are
	// then stored through the service, to see what ingest adds an article.
	sentenceLargeRows    int
	sentenceGrowArticles int

	// The check-on-real-news section (news_check.go).
	newsCheckRows          int // rows of its database in all; 0 skips the section
	newsCheckArticles      int // real articles stored at most; 0: every one not held out
	newsCheckQueries       int // held-out articles, and reposts of stored ones: the check requests of each kind
	newsCheckIngestClients int // clients of the real news' batch ingest (batches of batchSize)
	newsCheckReps          int // each run of checks this many times, in turn

	// The corrections section (corrections.go).
	correctionDependants []int // the numbers of copies linking to the original; empty skips the section
	correctionReps       int
}

// onlyNewsIngest is the -only value that runs the real-news ingest section
// alone.
const onlyNewsIngest = "news-ingest"

// onlySentenceLookup is the -only value that runs the sentence-lookup
// section alone.
const onlySentenceLookup = "sentence-lookup"

// onlyNewsCheck is the -only value that runs the check-on-real-news
// section alone.
const onlyNewsCheck = "news-check"

// defaultConfig is the configuration `make bench` runs.
func defaultConfig() config {
	return config{
		dbPrefix:      "bench_",
		tiers:         []int{100_000, 1_000_000},
		queries:       500,
		out:           "docs",
		realGroups:    5_000,
		scanQueries:   20,
		scanAllBelow:  100_000,
		trgmQueries:   20,
		unrelated:     200,
		seqDuration:   10 * time.Second,
		checkDuration: 30 * time.Second,
		checkClients:  16,
		ingestCount:   8_000,
		ingestClients: []int{1, 2, 4},
		batchSize:     200,
		fpDuration:    5 * time.Second,
		poolSize:      16,

		newsArticles:      4_000,
		newsReps:          3,
		newsBatchSize:     100,
		newsBatchClients:  []int{2, 4},
		newsSingleClients: 16,

		sentenceRows:         10_000_000,
		sentenceArticles:     4_000,
		sentenceQueries:      200,
		sentenceLargeRows:    100_000_000,
		sentenceGrowArticles: 2_000,

		newsCheckRows:          1_000_000,
		newsCheckQueries:       1_000,
		newsCheckIngestClients: 2,
		newsCheckReps:          3,

		correctionDependants: []int{0, 100, 1_000, 10_000},
		correctionReps:       11,
	}
}

// parseFlags reads the command line into a configuration. DATABASE_URL comes
// from the environment.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	cfg := defaultConfig()
	fs := flag.NewFlagSet("dedupbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tiers := fs.String("tiers", "100k,1m", "table sizes to build, comma-separated: 100k, 1m, 5m (5m is opt-in: about two minutes and 2 GB of disk more) or a number")
	fs.StringVar(&cfg.dbPrefix, "db-prefix", cfg.dbPrefix, "the databases the run makes (and drops) are named with this prefix")
	fs.IntVar(&cfg.queries, "queries", cfg.queries, "query fingerprints per method and tier")
	fs.BoolVar(&cfg.keep, "keep", false, "keep the bench_<tier> databases")
	fs.StringVar(&cfg.out, "out", cfg.out, "folder to write benchmarks.md, benchmarks.json and benchmarks-latency.png to")
	fs.StringVar(&cfg.rerender, "rerender", "", "measure nothing: write the report and the plot again from this benchmarks.json (after a change to how they are written)")
	fs.StringVar(&cfg.corpora, "corpora", "", "the folder of the real corpora (default: ../shared/corpora from the repository's root, or from its main checkout's for a worktree); without them the real-news section ingests 围城 articles and says so")
	fs.IntVar(&cfg.newsArticles, "news-articles", cfg.newsArticles, "the real-news section ingests the first this many Sina articles")
	fs.Func("news-batch-clients", "the real-news section's batch runs: their numbers of clients, comma-separated (default 2,4)", func(v string) error {
		cfg.newsBatchClients = nil
		for f := range strings.SplitSeq(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return fmt.Errorf("%q is not a number of clients", f)
			}
			cfg.newsBatchClients = append(cfg.newsBatchClients, n)
		}
		return nil
	})
	fs.IntVar(&cfg.newsSingleClients, "news-single-clients", cfg.newsSingleClients, "the real-news section's single-article runs: their clients (0 skips them)")
	fs.IntVar(&cfg.newsReps, "news-reps", cfg.newsReps, "how many times the real-news section repeats each measurement")
	fs.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run (the in-process service, its clients, the peer) to this file, for go tool pprof")
	fs.StringVar(&cfg.only, "only", "", "run one section alone: "+onlyNewsIngest+" (the real-news ingest), "+onlySentenceLookup+" (the sentence lookup), "+onlyNewsCheck+" (/v1/check on real news) or "+onlyCorrections+" (corrections and deletions of a much-copied article); merged into -out's benchmarks.json when there is one, and printed")
	fs.IntVar(&cfg.sentenceRows, "sentence-rows", cfg.sentenceRows, "the sentence-lookup section's sentence index holds this many rows (0 skips the section)")
	fs.IntVar(&cfg.sentenceArticles, "sentence-articles", cfg.sentenceArticles, "the sentence-lookup section stores the first this many real articles through the service (a tenth as many more are held back, to query)")
	fs.IntVar(&cfg.sentenceQueries, "sentence-queries", cfg.sentenceQueries, "articles whose sentences the sentence-lookup section looks up")
	fs.IntVar(&cfg.sentenceLargeRows, "sentence-large-rows", cfg.sentenceLargeRows, "after its lookups at -sentence-rows, the sentence-lookup section grows its index to this many rows and looks up again (about 16 GB of disk and an hour at 100,000,000; at most -sentence-rows skips it)")
	fs.IntVar(&cfg.sentenceGrowArticles, "sentence-grow-articles", cfg.sentenceGrowArticles, "at -sentence-large-rows, the sentence-lookup section then stores this many more real articles through the service and measures what they grew the index by")
	fs.IntVar(&cfg.newsCheckReps, "news-check-reps", cfg.newsCheckReps, "how many times the /v1/check-on-real-news section repeats its runs (one client, then 16, for each kind of request), in turn; its goals judge the median run")
	fs.IntVar(&cfg.newsCheckRows, "news-check-rows", cfg.newsCheckRows, "the /v1/check-on-real-news section's database holds this many rows: the real news, the rest random fingerprints (0 skips the section)")
	pool := fs.Int("pool", int(cfg.poolSize), "the in-process service's repo pool, in connections (dedupd's DEDUP_DB_MAX_CONNS)")
	fs.IntVar(&cfg.newsCheckArticles, "news-check-articles", cfg.newsCheckArticles, "the /v1/check-on-real-news section stores at most this many real articles, drawn at random (0: every Sina and CCTV article but the held-out ones; a smaller number makes a quicker trial run)")
	dependants := fs.String("corrections-dependants", joinInts(cfg.correctionDependants), "the corrections section measures an original with this many copies linking to it, comma-separated (0 is the ratios' base; empty skips the section)")
	fs.IntVar(&cfg.correctionReps, "corrections-reps", cfg.correctionReps, "how many times the corrections section repeats each operation at each size, in turn")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if *pool < 1 || *pool > math.MaxInt32 {
		return cfg, fmt.Errorf("-pool %d: want at least one connection", *pool)
	}
	cfg.poolSize = int32(*pool)
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if cfg.rerender != "" {
		return cfg, nil
	}
	var err error
	if cfg.correctionDependants, err = parseDependants(*dependants); err != nil {
		return cfg, err
	}
	switch {
	case cfg.only != "" && cfg.only != onlyNewsIngest && cfg.only != onlySentenceLookup && cfg.only != onlyNewsCheck && cfg.only != onlyCorrections:
		return cfg, fmt.Errorf("-only: %q is not a section; the ones there are: %s, %s, %s, %s", cfg.only, onlyNewsIngest, onlySentenceLookup, onlyNewsCheck, onlyCorrections)
	case cfg.correctionReps < 1:
		return cfg, errors.New("-corrections-reps must be 1 or more")
	case cfg.only == onlyCorrections && len(cfg.correctionDependants) == 0:
		return cfg, errors.New("-only " + onlyCorrections + " with -corrections-dependants empty measures nothing")
	case cfg.sentenceRows < 0 || cfg.sentenceArticles < 1 || cfg.sentenceQueries < 1 || cfg.sentenceLargeRows < 0 || cfg.sentenceGrowArticles < 1:
		return cfg, errors.New("-sentence-rows and -sentence-large-rows must be 0 or more, -sentence-articles, -sentence-queries and -sentence-grow-articles 1 or more")
	case cfg.only == onlySentenceLookup && cfg.sentenceRows == 0:
		return cfg, errors.New("-only " + onlySentenceLookup + " with -sentence-rows 0 measures nothing")
	case cfg.newsCheckRows < 0 || cfg.newsCheckArticles < 0:
		return cfg, errors.New("-news-check-rows and -news-check-articles must be 0 or more")
	case cfg.only == onlyNewsCheck && cfg.newsCheckRows == 0:
		return cfg, errors.New("-only " + onlyNewsCheck + " with -news-check-rows 0 measures nothing")
	case cfg.newsArticles < 1 || cfg.newsReps < 1 || cfg.newsCheckReps < 1:
		return cfg, errors.New("-news-articles, -news-reps and -news-check-reps must be 1 or more")
	}
	if cfg.corpora == "" {
		wd, err := os.Getwd()
		if err != nil {
			return cfg, fmt.Errorf("find the corpora: %w", err)
		}
		cfg.corpora = newscorpus.DefaultDir(wd)
	}
	if cfg.tiers, err = parseTiers(*tiers); err != nil {
		return cfg, err
	}
	if cfg.queries < 3 {
		return cfg, fmt.Errorf("-queries must be at least 3, not %d", cfg.queries)
	}
	cfg.serverURL = os.Getenv("DATABASE_URL")
	if cfg.serverURL == "" {
		return cfg, errors.New("DATABASE_URL is not set: name a PostgreSQL server where this role may CREATE DATABASE")
	}
	cfg.command = "go run ./tools/cmd/dedupbench " + strings.Join(args, " ")
	return cfg, nil
}

// parseTiers reads "100k,1m,5m" (or plain numbers) into ascending sizes.
func parseTiers(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		mult := 1
		switch {
		case strings.HasSuffix(f, "k"):
			mult, f = 1_000, strings.TrimSuffix(f, "k")
		case strings.HasSuffix(f, "m"):
			mult, f = 1_000_000, strings.TrimSuffix(f, "m")
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 || n > 100_000_000/mult {
			return nil, fmt.Errorf("-tiers: %q is not a table size such as 100k, 1m or 5m", f)
		}
		out = append(out, n*mult)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// tierLabel names a table size as the flags do: 100k, 1m, 5m, 2k.
func tierLabel(n int) string {
	switch {
	case n%1_000_000 == 0:
		return strconv.Itoa(n/1_000_000) + "m"
	case n%1_000 == 0:
		return strconv.Itoa(n/1_000) + "k"
	}
	return strconv.Itoa(n)
}

// tierFor picks the tier a measurement made once runs at: want if it is
// one of the tiers, otherwise the largest tier below it, otherwise the
// smallest one.
func tierFor(tiers []int, want int) int {
	best := tiers[0]
	for _, t := range tiers {
		if t <= want {
			best = t
		}
	}
	return best
}

// parseDependants reads "0,100,1000" into ascending numbers of dependants;
// an empty list skips the section.
func parseDependants(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("-corrections-dependants: %q is not a number of articles", f)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// joinInts is ns comma-separated.
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}
