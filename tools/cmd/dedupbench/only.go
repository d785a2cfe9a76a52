package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// runNewsOnly is -only news-ingest: it measures the real-news section
// alone (no tiers, no other ingest), prints its Markdown, goals included,
// to stdout, and, when -out holds a benchmarks.json, puts the section into
// it and writes the report and the plot again from it, so that the other
// sections stay as they were measured.
func runNewsOnly(ctx context.Context, cfg *config, stdout io.Writer) (err error) {
	return runOnly(ctx, cfg, stdout, func(dict *fingerprint.Dictionary, made *[]string) (string, func(*Results), error) {
		news, err := benchNewsIngest(ctx, cfg, dict, corpus.LoadNovel, made)
		if err != nil {
			return "", nil, fmt.Errorf("ingest on real news: %w", err)
		}
		var b strings.Builder
		writeNewsIngest(&b, news, true)
		return b.String(), func(r *Results) { r.NewsIngest = news }, nil
	})
}

// runSentenceOnly is -only sentence-lookup: the sentence-lookup section
// alone, printed and merged as runNewsOnly's.
func runSentenceOnly(ctx context.Context, cfg *config, stdout io.Writer) (err error) {
	return runOnly(ctx, cfg, stdout, func(dict *fingerprint.Dictionary, made *[]string) (string, func(*Results), error) {
		novel := sync.OnceValues(corpus.LoadNovel)
		sl, large, err := benchSentenceLookup(ctx, cfg, dict, novel, made)
		if err != nil {
			return "", nil, fmt.Errorf("sentence lookup: %w", err)
		}
		var b strings.Builder
		writeSentenceLookup(&b, sl, large, true)
		return b.String(), func(r *Results) { r.SentenceLookup, r.SentenceLookupLarge = sl, large }, nil
	})
}

// runNewsCheckOnly is -only news-check: the check-on-real-news section
// alone, printed and merged as runNewsOnly's.
func runNewsCheckOnly(ctx context.Context, cfg *config, stdout io.Writer) (err error) {
	return runOnly(ctx, cfg, stdout, func(dict *fingerprint.Dictionary, made *[]string) (string, func(*Results), error) {
		nc, err := benchNewsCheck(ctx, cfg, dict, sync.OnceValues(corpus.LoadNovel), made)
		if err != nil {
			return "", nil, fmt.Errorf("/v1/check on real news: %w", err)
		}
		var b strings.Builder
		writeNewsCheck(&b, nc, true)
		return b.String(), func(r *Results) { r.NewsCheck = nc }, nil
	})
}

// runCorrectionsOnly is -only corrections: the corrections section alone,
// printed and merged as runNewsOnly's.
func runCorrectionsOnly(ctx context.Context, cfg *config, stdout io.Writer) (err error) {
	return runOnly(ctx, cfg, stdout, func(dict *fingerprint.Dictionary, made *[]string) (string, func(*Results), error) {
		c, err := benchCorrections(ctx, cfg, dict, corpus.LoadNovel, made)
		if err != nil {
			return "", nil, fmt.Errorf("corrections: %w", err)
		}
		var b strings.Builder
		writeCorrections(&b, c, true)
		return b.String(), func(r *Results) { r.Corrections = c }, nil
	})
}

// runOnly runs one section alone: measure returns its Markdown and how to
// put it into a run's results. It prints the Markdown to stdout and, when
// -out holds a benchmarks.json, puts the section into it (judging the goals
// again) and writes the report and the plot again from it.
func runOnly(ctx context.Context, cfg *config, stdout io.Writer, measure func(*fingerprint.Dictionary, *[]string) (string, func(*Results), error)) (err error) {
	server, err := pgxpool.New(ctx, cfg.serverURL)
	if err != nil {
		return fmt.Errorf("connect to DATABASE_URL: %w", err)
	}
	perr := server.Ping(ctx)
	server.Close()
	if perr != nil {
		return fmt.Errorf("DATABASE_URL's server does not answer: %w", perr)
	}
	dict, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		return err
	}
	defer dict.Close()

	var made []string
	defer func() {
		if cfg.keep {
			return
		}
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		for _, name := range made {
			err = errors.Join(err, dropDatabase(dctx, cfg.serverURL, name))
		}
	}()
	section, put, err := measure(dict, &made)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, section)

	merged, err := mergeSection(filepath.Join(cfg.out, jsonFile), put)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(os.Stderr, "no %s: the section is printed only\n", filepath.Join(cfg.out, jsonFile))
		return nil
	case err != nil:
		return err
	}
	if err := writeOutputs(cfg.out, merged); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "put the section into %s and wrote %s and %s again\n", filepath.Join(cfg.out, jsonFile), reportFile, plotFile)
	return nil
}

// mergeSection reads a run's results from path, puts a section into them
// and judges the goals again.
func mergeSection(path string, put func(*Results)) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var res Results
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	put(&res)
	res.Goals = judgeGoals(&res)
	return &res, nil
}
