// Command dedupbench measures what newsdedup's design promises, on real
// PostgreSQL, and writes the figures to docs/benchmarks.md,
// docs/benchmarks.json and docs/benchmarks-latency.png.
//
// Why it exists: the design (shared design §3–§4) rests on a claim — eight
// 16-bit block columns with one B-tree each, queried as a BitmapAnd of two
// BitmapOrs, find every fingerprint within 3 bits in about a millisecond
// however many millions of rows are stored — and on a choice (smallint block
// values rather than bigint masked ones). A claim like that is only as good
// as its measurement, so this command builds tables of 100,000 to 5,000,000
// fingerprints, times the service's candidate query next to a full scan, one
// family of blocks alone and pg_trgm, and then times the whole service over
// HTTP. `make bench` runs it; its output is committed so that a regression
// shows up as a diff.
//
// Usage:
//
//	DATABASE_URL=postgres://… go run ./tools/cmd/dedupbench [-tiers 100k,1m[,5m]] [-queries 500] [-keep] [-out docs]
//	    [-corpora DIR] [-news-articles 4000] [-news-reps 3] [-news-check-rows 1000000]
//	    [-news-check-articles 0] [-only news-ingest|sentence-lookup|news-check|corrections] [-pool 16]
//	    [-corrections-dependants 0,100,1000,10000] [-corrections-reps 11]
//
// DATABASE_URL names a server where the role may CREATE DATABASE: each tier
// gets a database bench_<tier> of its own, dropped at the end unless -keep.
//
// The section "Ingest on real news" (issue 11) ingests the first
// -news-articles Sina articles from -corpora (default ../shared/corpora
// from the repository's root, as cmd/dedupeval finds it): fingerprint-only,
// batch ingest with 2 and 4 clients and single-article POSTs with 16,
// with the sentence index on and off, each -news-reps times, a fresh
// database bench_news_<kind>_<clients>_<on|off> for each run. Without the
// corpora it ingests 围城 articles instead and the report says so. To run
// that section alone, in a minute or two rather than the whole benchmark's
// half hour:
//
//	cd tools && DATABASE_URL=… go run ./cmd/dedupbench -only news-ingest [-out ../docs]
//
// It prints the section's Markdown, its goals included, to stdout
// (progress to stderr) and, when the -out folder holds a benchmarks.json,
// puts the section into it and writes benchmarks.md and the plot again
// from it, leaving the other sections as they were measured.
//
// The section "/v1/check on real news" times /v1/check, as the 1m tier's
// section does, against a database bench_news_check of -news-check-rows
// articles: every Sina and CCTV article of -corpora but 1,000 held out,
// stored through the service (word sets, shingles, clusters, sentence
// index), and random fingerprints COPY'd for the rest. It checks reposts
// of stored news and the held-out news. Without the corpora it measures
// nothing and says so. It runs after the tiers (several minutes more,
// mostly the news's ingest); to run it alone:
//
//	cd tools && DATABASE_URL=… go run ./cmd/dedupbench -only news-check [-out ../docs]
//
// -news-check-articles N stores only N of the news articles, for a
// quicker trial (its goals are then not judged).
//
// The section "Corrections and deletions" (issue 32) times a new headline,
// a correction line, another story and a deletion of an original that
// -corrections-dependants copies link to (0, 100, 1,000 and 10,000),
// -corrections-reps times each (about ten minutes); to run it alone:
//
//	cd tools && DATABASE_URL=… go run ./cmd/dedupbench -only corrections [-out ../docs]
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "dedupbench: %v\n", err)
		os.Exit(1)
	}
}
