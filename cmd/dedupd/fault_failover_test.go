package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/internal/pgcluster"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestFailover loses the primary of a pg_auto_failover formation under
// load, twice. dedupd serves with the formation's URL (both nodes,
// target_session_attrs=read-write) while 12 clients ingest single articles,
// 4 ingest batches and 4 read back what was acknowledged and check articles.
// The primary's machine is lost (kill -9 of its keeper and postmaster
// together: pgcluster.Formation.Kill); the monitor promotes the standby and
// the same dedupd writes to it. Meanwhile every answer is a 2xx or a 503
// unavailable with Retry-After, none past its deadline, /readyz says 503;
// every acknowledged article is on the new primary, and the clients'
// retries leave exactly one row per key. Then the old primary rejoins as
// the standby, and losing the new primary brings the writes back to it, all
// of them there. At the end every link is a real match (dbtest.CheckLinks).
//
// It logs the time from each kill to the first write acknowledged after
// it; tools/cmd/failoverbench collects it (make bench-failover). With
// NEWSDEDUP_FAILOVER_DETECTION=default the monitor keeps pg_auto_failover's
// own timing instead of the fast one for a local formation.
func TestFailover(t *testing.T) {
	t.Parallel()
	detection := pgcluster.FastDetection
	if os.Getenv("NEWSDEDUP_FAILOVER_DETECTION") == "default" {
		detection = pgcluster.Detection{}
	}
	f := dbtest.PrivateFormation(t, detection)
	dbURL := f.URL(dbtest.PrivateDatabase)

	a, _, _ := testApp(t, nil)
	logs := newLogWatcher()
	a.stderr = logs
	a.getenv = envFrom(map[string]string{
		"DATABASE_URL":               dbURL,
		"DEDUP_ADDR":                 "127.0.0.1:0",
		"DEDUP_LOG_FORMAT":           "json",
		"DEDUP_REQUEST_TIMEOUT":      failoverRequestTimeout.String(),
		"DEDUP_DB_STATEMENT_TIMEOUT": "1s",
		"DEDUP_DB_CONNECT_TIMEOUT":   "1s",
		"DEDUP_DB_MAX_CONNS":         "16",
		"DEDUP_SHUTDOWN_TIMEOUT":     "10s",
	})
	serveCtx, stopServe := context.WithCancel(context.Background())
	defer stopServe()
	done := make(chan error, 1)
	go func() { done <- a.run(serveCtx, []string{"serve"}) }()
	base := "http://" + logs.waitAddr(t, done)
	defer func() {
		if t.Failed() {
			t.Logf("the end of dedupd's log:\n%s", lastLines(logs.String(), 30))
		}
	}()

	load := newFailoverLoad(base, faultArticles(t))
	loadCtx, stopLoad := context.WithCancel(context.Background())
	var clients sync.WaitGroup
	defer func() {
		stopLoad()
		clients.Wait()
	}()
	for i := range failoverWriters + failoverBatchWriters + failoverCheckers {
		clients.Go(func() {
			c := &http.Client{Timeout: failoverRequestTimeout + 5*time.Second, Transport: &http.Transport{}}
			switch {
			case i < failoverWriters:
				load.writeSingles(loadCtx, c, i)
			case i < failoverWriters+failoverBatchWriters:
				load.writeBatches(loadCtx, c, i)
			default:
				load.check(loadCtx, c, rand.New(rand.NewPCG(uint64(i), 37)))
			}
		})
	}
	ctx := context.Background()
	load.waitAcked(t, time.Time{}, 100, 2*time.Minute, "before the first failover")

	for round, victim := range pgcluster.Nodes {
		if round > 0 {
			// The node lost first rejoins as the standby of the other.
			if err := f.StartMember(ctx, pgcluster.Nodes[0]); err != nil {
				t.Fatal(err)
			}
			if err := f.WaitHealthy(ctx); err != nil {
				t.Fatalf("after %s rejoined: %v", pgcluster.Nodes[0], err)
			}
			load.waitAcked(t, time.Now(), 50, time.Minute, "after the rejoin")
		}
		failover(t, f, load, base, victim, round+1)
	}

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

	// What the clients saw, and what the last primary holds.
	for i, o := range load.bad() {
		if i == 10 {
			t.Errorf("… and %d more", len(load.bad())-10)
			break
		}
		t.Errorf("want a 2xx, or a 503 unavailable with Retry-After within the deadline; got %s", o)
	}
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	acked, unacked := load.checkStored(t, conn, time.Now())
	dbtest.CheckLinks(t, conn)
	t.Logf("%d keys acknowledged, all stored once under their id; %d keys still unacknowledged when the load stopped; %d requests in all, %d answered 503; the slowest answer took %s",
		acked, unacked, load.requests(), load.unavailable(), load.slowestAnswer().Round(time.Millisecond))
}

