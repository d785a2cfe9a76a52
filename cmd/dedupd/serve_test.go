package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// logWatcher is a JSON log sink that reports the address the server bound.
type logWatcher struct {
	syncBuffer
	once sync.Once
	addr chan string
}

func newLogWatcher() *logWatcher { return &logWatcher{addr: make(chan string, 1)} }

func (w *logWatcher) Write(p []byte) (int, error) {
	// slog handlers write one whole record a call.
	var rec struct{ Msg, Addr string }
	if json.Unmarshal(p, &rec) == nil && rec.Msg == "listening" {
		w.once.Do(func() { w.addr <- rec.Addr })
	}
	return w.syncBuffer.Write(p)
}

// waitAddr returns the bound address, or fails when run ended first.
func (w *logWatcher) waitAddr(t *testing.T, done <-chan error) string {
	t.Helper()
	select {
	case addr := <-w.addr:
		return addr
	case err := <-done:
		t.Fatalf("run returned %v before listening; log:\n%s", err, w.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("no \"listening\" log line within 60 s; log:\n%s", w.String())
	}
	return ""
}

type verdictResponse struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
}

func postArticle(t *testing.T, client *http.Client, base, key string, body io.Reader) (int, verdictResponse) {
	t.Helper()
	code, v, err := tryPostArticle(client, base, key, body)
	if err != nil {
		t.Fatal(err)
	}
	return code, v
}

// tryPostArticle posts an article and decodes a 2xx verdict.
func tryPostArticle(client *http.Client, base, key string, body io.Reader) (int, verdictResponse, error) {
	var v verdictResponse
	req, err := http.NewRequest(http.MethodPost, base+"/v1/articles", body)
	if err != nil {
		return 0, v, err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, v, fmt.Errorf("POST /v1/articles: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, v, fmt.Errorf("POST /v1/articles: read the response: %w", err)
	}
	if resp.StatusCode < 300 {
		if err := json.Unmarshal(raw, &v); err != nil {
			return resp.StatusCode, v, fmt.Errorf("POST /v1/articles: %s: %w", raw, err)
		}
	}
	return resp.StatusCode, v, nil
}

const (
	articleBody  = "国务院总理李克强主持召开国务院常务会议，部署进一步促进消费，扩大内需，稳定经济增长，并研究推进城镇老旧小区改造。"
	articleTitle = "国务院常务会议部署促进消费"
)

func articleJSON(externalID, body string) string {
	b, _ := json.Marshal(map[string]string{"external_id": externalID, "source": "e2e", "title": articleTitle, "body": body})
	return string(b)
}

// TestServeEndToEnd runs `dedupd serve` as main does, against a migrated
// database, over real HTTP: it ingests an article, then cancels the context
// (SIGTERM) while a request is in flight and checks that the request still
// succeeds and that run returns nil.
func TestServeEndToEnd(t *testing.T) {
	dbURL := dbtest.URL(t)
	const key = "e2e-key-3f9a61c0"
	env := map[string]string{
		"DATABASE_URL":           dbURL,
		"DEDUP_ADDR":             "127.0.0.1:0",
		"DEDUP_API_KEYS":         key + ", other-key-5d2e",
		"DEDUP_LOG_FORMAT":       "json",
		"DEDUP_SHUTDOWN_TIMEOUT": "20s",
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := newLogWatcher()
	var stdout bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, strings.NewReader(""), &stdout, logs, envFrom(env)) }()
	addr := logs.waitAddr(t, done)
	base := "http://" + addr
	client := &http.Client{Timeout: 30 * time.Second}

	// The process lives and answers without a key; the database is ready.
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d, want 200", path, resp.StatusCode)
		}
	}
	// The healthcheck subcommand finds it too.
	{
		a, out, _ := testApp(t, map[string]string{"DEDUP_ADDR": addr})
		if err := a.run(context.Background(), []string{"healthcheck"}); err != nil {
			t.Errorf("dedupd healthcheck = %v (%s)", err, out)
		}
	}

	// Ingest: a key is required; the first time is 201, a retry 200.
	if code, _ := postArticle(t, client, base, "", strings.NewReader(articleJSON("a-1", articleBody))); code != http.StatusUnauthorized {
		t.Errorf("POST /v1/articles without a key = %d, want 401", code)
	}
	code, v := postArticle(t, client, base, key, strings.NewReader(articleJSON("a-1", articleBody)))
	if code != http.StatusCreated || v.Status != "unique" || v.ID == 0 {
		t.Fatalf("POST /v1/articles = %d %+v, want 201 unique with an id", code, v)
	}
	if code, v2 := postArticle(t, client, base, key, strings.NewReader(articleJSON("a-1", articleBody))); code != http.StatusOK || v2.ID != v.ID {
		t.Errorf("POST /v1/articles again = %d %+v, want 200 with id %d", code, v2, v.ID)
	}

	// A request in flight at shutdown: its body is half sent when the
	// context is cancelled, and the rest only once the server has stopped
	// accepting connections.
	pr, pw := io.Pipe()
	type result struct {
		code int
		v    verdictResponse
		err  error
	}
	inflight := make(chan result, 1)
	go func() {
		c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{}} // a connection of its own
		code, v, err := tryPostArticle(c, base, key, pr)
		inflight <- result{code, v, err}
	}()
	body := articleJSON("a-2", articleBody+"记者从会议获悉。")
	half := len(body) / 2
	if _, err := pw.Write([]byte(body[:half])); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the server has read the request's head

	cancel() // SIGTERM
	waitRefused(t, addr)
	select {
	case r := <-inflight:
		t.Fatalf("the request in flight ended before its body was complete: %d %v", r.code, r.err)
	default:
	}
	if _, err := pw.Write([]byte(body[half:])); err != nil {
		t.Fatal(err)
	}
	pw.Close()

	select {
	case r := <-inflight:
		if r.err != nil || r.code != http.StatusCreated || r.v.ID == 0 {
			t.Errorf("POST in flight at shutdown = %d %+v, %v; want 201 with a verdict", r.code, r.v, r.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the request in flight at shutdown did not complete")
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run(serve) after cancel = %v, want nil; log:\n%s", err, logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run(serve) did not return within 30 s of the cancel")
	}

	// The article of the request in flight is stored.
	store, err := repo.Open(context.Background(), dbURL, repo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.ArticleByKey(context.Background(), "e2e", "a-2"); err != nil {
		t.Errorf("article of the request in flight: %v", err)
	}

	// The log says what happened, in order, and shows no secret.
	log := logs.String()
	last := -1
	for _, msg := range []string{`"starting dedupd"`, `"dictionary loaded"`, `"database schema is up to date"`, `"listening"`,
		`"shutting down`, `"http server stopped`, `"database pool closed"`, `"dictionary freed"`, `"shutdown complete"`} {
		i := strings.Index(log, msg)
		if i < 0 || i < last {
			t.Errorf("log lacks %s after the previous step:\n%s", msg, log)
		}
		last = i
	}
	if strings.Contains(log, key) || strings.Contains(log, "other-key-5d2e") {
		t.Errorf("the log shows an API key:\n%s", log)
	}
	if !strings.Contains(log, `"api_keys":2`) {
		t.Errorf("the log does not count the 2 API keys:\n%s", log)
	}
	if strings.Contains(log, "API is OPEN") {
		t.Errorf("the log warns that the API is open, with keys set:\n%s", log)
	}
}

// waitRefused waits until addr refuses connections: the server has begun
// shutting down.
func waitRefused(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return
		}
		c.Close()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s still accepts connections 10 s after the cancel", addr)
}

