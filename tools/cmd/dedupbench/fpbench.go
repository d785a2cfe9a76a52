package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// FingerprintResult is the fingerprint throughput on one core.
type FingerprintResult struct {
	Documents   int     `json:"documents"`
	MeanBytes   float64 `json:"mean_bytes"`
	Seconds     float64 `json:"seconds"`
	Calls       int     `json:"calls"`
	MBPerSec    float64 `json:"mb_per_second"` // 10^6 bytes of UTF-8 (title and body) per second
	MicrosPerOp float64 `json:"us_per_article"`
}

// fingerprintDocuments returns the 64 articles of 1–3 KB that
// BenchmarkFingerprint (service/fingerprint/bench_test.go) uses.
func fingerprintDocuments(novel *corpus.Novel) ([]fingerprint.Document, error) {
	var docs []fingerprint.Document
	for _, a := range novel.Overlapping(rand.New(rand.NewPCG(51, 0x73696d68)), 400, 330, 1000) {
		if size := len(a.Title) + len(a.Body); size >= 1024 && size <= 3072 && len(docs) < 64 {
			docs = append(docs, fingerprint.Document{Title: a.Title, Body: a.Body})
		}
	}
	if len(docs) < 64 {
		return nil, fmt.Errorf("only %d articles of 1–3 KB", len(docs))
	}
	return docs, nil
}

// benchFingerprint calls alg on docs in turn, on one goroutine with
// GOMAXPROCS at 1 (as `go test -cpu 1` does), for d.
func benchFingerprint(alg fingerprint.Algorithm, docs []fingerprint.Document, d time.Duration) (FingerprintResult, error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	runtime.GC()
	var bytes int64
	calls := 0
	start := time.Now()
	for time.Since(start) < d {
		doc := docs[calls%len(docs)]
		if _, err := alg.Fingerprint(context.Background(), doc); err != nil {
			return FingerprintResult{}, err
		}
		bytes += int64(len(doc.Title) + len(doc.Body))
		calls++
	}
	elapsed := time.Since(start).Seconds()
	return FingerprintResult{
		Documents:   len(docs),
		MeanBytes:   float64(bytes) / float64(calls),
		Seconds:     elapsed,
		Calls:       calls,
		MBPerSec:    float64(bytes) / elapsed / 1e6,
		MicrosPerOp: elapsed / float64(calls) * 1e6,
	}, nil
}