const (
	failoverWriters        = 12 // clients ingesting one article at a time
	failoverBatchWriters   = 4  // clients ingesting batches
	failoverCheckers       = 4  // clients reading back and checking
	failoverBatchSize      = 5
	failoverRequestTimeout = 3 * time.Second
)

// failover kills the primary, victim, and checks what the clients and the
// readiness probe see until writes are acknowledged again on the other node.
func failover(t *testing.T, f *pgcluster.Formation, load *failoverLoad, base, victim string, round int) {
	t.Helper()
	ctx := context.Background()
	if p, err := f.Primary(ctx); err != nil || p != victim {
		t.Fatalf("failover %d: the primary is %q (%v), want %s", round, p, err, victim)
	}
	checkSynchronous(t, f, victim)

	probe := &http.Client{Timeout: failoverRequestTimeout + 5*time.Second, Transport: &http.Transport{}}
	var readyDown, readyUp int
	killedAt := time.Now()
	if err := f.Kill(ctx, victim); err != nil {
		t.Fatalf("failover %d: %v", round, err)
	}
	stopProbe := make(chan struct{})
	probed := make(chan struct{})
	go func() { // /readyz, from the kill until writes are acknowledged again
		defer close(probed)
		for {
			code, raw, err := getStatus(probe, base+"/readyz")
			switch {
			case err != nil:
				t.Errorf("failover %d: GET /readyz: %v", round, err)
			case code == http.StatusServiceUnavailable:
				readyDown++
			case code == http.StatusOK:
				readyUp++
			default:
				t.Errorf("failover %d: GET /readyz = %d %s, want 200 or 503", round, code, raw)
			}
			select {
			case <-stopProbe:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	first := load.waitAcked(t, killedAt, 20, 3*time.Minute, fmt.Sprintf("failover %d", round))
	close(stopProbe)
	<-probed
	if readyDown == 0 {
		t.Errorf("failover %d: /readyz never said 503 between the kill and the first write on the new primary", round)
	}
	if p, err := f.Primary(ctx); err != nil || p == victim {
		t.Errorf("failover %d: after writes resumed the monitor's primary is %q (%v), want the other node", round, p, err)
	}
	conn, err := pgx.Connect(ctx, f.URL(dbtest.PrivateDatabase))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	acked, _ := load.checkStored(t, conn, killedAt)
	t.Logf("failover %d: kill -9 of %s → first acknowledged write after %s; %d keys acknowledged before the kill are all on the new primary; /readyz 503 ×%d, 200 ×%d meanwhile",
		round, victim, first.Sub(killedAt).Round(time.Millisecond), acked, readyDown, readyUp)
}

// checkSynchronous checks that the primary's writes wait for a synchronous
// standby, as pg_auto_failover sets it, before one is lost.
func checkSynchronous(t *testing.T, f *pgcluster.Formation, primary string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, f.NodeURL(primary, dbtest.PrivateDatabase))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var syncStates, commit, names string
	err = conn.QueryRow(ctx, `SELECT coalesce((SELECT string_agg(sync_state, ',') FROM pg_stat_replication), ''),
		current_setting('synchronous_commit'), current_setting('synchronous_standby_names')`).Scan(&syncStates, &commit, &names)
	if err != nil {
		t.Fatal(err)
	}
	if (syncStates != "sync" && syncStates != "quorum") || commit != "on" || names == "" {
		t.Fatalf("%s's standby: sync_state %q, synchronous_commit %q, synchronous_standby_names %q; want one synchronous standby",
			primary, syncStates, commit, names)
	}
}

// failoverLoad is the clients of TestFailover and what they saw: each key
// is retried until acknowledged, and every acknowledgement is recorded.
type failoverLoad struct {
	base     string
	articles []corpus.Article

	mu       sync.Mutex
	keys     map[string]*keyRecord
	acked    []string // keys in the order they were first acknowledged
	answers  []answer // every non-2xx answer, and every fault
	total    int
	slowest  time.Duration // of all answers
	notifyCh chan struct{} // a token per acknowledgement, never blocking
}

type keyRecord struct {
	article  corpus.Article
	ids      []int64   // the id of every acknowledgement
	sentAt   time.Time // when the first acknowledged request was sent
	ackedAt  time.Time // when its answer came
	attempts int
}

// answer is one request's outcome that was not a 2xx.
type answer struct {
	what       string
	status     int
	code       string
	retryAfter string
	elapsed    time.Duration
	err        error
}

func (a answer) ok() bool {
	return a.err == nil && a.status == http.StatusServiceUnavailable && a.code == "unavailable" &&
		a.retryAfter != "" && a.elapsed <= failoverDeadline
}

// failoverDeadline is the longest a client may wait for an answer: the
// request's deadline, and time for a crowded machine to schedule the
// server's answer and the client's read of it. A request that hangs on a
// lost machine reaches the client's own timeout, 5 s past the deadline.
const failoverDeadline = failoverRequestTimeout + 2*time.Second

func (a answer) String() string {
	s := fmt.Sprintf("%s: %d %s (Retry-After %q) after %s", a.what, a.status, a.code, a.retryAfter, a.elapsed.Round(time.Millisecond))
	if a.err != nil {
		s += ": " + a.err.Error()
	}
	return s
}

func newFailoverLoad(base string, articles []corpus.Article) *failoverLoad {
	return &failoverLoad{base: base, articles: articles, keys: map[string]*keyRecord{}, notifyCh: make(chan struct{}, 1<<20)}
}

// newKey registers the next key of a writer with an article.
func (l *failoverLoad) newKey(writer, n int) string {
	key := fmt.Sprintf("w%02d-%05d", writer, n)
	l.mu.Lock()
	l.keys[key] = &keyRecord{article: l.articles[(writer*7919+n)%len(l.articles)]}
	l.mu.Unlock()
	return key
}

func (l *failoverLoad) articleJSON(key string) map[string]string {
	l.mu.Lock()
	a := l.keys[key].article
	l.keys[key].attempts++
	l.mu.Unlock()
	return map[string]string{"external_id": key, "source": "failover", "title": a.Title, "body": a.Body}
}

func (l *failoverLoad) ack(key string, id int64, sent time.Time) {
	l.mu.Lock()
	r := l.keys[key]
	if len(r.ids) == 0 {
		r.sentAt, r.ackedAt = sent, time.Now()
		l.acked = append(l.acked, key)
	}
	r.ids = append(r.ids, id)
	l.mu.Unlock()
	select {
	case l.notifyCh <- struct{}{}:
	default:
	}
}

func (l *failoverLoad) record(a answer) {
	l.mu.Lock()
	l.answers = append(l.answers, a)
	l.mu.Unlock()
}

func (l *failoverLoad) count() {
	l.mu.Lock()
	l.total++
	l.mu.Unlock()
}

// do sends one request and returns its status and body; a non-2xx answer is
// recorded.
func (l *failoverLoad) do(c *http.Client, what, method, path string, body any) (int, []byte) {
	l.count()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, l.base+path, r)
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		l.record(answer{what: what, elapsed: time.Since(start), err: err})
		return 0, nil
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	a := answer{what: what, status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), elapsed: time.Since(start), err: err}
	if err == nil && resp.StatusCode >= 300 {
		a.code, a.err = errorCode(resp, raw)
	}
	if a.err != nil || resp.StatusCode >= 300 || a.elapsed > failoverDeadline {
		l.record(a)
	}
	l.mu.Lock()
	l.slowest = max(l.slowest, a.elapsed)
	l.mu.Unlock()
	return resp.StatusCode, raw
}