// TestServeWithoutKeysAndDatabase starts the server with the database down
// and no API keys: it warns about both, answers /healthz and says 503 on
// /readyz, and still shuts down cleanly.
func TestServeWithoutKeysAndDatabase(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a port nobody listens on once closed
	if err != nil {
		t.Fatal(err)
	}
	downAddr := ln.Addr().String()
	ln.Close()
	a, _, _ := testApp(t, nil)
	logs := newLogWatcher()
	a.stderr = logs
	a.getenv = envFrom(map[string]string{
		"DATABASE_URL":     "postgres://postgres:hunter2-pw@" + downAddr + "/newsdedup?sslmode=disable&connect_timeout=2",
		"DEDUP_ADDR":       "127.0.0.1:0",
		"DEDUP_LOG_FORMAT": "json",
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- a.run(ctx, []string{"serve"}) }()
	base := "http://" + logs.waitAddr(t, done)

	for path, want := range map[string]int{"/healthz": http.StatusOK, "/readyz": http.StatusServiceUnavailable} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s with the database down = %d, want %d", path, resp.StatusCode, want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run(serve) after cancel = %v, want nil", err)
	}
	log := logs.String()
	for _, want := range []string{"API is OPEN", "cannot check the database schema", `"level":"WARN"`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "hunter2-pw") {
		t.Errorf("the log shows the database password:\n%s", log)
	}
}

// TestServeShutdownTimeout holds a request open past DEDUP_SHUTDOWN_TIMEOUT:
// run gives up on it and says so.
func TestServeShutdownTimeout(t *testing.T) {
	t.Parallel()
	a, _, _ := testApp(t, nil)
	logs := newLogWatcher()
	a.stderr = logs
	a.getenv = envFrom(map[string]string{
		"DATABASE_URL":           "postgres://postgres@127.0.0.1:1/newsdedup?sslmode=disable&connect_timeout=1",
		"DEDUP_ADDR":             "127.0.0.1:0",
		"DEDUP_LOG_FORMAT":       "json",
		"DEDUP_SHUTDOWN_TIMEOUT": "200ms",
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- a.run(ctx, []string{"serve"}) }()
	base := "http://" + logs.waitAddr(t, done)

	pr, pw := io.Pipe()
	defer pw.Close()
	go tryPostArticle(&http.Client{Transport: &http.Transport{}}, base, "", pr)
	if _, err := pw.Write([]byte(`{"external_id":"stuck","body":"`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "DEDUP_SHUTDOWN_TIMEOUT") {
			t.Errorf("run(serve) with a request stuck past the shutdown timeout = %v, want an error naming DEDUP_SHUTDOWN_TIMEOUT", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("run(serve) did not give up on the stuck request")
	}
	if !strings.Contains(logs.String(), "did not finish in time") {
		t.Errorf("log does not say the requests did not finish:\n%s", logs.String())
	}
}
