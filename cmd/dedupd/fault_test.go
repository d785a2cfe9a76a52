package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// The fault tests: the database going away under load (this file), SIGTERM
// under load (fault_sigterm_test.go) and hostile clients
// (fault_abuse_test.go).

var faultNovel struct {
	once     sync.Once
	articles []corpus.Article
	err      error
}

// faultArticles returns news-like articles cut from the novel, the same on
// every run. Their keys are made unique by the load, not their texts: some
// overlap, so verdicts vary.
func faultArticles(tb testing.TB) []corpus.Article {
	tb.Helper()
	faultNovel.once.Do(func() {
		n, err := corpus.LoadNovel()
		if err != nil {
			faultNovel.err = err
			return
		}
		faultNovel.articles = n.Overlapping(rand.New(rand.NewPCG(20, 0x6661756c74)), 3000, 200, 1200)
	})
	if faultNovel.err != nil {
		tb.Fatalf("corpus: %v", faultNovel.err)
	}
	return faultNovel.articles
}

// outcome is what became of one POST /v1/articles.
type outcome struct {
	key     string        // external_id; each is sent once
	start   time.Time     // when the request was sent
	wrote   time.Time     // when it was written in full; zero if never
	elapsed time.Duration // until the response was read, or the error
	status  int           // 0 when no response came
	code    string        // the error code of a non-2xx response
	id      int64         // the id of a 2xx verdict
	err     error         // no response, or a response that breaks the contract
}

func (o outcome) ok() bool { return o.status >= 200 && o.status < 300 }

func (o outcome) String() string {
	s := fmt.Sprintf("%s at %s: %d %s after %s", o.key, o.start.Format("15:04:05.000"), o.status, o.code, o.elapsed.Round(time.Millisecond))
	if o.err != nil {
		s += ": " + o.err.Error()
	}
	return s
}

// ingestLoad ingests distinct articles (each under a key of its own) from
// several clients and records every outcome.
type ingestLoad struct {
	base, source string
	articles     []corpus.Article
	next         atomic.Int64

	mu       sync.Mutex
	outcomes []outcome
	acked    chan struct{} // a token per 2xx, never blocking
}

func newIngestLoad(tb testing.TB, base, source string) *ingestLoad {
	return &ingestLoad{base: base, source: source, articles: faultArticles(tb), acked: make(chan struct{}, 1<<20)}
}

