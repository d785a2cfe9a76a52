package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/corpus"
)

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