// pause waits a little after a failure, so that a fast-failing server does
// not turn the test into a busy loop.
func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(50 * time.Millisecond):
	}
}

// writeSingles posts one article at a time, each retried until acknowledged.
func (l *failoverLoad) writeSingles(ctx context.Context, c *http.Client, writer int) {
	for n := 0; ctx.Err() == nil; n++ {
		key := l.newKey(writer, n)
		for ctx.Err() == nil {
			sent := time.Now()
			code, raw := l.do(c, "POST /v1/articles "+key, http.MethodPost, "/v1/articles", l.articleJSON(key))
			var v verdictResponse
			if code/100 == 2 && json.Unmarshal(raw, &v) == nil && v.ID != 0 {
				l.ack(key, v.ID, sent)
				break
			}
			pause(ctx)
		}
	}
}

// writeBatches posts batches of new keys and of the keys a batch before
// did not store, until each is acknowledged.
func (l *failoverLoad) writeBatches(ctx context.Context, c *http.Client, writer int) {
	var pending []string
	n := 0
	for ctx.Err() == nil {
		for len(pending) < failoverBatchSize {
			pending = append(pending, l.newKey(writer, n))
			n++
		}
		items := make([]map[string]string, len(pending))
		for i, k := range pending {
			items[i] = l.articleJSON(k)
		}
		sent := time.Now()
		code, raw := l.do(c, fmt.Sprintf("POST /v1/articles/batch %v", pending), http.MethodPost, "/v1/articles/batch", map[string]any{"articles": items})
		var resp struct {
			Results []struct {
				ID    int64 `json:"id"`
				Error *struct {
					Code string `json:"code"`
				} `json:"error"`
			} `json:"results"`
		}
		if code != http.StatusOK || json.Unmarshal(raw, &resp) != nil || len(resp.Results) != len(pending) {
			pause(ctx)
			continue
		}
		var still []string
		for i, r := range resp.Results {
			switch {
			case r.Error == nil && r.ID != 0:
				l.ack(pending[i], r.ID, sent)
			case r.Error != nil && r.Error.Code == "unavailable":
				still = append(still, pending[i])
			default:
				l.record(answer{what: "batch item " + pending[i], status: code, err: fmt.Errorf("result %s", raw)})
			}
		}
		if pending = still; len(still) > 0 {
			pause(ctx)
		}
	}
}

