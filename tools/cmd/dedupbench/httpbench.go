package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
)

// CheckResult is /v1/check's latency with some clients for some time.
type CheckResult struct {
	Corpus     string         `json:"corpus"` // reposts of stored 围城 articles, or word soup that matches nothing
	Clients    int            `json:"clients"`
	Seconds    float64        `json:"seconds"`
	Requests   int            `json:"requests"`
	PerSecond  float64        `json:"requests_per_second"`
	LatencyMS  Summary        `json:"latency_ms"`
	Statuses   map[string]int `json:"statuses"` // verdicts, or "http_<code>"
	Database   string         `json:"database"`
	DatabaseN  int            `json:"database_rows"`
	RequestKiB float64        `json:"request_kib_mean"`
}

// checkBodies returns the JSON of /v1/check requests: the unstored reposts
// of the tier's stored originals, each published an hour after its
// original, so that the service's default window holds the original.
func checkBodies(rs *realSet, realRows int) ([][]byte, error) {
	var out [][]byte
	for g := range realRows / groupSize {
		r := rs.Reposts[g]
		b, err := json.Marshal(map[string]any{
			"title":        r.Title,
			"body":         r.Body,
			"published_at": realPublished(g * groupSize).Add(time.Hour).Format(time.RFC3339),
		})
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// soupCheckBodies returns the JSON of /v1/check requests for texts that
// match nothing stored.
func soupCheckBodies(soup []corpus.Article) ([][]byte, error) {
	var out [][]byte
	for _, a := range soup {
		b, err := json.Marshal(map[string]any{"title": a.Title, "body": a.Body})
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// benchCheck posts bodies to /v1/check from clients goroutines, one request
// at a time each, starting requests until d has passed. A request under way
// then finishes and is counted: cutting it off would drop the slowest, and on
// a loaded machine a short run might count none.
func benchCheck(ctx context.Context, baseURL string, bodies [][]byte, clients int, d time.Duration) (CheckResult, error) {
	client := newClient(clients)
	var (
		next     atomic.Int64
		mu       sync.Mutex
		lat      []float64
		statuses = map[string]int{}
		firstErr error
		wg       sync.WaitGroup
		bytesOut atomic.Int64
	)
	start := time.Now()
	stop := start.Add(d)
	for range clients {
		wg.Go(func() {
			var mine []float64
			mineStatus := map[string]int{}
			for ctx.Err() == nil && time.Now().Before(stop) {
				body := bodies[int(next.Add(1)-1)%len(bodies)]
				t0 := time.Now()
				status, err := postCheck(ctx, client, baseURL, body)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					break
				}
				mine = append(mine, time.Since(t0).Seconds()*1000)
				mineStatus[status]++
				bytesOut.Add(int64(len(body)))
			}
			mu.Lock()
			lat = append(lat, mine...)
			for k, v := range mineStatus {
				statuses[k] += v
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	client.CloseIdleConnections()
	if firstErr != nil {
		return CheckResult{}, firstErr
	}
	return CheckResult{
		Clients:    clients,
		Seconds:    elapsed,
		Requests:   len(lat),
		PerSecond:  float64(len(lat)) / elapsed,
		LatencyMS:  summarize(lat),
		Statuses:   statuses,
		RequestKiB: float64(bytesOut.Load()) / float64(max(len(lat), 1)) / 1024,
	}, nil
}

// postCheck posts one check and returns its verdict's status.
func postCheck(ctx context.Context, client *http.Client, baseURL string, body []byte) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/v1/check", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("POST /v1/check: %s: %.300s", resp.Status, data)
	}
	var v struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return "", fmt.Errorf("POST /v1/check: %w", err)
	}
	return v.Status, nil
}

// IngestResult is the ingest throughput through /v1/articles/batch with
// some clients.
type IngestResult struct {
	Corpus    string         `json:"corpus"` // corpusNovel or corpusSoup
	Clients   int            `json:"clients"`
	Articles  int            `json:"articles"`
	BatchSize int            `json:"batch_size"`
	Seconds   float64        `json:"seconds"`
	PerSecond float64        `json:"articles_per_second"`
	BatchMS   Summary        `json:"batch_ms"`
	Statuses  map[string]int `json:"statuses"` // verdicts, or "error"
	MBPerSec  float64        `json:"text_mb_per_second"`
	// Neighbours is, at the end of the run, how many other stored articles
	// lie within 3 bits of a stored article (mean and max): the candidates
	// each ingest reads, word sets and all, grow with it.
	NeighboursMean float64 `json:"neighbours_mean"`
	NeighboursMax  float64 `json:"neighbours_max"`
	WordsMean      float64 `json:"words_per_article_mean"`
}

// The ingest corpora.
const (
	corpusNovel = "围城"
	corpusSoup  = "word soup"
)

// ingestArticles cuts count articles of 500–3000 runes from the novel.
func ingestArticles(novel *corpus.Novel, count int) []corpus.Article {
	return novel.Overlapping(rand.New(rand.NewPCG(20260502, 5)), count, 500, 3000)
}

// ingestBatches encodes articles as batch request bodies of size articles,
// with external ids distinct across the run, and returns the bodies and
// the bytes of text they carry.
func ingestBatches(articles []corpus.Article, size int, prefix string) ([][]byte, int64, error) {
	type item struct {
		ExternalID  string `json:"external_id"`
		Source      string `json:"source"`
		Title       string `json:"title"`
		Body        string `json:"body"`
		PublishedAt string `json:"published_at"`
	}
	var out [][]byte
	var text int64
	for from := 0; from < len(articles); from += size {
		var items []item
		for i := from; i < min(from+size, len(articles)); i++ {
			a := articles[i]
			items = append(items, item{
				ExternalID:  prefix + strconv.Itoa(i),
				Source:      "bench",
				Title:       a.Title,
				Body:        a.Body,
				PublishedAt: publishBase.Add(time.Duration(i) * time.Minute).Format(time.RFC3339),
			})
			text += int64(len(a.Title) + len(a.Body))
		}
		b, err := json.Marshal(map[string]any{"articles": items})
		if err != nil {
			return nil, 0, err
		}
		out = append(out, b)
	}
	return out, text, nil
}

// benchIngest posts the batches to /v1/articles/batch from clients
// goroutines, each taking the next batch when its last one is answered.
func benchIngest(ctx context.Context, baseURL string, batches [][]byte, articles int, textBytes int64, clients, size int) (IngestResult, error) {
	client := newClient(clients)
	defer client.CloseIdleConnections()
	statuses := map[string]int{}
	lat, elapsed, err := fanOut(ctx, clients, len(batches), func(i int) (map[string]int, error) {
		return postBatch(ctx, client, baseURL, batches[i])
	}, func(got map[string]int, _ error) {
		for k, v := range got {
			statuses[k] += v
		}
	})
	if err != nil {
		return IngestResult{}, err
	}
	return IngestResult{
		Clients:   clients,
		Articles:  articles,
		BatchSize: size,
		Seconds:   elapsed,
		PerSecond: float64(articles) / elapsed,
		BatchMS:   summarize(lat),
		Statuses:  statuses,
		MBPerSec:  float64(textBytes) / elapsed / 1e6,
	}, nil
}

// postBatch posts one batch and counts its results' verdicts.
func postBatch(ctx context.Context, client *http.Client, baseURL string, body []byte) (map[string]int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/v1/articles/batch", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("POST /v1/articles/batch: %s: %.300s", resp.Status, data)
	}
	var v struct {
		Results []struct {
			Status string          `json:"status"`
			Error  json.RawMessage `json:"error"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("POST /v1/articles/batch: %w", err)
	}
	counts := map[string]int{}
	for _, r := range v.Results {
		if r.Error != nil {
			counts["error"]++
			continue
		}
		counts[r.Status]++
	}
	return counts, nil
}
