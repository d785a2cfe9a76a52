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

// The kinds of request the load mixes, and their shares.
const (
	kindIngest = "ingest" // POST /v1/articles
	kindCheck  = "check"  // POST /v1/check
	kindGet    = "get"    // GET /v1/articles/{id}
)

var kinds = []string{kindIngest, kindCheck, kindGet}

var kindRoute = map[string]string{
	kindIngest: "POST /v1/articles",
	kindCheck:  "POST /v1/check",
	kindGet:    "GET /v1/articles/{id}",
}

// Shares of the mix, in percent, and of reposts among ingests.
const (
	ingestShare = 50
	checkShare  = 40 // the rest are gets
	repostShare = 30 // of ingests: a light repost of an article ingested before
)

// traffic makes the requests: new articles (real news or the novel's
// cuts) and light reposts of ones ingested before, each under a key of its
// own. New ingests go through articles in order and start again at the
// first when they run out.
type traffic struct {
	base     string
	client   *http.Client
	novel    *corpus.Novel // for Apply's light reposts, whatever the articles are
	articles []corpus.Article
	next     atomic.Int64 // keys and new articles

	mu       sync.Mutex
	ingested []ingestedArticle // what the reposts and gets draw from

	measureFrom atomic.Int64 // UnixNano when the measurement began; 0 in the warm-up
	completed   atomic.Int64 // requests completed in the measurement
}

type ingestedArticle struct {
	id      int64
	article int // index in articles
}

// clientStats is what one client saw in the measurement.
type clientStats struct {
	latency  map[string]latencies
	statuses map[string]map[string]int // kind → status ("201", "transport") → count
	verdicts map[string]map[string]int // kind → verdict status → count
	last     time.Time                 // when its last measured request completed
}

func newClientStats() *clientStats {
	s := &clientStats{latency: map[string]latencies{}, statuses: map[string]map[string]int{}, verdicts: map[string]map[string]int{}}
	for _, k := range kinds {
		s.statuses[k] = map[string]int{}
		s.verdicts[k] = map[string]int{}
	}
	return s
}

// run sends requests one after the other until ctx is done.
func (tr *traffic) run(ctx context.Context, seed uint64, stats *clientStats) {
	rng := rand.New(rand.NewPCG(seed, 0x6c6f6164))
	for ctx.Err() == nil {
		kind, req, article := tr.request(rng)
		start := time.Now()
		status, verdict, id, err := tr.do(req)
		elapsed := time.Since(start)
		if kind == kindIngest && id != 0 {
			tr.mu.Lock()
			tr.ingested = append(tr.ingested, ingestedArticle{id: id, article: article})
			tr.mu.Unlock()
		}
		from := tr.measureFrom.Load()
		if from == 0 || start.UnixNano() < from {
			continue // warm-up
		}
		tr.completed.Add(1)
		stats.last = time.Now()
		key := strconv.Itoa(status)
		if err != nil {
			key = "transport"
		} else if status < 300 || status == http.StatusNotFound {
			stats.latency[kind] = append(stats.latency[kind], elapsed)
		}
		stats.statuses[kind][key]++
		if verdict != "" {
			stats.verdicts[kind][verdict]++
		}
	}
}

// request makes the next request: its kind, the request, and for an ingest
// the index of the article it sends.
func (tr *traffic) request(rng *rand.Rand) (string, *http.Request, int) {
	roll := rng.IntN(100)
	var picked ingestedArticle
	var haveIngested bool
	tr.mu.Lock()
	if n := len(tr.ingested); n > 0 {
		picked, haveIngested = tr.ingested[rng.IntN(n)], true
	}
	tr.mu.Unlock()

	switch {
	case roll >= ingestShare+checkShare && haveIngested:
		req, _ := http.NewRequest(http.MethodGet, tr.base+"/v1/articles/"+strconv.FormatInt(picked.id, 10), nil)
		return kindGet, req, -1
	case roll >= ingestShare && roll < ingestShare+checkShare:
		// A check of a new article or of a repost of a stored one.
		a := tr.articles[rng.IntN(len(tr.articles))]
		if haveIngested && rng.IntN(2) == 0 {
			a = tr.novel.Apply(rng, tr.articles[picked.article], corpus.Light)
		}
		return kindCheck, tr.post("/v1/check", map[string]string{"title": a.Title, "body": a.Body}), -1
	}
	n := int(tr.next.Add(1))
	idx := n % len(tr.articles)
	a := tr.articles[idx]
	if haveIngested && rng.IntN(100) < repostShare {
		idx = picked.article
		a = tr.novel.Apply(rng, tr.articles[idx], corpus.Light)
	}
	body := map[string]string{"external_id": "load-" + strconv.Itoa(n), "source": "dedupload", "title": a.Title, "body": a.Body}
	return kindIngest, tr.post("/v1/articles", body), idx
}

func (tr *traffic) post(path string, body map[string]string) *http.Request {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, tr.base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// do sends req and returns the status, the verdict's status and id of a
// 2xx ingest or check, or the transport error.
func (tr *traffic) do(req *http.Request) (status int, verdict string, id int64, err error) {
	resp, err := tr.client.Do(req)
	if err != nil {
		return 0, "", 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, "", 0, fmt.Errorf("read the response: %w", err)
	}
	if resp.StatusCode < 300 && req.Method == http.MethodPost {
		var v struct {
			ID     int64  `json:"id"`
			Status string `json:"status"`
		}
		if json.Unmarshal(raw, &v) == nil {
			return resp.StatusCode, v.Status, v.ID, nil
		}
	}
	return resp.StatusCode, "", 0, nil
}

// merge adds the stats of every client.
func merge(all []*clientStats) *clientStats {
	m := newClientStats()
	for _, s := range all {
		for k, l := range s.latency {
			m.latency[k] = append(m.latency[k], l...)
		}
		for k, byStatus := range s.statuses {
			for st, n := range byStatus {
				m.statuses[k][st] += n
			}
		}
		for k, byVerdict := range s.verdicts {
			for v, n := range byVerdict {
				m.verdicts[k][v] += n
			}
		}
		if s.last.After(m.last) {
			m.last = s.last
		}
	}
	return m
}

// isError says whether a status key counts as an error: anything but a
// 2xx or a 404 (a get of an article may race nothing here, but 404 is an
// answer, not a failure).
func isError(status string) bool {
	if status == "transport" {
		return true
	}
	code, err := strconv.Atoi(status)
	return err != nil || !(code >= 200 && code < 300 || code == http.StatusNotFound)
}
