package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// A check's time has a floor before any statement runs: the service
// fingerprints the article and its sentences on the request's goroutine.
// fingerprintTimes measures that floor on the very bodies the section
// checks, one at a time on one goroutine, before anything else runs, so
// that the report can say how much of a check's latency it is.

// fingerprintTimes returns, for each kind of request, the time to
// fingerprint each of its bodies (article and sentences, as a check does),
// in milliseconds.
func fingerprintTimes(ctx context.Context, alg fingerprint.Algorithm, requests []newsCheckRequests) (map[string]Summary, error) {
	out := make(map[string]Summary, len(requests))
	for _, k := range requests {
		times := make([]float64, 0, len(k.bodies))
		for _, b := range k.bodies {
			var doc struct{ Title, Body string }
			if err := json.Unmarshal(b, &doc); err != nil {
				return nil, fmt.Errorf("read a %s body: %w", k.kind, err)
			}
			start := time.Now()
			if _, err := alg.Fingerprint(ctx, fingerprint.Document{Title: doc.Title, Body: doc.Body}); err != nil {
				return nil, fmt.Errorf("fingerprint a %s body: %w", k.kind, err)
			}
			times = append(times, time.Since(start).Seconds()*1000)
		}
		out[k.kind] = summarize(times)
	}
	return out, nil
}
