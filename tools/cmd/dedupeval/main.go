// Command dedupeval measures how well newsdedup tells a newsroom whether an
// article is new, a copy, a near duplicate or a partial duplicate, on real
// Chinese news, and writes docs/evaluation.md (summary, goals, tables),
// docs/evaluation.json (every count) and docs/evaluation-reposts.png.
//
// It exists because the service's goals and defaults must rest on
// measurement that anyone can repeat and argue with. It evaluates the
// service end to end, as a newsroom would use it: the real handlers,
// service and repository serve HTTP on a scratch database; both corpora go
// in through POST /v1/articles/batch; reposts made from real articles go
// through POST /v1/check; the sentence links come from the shared-sentences
// route. The truth comes from a measure the service does not use: the
// character 5-grams of the bodies, all of them. A sweep of fingerprint and
// verifier settings, offline, feeds a rule that picks the defaults, and the
// labelled corpus cut from 围城 checks that nothing regressed.
//
// The corpora are third parties' text, read from ../shared/corpora beside
// the repository (or -corpora) and never copied into it. Without them the
// program says so and measures the novel alone.
//
// Usage:
//
//	DATABASE_URL=postgres://… dedupeval -out docs
//	dedupeval -out /tmp/eval -news-limit 2000 -per-band 30 -novel-limit 5
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

	"github.com/newsdedup/newsdedup/service/fingerprint"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
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
	out           string
	corpora       string
	databaseURL   string
	dbPrefix      string
	newsLimit     int
	perBand       int
	sentenceLinks int
	novelLimit    int
	sweep         bool
	driftOnly     bool
	evasionOnly   bool
	creditOnly    bool
	orderCheck    bool
	orderAll      bool
	workers       int
	dictDir       string
}

func parseFlags(args []string) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("dedupeval", flag.ContinueOnError)
	fs.StringVar(&cfg.out, "out", "docs", "the folder to write evaluation.md, evaluation.json and the chart into")
	fs.StringVar(&cfg.corpora, "corpora", "", "the folder of the real corpora (default: ../shared/corpora from the repository's root, or from its main checkout's for a worktree)")
	fs.StringVar(&cfg.databaseURL, "database-url", os.Getenv("DATABASE_URL"), "the PostgreSQL server to create the scratch database on (needed with the corpora)")
	fs.StringVar(&cfg.dbPrefix, "db-prefix", "dedupeval_", "the name prefix of the scratch database")
	fs.IntVar(&cfg.newsLimit, "news-limit", 0, "read at most this many articles of each corpus (0: all), for quick runs")
	fs.IntVar(&cfg.perBand, "per-band", 300, "originals per length band to make reposts of")
	fs.IntVar(&cfg.sentenceLinks, "sentence-links", 400, "sentence links the sentence audit samples")
	fs.IntVar(&cfg.novelLimit, "novel-limit", 0, "keep at most this many 围城 originals per band (0: all)")
	fs.BoolVar(&cfg.sweep, "sweep", true, "sweep the fingerprint settings (false: the shipped one alone)")
	fs.BoolVar(&cfg.driftOnly, "drift-only", false, "store the corpora, print the drift of their clusters (section 3c) and stop, writing no report: for iterating on how clusters form")
	fs.BoolVar(&cfg.evasionOnly, "evasion-only", false, "store the corpora, run the evasion section (issue 45) and stop, writing no report")
	fs.BoolVar(&cfg.creditOnly, "credit-only", false, "store the corpora, run the credit section (issue 47) and stop, writing no report")
	fs.BoolVar(&cfg.orderCheck, "order-check", false, "store the corpora in publication order and in reverse, print how many stored links and heads differ and stop, writing no report")
	fs.BoolVar(&cfg.orderAll, "order-all", false, "with -order-check, print every differing link (statuses, publication times, coverage), not ten")
	fs.IntVar(&cfg.workers, "workers", 2, "goroutines that fingerprint, and connections that check")
	fs.StringVar(&cfg.dictDir, "dict", fingerprint.DefaultDictDir(), "the jieba dictionary folder")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	switch {
	case fs.NArg() > 0:
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	case cfg.newsLimit < 0 || cfg.perBand < 1 || cfg.sentenceLinks < 1 || cfg.novelLimit < 0 || cfg.workers < 1:
		return cfg, errors.New("-news-limit and -novel-limit must be 0 or more; -per-band, -sentence-links and -workers 1 or more")
	}
	if cfg.corpora == "" {
		wd, err := os.Getwd()
		if err != nil {
			return cfg, err
		}
		cfg.corpora = newscorpus.DefaultDir(wd)
	}
	return cfg, nil
}

// run evaluates and writes the report into cfg.out. Progress goes to
// stdout.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	cfg, err := parseFlags(args)
	if err != nil {
		return err
	}
	ev := &evaluation{Started: time.Now(), Machine: thisMachine(), Command: commandLine, CorporaDir: cfg.corpora}

	d, err := fingerprint.Load(cfg.dictDir)
	if err != nil {
		return err
	}
	defer d.Close()

	// The real corpora, end to end, when they are there.
	nc, err := loadNews(ctx, cfg.corpora, cfg.newsLimit)
	if err != nil {
		return err
	}
	if nc.Missing != "" {
		ev.CorporaMissing = nc.Missing
		fmt.Fprintf(stdout, "real corpora MISSING: %s\nevaluating on 围城 alone; the real-news figures and goals are left out\n", nc.Missing)
	} else {
		if cfg.databaseURL == "" {
			return errors.New("the evaluation on real news needs a PostgreSQL server: set DATABASE_URL or -database-url")
		}
		if cfg.orderCheck {
			return orderCheck(ctx, cfg, d, nc.Articles, stdout)
		}
		if ev.News, ev.Postgres, err = evaluateNews(ctx, cfg, d, nc.Articles, stdout); err != nil {
			return err
		}
		if cfg.driftOnly || cfg.evasionOnly || cfg.creditOnly {
			return nil
		}
	}

	// The novel.
	fmt.Fprintf(stdout, "围城: version 2 at the fingerprint level, version 3 through the service\n")
	if ev.Novel, err = evaluateNovel(ctx, cfg, d, stdout); err != nil {
		return fmt.Errorf("围城: %w", err)
	}
	ev.Goals = ev.goals()

	// The report.
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	ev.Elapsed = time.Since(ev.Started)
	if err := writeChart(filepath.Join(cfg.out, chartFile), ev); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(cfg.out, "evaluation.json"), ev); err != nil {
		return err
	}
	if err := writeMarkdown(filepath.Join(cfg.out, "evaluation.md"), ev); err != nil {
		return err
	}
	fmt.Fprint(stdout, summaryText(ev))
	fmt.Fprintf(stdout, "wrote %s in %v\n", cfg.out, ev.Elapsed.Round(time.Second))
	return nil
}

// commandLine is the command that regenerates the committed report.
const commandLine = "make eval    # = cd tools && DATABASE_URL=… go run ./cmd/dedupeval -out ../docs [-corpora DIR]"
