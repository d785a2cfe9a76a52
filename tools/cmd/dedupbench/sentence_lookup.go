package main

import (
	"context"
	"fmt"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The sentence-lookup section: issue 10, point 5 asks that all the
// sentences of one article be looked up against 10 million stored sentences
// in a median of 5 ms or less in the database, and that the index's storage
// per stored article be stated. It builds a sentence index of
// cfg.sentenceRows rows (sentence_build.go, sentence_bulk.go), fingerprints
// real articles whose near copies it holds as the service does, and times
// the service's own sentence statement on them (sentence_queries.go,
// sentence_measure.go).

// benchSentenceLookup measures the section. novel loads 围城, for the edits
// and for when the corpora are missing. The database it makes is appended
// to made; it drops it at the end unless cfg.keep.
func benchSentenceLookup(ctx context.Context, cfg *config, dict *fingerprint.Dictionary, novel func() (*corpus.Novel, error), made *[]string) (*SentenceLookupResult, error) {
	start := time.Now()
	res := &SentenceLookupResult{
		Date: start.UTC(), Command: cfg.command, Commit: gitCommit(), Rows: cfg.sentenceRows,
		LoadAvg: []LoadSample{loadAverage("sentence lookup: start")},
	}
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	name := cfg.dbPrefix + "sentences"
	*made = append(*made, name)
	db, err := buildSentenceDB(ctx, cfg, alg, novel, name, res)
	if db != nil && db.Pool != nil {
		defer db.Pool.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("build the sentence index: %w", err)
	}
	n, err := novel()
	if err != nil {
		return nil, err
	}
	queries, err := sentenceQueries(ctx, cfg, alg, n, db)
	if err != nil {
		return nil, err
	}
	if err := measureSentenceLookups(ctx, db, queries, res); err != nil {
		return nil, err
	}
	progressf(cfg, "  sentence lookup: median %.3f ms, p99 %.3f ms in the database over %d queries",
		res.DBMS.Median, res.DBMS.P99, res.Queries)
	db.Pool.Close()
	if !cfg.keep {
		if err := dropDatabase(ctx, cfg.serverURL, name); err != nil {
			return nil, err
		}
	}
	res.LoadAvg = append(res.LoadAvg, loadAverage("sentence lookup: end"))
	res.TotalSeconds = time.Since(start).Seconds()
	return res, nil
}
