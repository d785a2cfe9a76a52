package fingerprint_test

import (
	"context"
	"runtime/metrics"
	"sync/atomic"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// benchDocuments returns 64 articles of 1–3 KB of UTF-8 cut from 围城, and
// their mean size in bytes (title and body).
func benchDocuments(b *testing.B) ([]fingerprint.Document, int64) {
	b.Helper()
	var docs []fingerprint.Document
	var total int64
	for _, a := range mustNovel(b).Overlapping(newRand(51), 400, 330, 1000) {
		if size := len(a.Title) + len(a.Body); size >= 1024 && size <= 3072 && len(docs) < 64 {
			docs = append(docs, fingerprint.Document{Title: a.Title, Body: a.Body})
			total += int64(size)
		}
	}
	if len(docs) < 64 {
		b.Fatalf("only %d articles of 1–3 KB", len(docs))
	}
	return docs, total / int64(len(docs))
}

// benchmarkAlgorithm fingerprints the documents in turn; the bytes per
// operation are their mean size, so the MB/s column is the throughput.
func benchmarkAlgorithm(b *testing.B, alg fingerprint.Algorithm) {
	docs, mean := benchDocuments(b)
	b.SetBytes(mean)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := alg.Fingerprint(context.Background(), docs[i%len(docs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkFingerprint(b *testing.B) {
	benchmarkAlgorithm(b, fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams))
}

// BenchmarkFingerprintParallel fingerprints on every core at once, as a
// busy service does, where the garbage collector's work takes turns with
// the fingerprinting rather than running on an idle core beside it; it
// reports the collector's CPU time a fingerprint (gc-µs/op).
func BenchmarkFingerprintParallel(b *testing.B) {
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	docs, mean := benchDocuments(b)
	b.SetBytes(mean)
	b.ReportAllocs()
	gcSeconds := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(gcSeconds)
	before := gcSeconds[0].Value.Float64()
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			d := docs[next.Add(1)%int64(len(docs))]
			if _, err := alg.Fingerprint(context.Background(), d); err != nil {
				b.Error(err)
				return
			}
		}
	})
	metrics.Read(gcSeconds)
	b.ReportMetric((gcSeconds[0].Value.Float64()-before)/float64(b.N)*1e6, "gc-µs/op")
}

func BenchmarkFingerprintYanyiwu(b *testing.B) {
	benchmarkAlgorithm(b, fingerprint.NewYanyiwu(dict, fingerprint.DefaultYanyiwuTopN))
}

func BenchmarkNormalize(b *testing.B) {
	docs, mean := benchDocuments(b)
	b.SetBytes(mean)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d := docs[i%len(docs)]
		fingerprint.Normalize(d.Title)
		fingerprint.Normalize(d.Body)
		i++
	}
}