// post sends the next article.
func (l *ingestLoad) post(client *http.Client) (o outcome) {
	n := l.next.Add(1)
	a := l.articles[int(n)%len(l.articles)]
	o.key = fmt.Sprintf("k%06d", n)
	body, _ := json.Marshal(map[string]string{"external_id": o.key, "source": l.source, "title": a.Title, "body": a.Body})
	var wrote atomic.Int64 // set by the transport's goroutine
	trace := &httptrace.ClientTrace{WroteRequest: func(info httptrace.WroteRequestInfo) {
		if info.Err == nil {
			wrote.Store(time.Now().UnixNano())
		}
	}}
	defer func() {
		if n := wrote.Load(); n != 0 {
			o.wrote = time.Unix(0, n)
		}
	}()
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace),
		http.MethodPost, l.base+"/v1/articles", bytes.NewReader(body))
	if err != nil {
		o.err = err
		return o
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Request-ID", l.requestID(o.key)) // the server's access log names it
	o.start = time.Now()
	resp, err := client.Do(req)
	if err != nil {
		o.elapsed, o.err = time.Since(o.start), err
		return o
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	o.elapsed, o.status = time.Since(o.start), resp.StatusCode
	if err != nil {
		o.err = fmt.Errorf("read the response: %w", err)
		return o
	}
	if o.ok() {
		var v struct {
			ID     int64  `json:"id"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal(raw, &v); err != nil || v.ID == 0 || v.Status == "" {
			o.err = fmt.Errorf("a %d without a verdict: %.200s", resp.StatusCode, raw)
		}
		o.id = v.ID
		return o
	}
	o.code, o.err = errorCode(resp, raw)
	return o
}

// errorCode checks that an error response is the contract's JSON error and
// returns its code.
func errorCode(resp *http.Response, raw []byte) (string, error) {
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	ct := resp.Header.Get("Content-Type")
	if !strings.HasPrefix(ct, "application/json") || json.Unmarshal(raw, &e) != nil || e.Error.Code == "" || e.Error.Message == "" {
		return "", fmt.Errorf("a %d whose body is not a JSON error (Content-Type %q): %.200s", resp.StatusCode, ct, raw)
	}
	return e.Error.Code, nil
}

// requestID is the X-Request-ID of the request that sends key.
func (l *ingestLoad) requestID(key string) string { return l.source + "-" + key }

// run posts articles one after the other until ctx is done or stop says
// so, pausing a little after each failure so that a fast-failing server
// does not turn the test into a busy loop.
func (l *ingestLoad) run(ctx context.Context, client *http.Client, stop func(outcome) bool) {
	for ctx.Err() == nil {
		o := l.post(client)
		l.mu.Lock()
		l.outcomes = append(l.outcomes, o)
		l.mu.Unlock()
		if o.ok() {
			select {
			case l.acked <- struct{}{}:
			default:
			}
		}
		if stop != nil && stop(o) {
			return
		}
		if !o.ok() {
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
}

// waitAcked waits until n more requests got a 2xx.
func (l *ingestLoad) waitAcked(t *testing.T, n int, within time.Duration, what string) time.Duration {
	t.Helper()
	start := time.Now()
	deadline := time.After(within)
	for range n {
		select {
		case <-l.acked:
		case <-deadline:
			t.Fatalf("%s: fewer than %d requests got a 2xx within %s; the last outcomes:\n%s", what, n, within, l.tail(10))
		}
	}
	return time.Since(start)
}

func (l *ingestLoad) drainAcked() {
	for {
		select {
		case <-l.acked:
		default:
			return
		}
	}
}

func (l *ingestLoad) all() []outcome {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.outcomes)
}

func (l *ingestLoad) tail(n int) string {
	all := l.all()
	var b strings.Builder
	for _, o := range all[max(0, len(all)-n):] {
		fmt.Fprintf(&b, "  %s\n", o)
	}
	return b.String()
}

// storedKeys returns the id of every stored article of source, by key,
// counting the rows of each key.
func storedKeys(t *testing.T, dbURL, source string) (ids map[string]int64, rows map[string]int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatalf("connect to check what is stored: %v", err)
	}
	defer conn.Close(context.Background())
	r, err := conn.Query(ctx, "SELECT external_id, id FROM articles WHERE source = $1", source)
	if err != nil {
		t.Fatalf("read the stored articles: %v", err)
	}
	ids, rows = map[string]int64{}, map[string]int{}
	for r.Next() {
		var key string
		var id int64
		if err := r.Scan(&key, &id); err != nil {
			t.Fatal(err)
		}
		ids[key] = id
		rows[key]++
	}
	if err := r.Err(); err != nil {
		t.Fatalf("read the stored articles: %v", err)
	}
	return ids, rows
}

// checkAckedStored checks that every acknowledged article is stored exactly
// once, under the id its verdict gave. It returns how many were
// acknowledged, how many of those are not stored so, and how many articles
// whose request failed are stored nonetheless (a commit that raced the
// failure).
func checkAckedStored(t *testing.T, dbURL, source string, outcomes []outcome) (acked, lost, storedUnacked int) {
	t.Helper()
	ids, rows := storedKeys(t, dbURL, source)
	for _, o := range outcomes {
		switch {
		case o.ok():
			acked++
			if rows[o.key] != 1 || ids[o.key] != o.id {
				lost++
				t.Errorf("acknowledged article %s (id %d) is stored %d times (id %d), want once under its id", o.key, o.id, rows[o.key], ids[o.key])
			}
		case rows[o.key] > 0:
			storedUnacked++
			if rows[o.key] != 1 {
				t.Errorf("article %s is stored %d times, want at most once", o.key, rows[o.key])
			}
		}
	}
	return acked, lost, storedUnacked
}

// getStatus GETs a path and returns the status, or 0 and the error.
func getStatus(client *http.Client, url string) (int, []byte, error) {
	resp, err := client.Get(url)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return resp.StatusCode, raw, err
}

// TestOutage takes the database away under load, by a crash (pg_ctl stop
// -m immediate) and by a clean fast shutdown, and brings it back. While it
// is down, every request must fail fast with 503 unavailable and /readyz say
// 503; once it is back, the same process must serve again by itself; and
// every article that was acknowledged must be stored, exactly once.
func TestOutage(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"immediate", "fast"} {
		t.Run(mode, func(t *testing.T) { testOutage(t, mode) })
	}
}

const (
	outageClients        = 8
	outageRequestTimeout = 3 * time.Second
	outageDown           = 4 * time.Second // how long the database stays down
	// outageMaxFail is the slowest a 503 may be: well within the request
	// timeout, since nothing waits on a database that refuses connections.
	outageMaxFail = outageRequestTimeout / 2
)

func testOutage(t *testing.T, mode string) {
	cluster := dbtest.PrivateCluster(t)
	dbURL := cluster.URL(dbtest.PrivateDatabase)
	port := cluster.Port()

	a, _, _ := testApp(t, nil)
	logs := newLogWatcher()
	a.stderr = logs
	a.getenv = envFrom(map[string]string{
		"DATABASE_URL":               dbURL,
		"DEDUP_ADDR":                 "127.0.0.1:0",
		"DEDUP_LOG_FORMAT":           "json",
		"DEDUP_REQUEST_TIMEOUT":      outageRequestTimeout.String(),
		"DEDUP_DB_STATEMENT_TIMEOUT": "1s",
		"DEDUP_DB_CONNECT_TIMEOUT":   "1s",
		"DEDUP_DB_MAX_CONNS":         "8",
		"DEDUP_SHUTDOWN_TIMEOUT":     "10s",
	})
	serveCtx, stopServe := context.WithCancel(context.Background())
	defer stopServe()
	done := make(chan error, 1)
	go func() { done <- a.run(serveCtx, []string{"serve"}) }()
	base := "http://" + logs.waitAddr(t, done)

	load := newIngestLoad(t, base, "outage-"+mode)
	loadCtx, stopLoad := context.WithCancel(context.Background())
	var clients sync.WaitGroup
	defer func() { // also when the test fails half-way: stop the clients, then wait
		stopLoad()
		clients.Wait()
	}()
	for range outageClients {
		clients.Add(1)
		go func() {
			defer clients.Done()
			// A client timeout far above the request timeout: a request
			// that reaches it has hung.
			c := &http.Client{Timeout: outageRequestTimeout + 5*time.Second, Transport: &http.Transport{}}
			load.run(loadCtx, c, nil)
		}()
	}
	probe := &http.Client{Timeout: outageRequestTimeout + 5*time.Second, Transport: &http.Transport{}}
	ctx := context.Background()

	// 1. The service works.
	load.waitAcked(t, 40, 30*time.Second, "before the outage")

	// 2. The database goes away; traffic goes on.
	stopAt := time.Now()
	if err := cluster.Stop(ctx, mode); err != nil {
		t.Fatalf("Stop(%s): %v", mode, err)
	}
	stoppedAt := time.Now()
	var readyDown []int
	var readyMax time.Duration
	for time.Since(stoppedAt) < outageDown {
		start := time.Now()
		code, raw, err := getStatus(probe, base+"/readyz")
		readyMax = max(readyMax, time.Since(start))
		if err != nil {
			t.Errorf("GET /readyz with the database down: %v", err)
		} else if code != http.StatusServiceUnavailable {
			t.Errorf("GET /readyz with the database down = %d %s, want 503", code, raw)
		}
		readyDown = append(readyDown, code)
		time.Sleep(200 * time.Millisecond)
	}

	// 3. It comes back: the same process serves again by itself.
	load.drainAcked()
	startAt := time.Now()
	if err := cluster.Start(ctx); err != nil {
		t.Fatalf("Start after Stop(%s): %v", mode, err)
	}
	startedAt := time.Now()
	if got := cluster.Port(); got != port {
		t.Fatalf("the cluster came back on port %d, not %d: the test cannot go on", got, port)
	}
	load.waitAcked(t, 1, 15*time.Second, "after the database came back")
	readyDeadline := time.Now().Add(15 * time.Second)
	for {
		code, _, err := getStatus(probe, base+"/readyz")
		if err == nil && code == http.StatusOK {
			break
		}
		if time.Now().After(readyDeadline) {
			t.Fatalf("GET /readyz = %d, %v 15 s after the database came back, want 200", code, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	load.waitAcked(t, 40, 30*time.Second, "after the recovery")
	stopLoad()
	clients.Wait()

	stopServe()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run(serve) after cancel = %v, want nil", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("run(serve) did not return within 20 s of the cancel")
	}

	// What the clients saw.
	outcomes := load.all()
	var failed, duringOutage int
	var maxFail, maxAll time.Duration
	var recovered time.Time // when the first 2xx after the start came
	var bad []outcome
	for _, o := range outcomes {
		maxAll = max(maxAll, o.elapsed)
		if end := o.start.Add(o.elapsed); o.ok() && end.After(startAt) && (recovered.IsZero() || end.Before(recovered)) {
			recovered = end
		}
		switch {
		case o.err != nil:
			bad = append(bad, o) // no response (a hang, a cut connection) or one off-contract
		case o.ok():
		case o.status == http.StatusServiceUnavailable && o.code == "unavailable":
			failed++
			maxFail = max(maxFail, o.elapsed)
			if o.elapsed > outageMaxFail {
				t.Errorf("a 503 took %s, want at most %s (request timeout %s): %s", o.elapsed, outageMaxFail, outageRequestTimeout, o)
			}
		default:
			bad = append(bad, o)
		}
		// A request sent and answered while the database was down cannot
		// have succeeded.
		if o.start.After(stoppedAt) && o.start.Add(o.elapsed).Before(startAt) {
			duringOutage++
			if o.ok() {
				t.Errorf("a request got a 2xx while the database was down: %s", o)
			}
		}
	}
	for i, o := range bad {
		if i == 10 {
			t.Errorf("… and %d more", len(bad)-10)
			break
		}
		t.Errorf("want a 2xx or a 503 unavailable, got %s", o)
	}
	if duringOutage == 0 {
		t.Errorf("no request was sent and answered while the database was down")
	}
	if maxAll > outageRequestTimeout {
		t.Errorf("the slowest request took %s, more than the request timeout %s", maxAll, outageRequestTimeout)
	}

	// What the database kept.
	acked, lost, raced := checkAckedStored(t, dbURL, "outage-"+mode, outcomes)
	t.Logf("pg_ctl stop -m %s took %s; the database was down %s; pg_ctl start took %s; the first 2xx came %s after the start began",
		mode, stoppedAt.Sub(stopAt).Round(time.Millisecond), startAt.Sub(stopAt).Round(time.Millisecond),
		startedAt.Sub(startAt).Round(time.Millisecond), recovered.Sub(startAt).Round(time.Millisecond))
	t.Logf("%d requests: %d acknowledged, %d of them not stored exactly once; %d answered 503 unavailable (the slowest in %s; %d sent and answered during the outage); %d failed but stored (the commit raced the %s stop); slowest request %s; /readyz 503 ×%d during the outage, the slowest in %s",
		len(outcomes), acked, lost, failed, maxFail.Round(time.Millisecond), duringOutage, raced, mode,
		maxAll.Round(time.Millisecond), len(readyDown), readyMax.Round(time.Millisecond))
	if t.Failed() {
		t.Logf("the end of dedupd's log:\n%s", lastLines(logs.String(), 40))
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