// check reads back acknowledged articles (an acknowledged article must
// never be missing) and checks articles, without storing them.
func (l *failoverLoad) check(ctx context.Context, c *http.Client, rng *rand.Rand) {
	for ctx.Err() == nil {
		l.mu.Lock()
		var key string
		var id int64
		if len(l.acked) > 0 {
			key = l.acked[rng.IntN(len(l.acked))]
			id = l.keys[key].ids[0]
		}
		l.mu.Unlock()
		if id != 0 && rng.IntN(2) == 0 {
			code, raw := l.do(c, "GET "+key, http.MethodGet, fmt.Sprintf("/v1/articles/%d", id), nil)
			var got struct {
				ExternalID string `json:"external_id"`
			}
			if code == http.StatusOK && (json.Unmarshal(raw, &got) != nil || got.ExternalID != key) {
				l.record(answer{what: "GET " + key, status: code, err: fmt.Errorf("not the acknowledged article: %.200s", raw)})
			}
		} else {
			a := l.articles[rng.IntN(len(l.articles))]
			l.do(c, "POST /v1/check", http.MethodPost, "/v1/check", map[string]string{"title": a.Title, "body": a.Body})
		}
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// waitAcked waits until n requests sent after since were acknowledged and
// returns when the first of them was (its answer came).
func (l *failoverLoad) waitAcked(t *testing.T, since time.Time, n int, within time.Duration, what string) time.Time {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		l.mu.Lock()
		var first time.Time
		count := 0
		for _, k := range l.acked {
			if r := l.keys[k]; r.sentAt.After(since) {
				count++
				if first.IsZero() || r.ackedAt.Before(first) {
					first = r.ackedAt
				}
			}
		}
		l.mu.Unlock()
		if count >= n {
			return first
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d of %d writes sent after %s acknowledged within %s; the last answers:\n%s",
				what, count, n, since.Format("15:04:05.000"), within, l.lastAnswers(8))
		}
		select {
		case <-l.notifyCh:
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// checkStored checks on conn that every key acknowledged by a request sent
// before `before` is stored once under the id every acknowledgement gave,
// and that no other key is stored more than once. It returns how many keys
// were checked acknowledged, and how many were never acknowledged.
func (l *failoverLoad) checkStored(t *testing.T, conn *pgx.Conn, before time.Time) (acked, unacked int) {
	t.Helper()
	rows, err := conn.Query(context.Background(), "SELECT external_id, id FROM articles WHERE source = 'failover'")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string][]int64{}
	for rows.Next() {
		var key string
		var id int64
		if err := rows.Scan(&key, &id); err != nil {
			t.Fatal(err)
		}
		stored[key] = append(stored[key], id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for key, r := range l.keys {
		ids := stored[key]
		if len(ids) > 1 {
			t.Errorf("%s is stored %d times (ids %v), want once", key, len(ids), ids)
		}
		if len(r.ids) == 0 {
			unacked++
			continue
		}
		if !r.sentAt.Before(before) {
			continue
		}
		acked++
		if len(ids) != 1 || slices.ContainsFunc(r.ids, func(id int64) bool { return id != ids[0] }) {
			t.Errorf("acknowledged %s (ids %v, after %d attempts) is stored as %v, want once under that id", key, r.ids, r.attempts, ids)
		}
	}
	return acked, unacked
}

func (l *failoverLoad) bad() []answer {
	l.mu.Lock()
	defer l.mu.Unlock()
	var bad []answer
	for _, a := range l.answers {
		if !a.ok() {
			bad = append(bad, a)
		}
	}
	return bad
}

func (l *failoverLoad) lastAnswers(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	for _, a := range l.answers[max(0, len(l.answers)-n):] {
		fmt.Fprintf(&b, "  %s\n", a)
	}
	return b.String()
}

func (l *failoverLoad) requests() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

func (l *failoverLoad) unavailable() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.answers)
}

func (l *failoverLoad) slowestAnswer() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.slowest
}
