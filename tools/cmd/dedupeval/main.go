// Command dedupeval measures how well newsdedup tells near duplicates from
// unrelated articles, and writes the figures the defaults are chosen from:
// docs/evaluation.md (tables and reasoning), docs/evaluation.json (every
// count) and docs/evaluation-pr.png (precision against recall).
//
// It exists because the service's defaults — the fingerprint's parameters,
// the algorithm, min_word_ratio — are choices that must rest on measurement,
// and a measurement must be repeatable to be argued with. So the labelled
// corpus is built here, by code, from the novel 围城 (real news cannot ship
// with the code), with fixed seeds: every run measures the same pairs and
// writes the same figures, timings aside. It evaluates as the service
// decides: every copy and every original is a query against the stored
// originals, and a pair is a near duplicate when its fingerprints are within
// max_distance bits and its word sets overlap by min_word_ratio. The baseline
// a team would reach for instead, PostgreSQL's pg_trgm, is measured on the
// same pairs in a scratch database (-trgm=false skips it, and the database).
//
// Usage:
//
//	DATABASE_URL=postgres://… dedupeval -out docs
//	dedupeval -out /tmp/eval -trgm=false -limit 10
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "dedupeval: %v\n", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	out         string
	trgm        bool
	databaseURL string
	locale      string
	filler      int
	limit       int
	workers     int
	dictDir     string
}

func parseFlags(args []string) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("dedupeval", flag.ContinueOnError)
	fs.StringVar(&cfg.out, "out", "docs", "the folder to write evaluation.md, evaluation.json and evaluation-pr.png into")
	fs.BoolVar(&cfg.trgm, "trgm", true, "also evaluate the pg_trgm baseline (needs -database-url)")
	fs.StringVar(&cfg.databaseURL, "database-url", os.Getenv("DATABASE_URL"), "the PostgreSQL server to create the scratch database on")
	fs.StringVar(&cfg.locale, "trgm-locale", "C.UTF-8", "LC_CTYPE of the scratch database: a UTF-8 locale, or pg_trgm sees no Chinese")
	fs.IntVar(&cfg.filler, "trgm-filler", 10000, "also time pg_trgm lookups with this many filler rows stored (0: skip)")
	fs.IntVar(&cfg.limit, "limit", 0, "keep at most this many originals per length band (0: all the novel gives), for quick runs")
	fs.IntVar(&cfg.workers, "workers", 2, "goroutines that fingerprint")
	fs.StringVar(&cfg.dictDir, "dict", fingerprint.DefaultDictDir(), "the jieba dictionary folder")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	switch {
	case fs.NArg() > 0:
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	case cfg.trgm && cfg.databaseURL == "":
		return cfg, errors.New("the pg_trgm baseline needs DATABASE_URL or -database-url (or -trgm=false)")
	case cfg.limit < 0 || cfg.filler < 0 || cfg.workers < 1:
		return cfg, errors.New("-limit and -trgm-filler must be 0 or more, -workers 1 or more")
	}
	return cfg, nil
}

// run builds the corpus, evaluates every method on it and writes the
// report into cfg.out. Progress goes to stdout.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	cfg, err := parseFlags(args)
	if err != nil {
		return err
	}
	start := time.Now()
	ev := evaluation{Started: start, Machine: thisMachine(), Command: commandLine}

	// Corpus.
	novel, err := corpus.LoadNovel()
	if err != nil {
		return err
	}
	if ev.Corpus, err = buildCorpus(novel, cfg.limit); err != nil {
		return err
	}
	qs := queries(ev.Corpus)
	ev.Queries = len(qs)
	forEachPair(qs, len(ev.Corpus.Originals), func(_, _ int, dup bool) {
		ev.Pairs++
		if dup {
			ev.Positives++
		}
	})
	fmt.Fprintf(stdout, "corpus: %d originals, %d copies, %d queries, %d pairs (%d duplicates)\n",
		len(ev.Corpus.Originals), len(ev.Corpus.Copies), ev.Queries, ev.Pairs, ev.Positives)

	// Simhash methods.
	d, err := fingerprint.Load(cfg.dictDir)
	if err != nil {
		return err
	}
	defer d.Close()
	for _, m := range simhashMethods() {
		r, err := evaluateSimhash(ctx, d, m, ev.Corpus, qs, cfg.workers)
		if err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
		ev.Simhash = append(ev.Simhash, r)
		fmt.Fprintf(stdout, "%-34s fingerprinted %d texts in %v\n", m.Name, len(qs), r.Fingerprint.Round(time.Millisecond))
	}
	ev.Concentrations = concentrations(d, ev.Corpus)
	ev.Recommended = recommend(ev.Simhash)

	// The pg_trgm baseline.
	if cfg.trgm {
		filler := fillerBodies(novel, cfg.filler)
		r, err := evaluateTrgm(ctx, cfg.databaseURL, cfg.locale, ev.Corpus, qs, filler, func(ts tallies) int { return bestTrgm(ts).Point })
		if err != nil {
			return fmt.Errorf("pg_trgm: %w", err)
		}
		ev.Trgm = &r
		fmt.Fprintf(stdout, "pg_trgm: every pair of %d queries in %v\n", r.Queries, r.AllPairs.Round(time.Millisecond))
	}

	// Report.
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	if err := writeChart(filepath.Join(cfg.out, chartFile), &ev); err != nil {
		return err
	}
	ev.Elapsed = time.Since(start)
	if err := writeJSON(filepath.Join(cfg.out, "evaluation.json"), &ev); err != nil {
		return err
	}
	if err := writeMarkdown(filepath.Join(cfg.out, "evaluation.md"), &ev); err != nil {
		return err
	}
	fmt.Fprint(stdout, ev.summary())
	fmt.Fprintf(stdout, "wrote %s in %v\n", cfg.out, ev.Elapsed.Round(time.Second))
	return nil
}

// commandLine is the command that regenerates the committed report.
const commandLine = "make eval    # = DATABASE_URL=… go run ./tools/cmd/dedupeval -out docs"
