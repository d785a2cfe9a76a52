package repo_test

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/internal/webhook"
	"github.com/newsdedup/newsdedup/repo"
)

// receiver is a test webhook receiver: it records every request by path,
// and answers each path's first fail requests 500.
type receiver struct {
	mu   sync.Mutex
	fail map[string]int
	hang chan struct{} // when set, the first request to /hang blocks until the client leaves
	got  map[string][]received
}

type received struct {
	header http.Header
	query  url.Values
	body   []byte
	status int
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	n := len(rc.got[r.URL.Path])
	status := http.StatusOK
	if n < rc.fail[r.URL.Path] {
		status = http.StatusInternalServerError
	}
	hang := r.URL.Path == "/hang" && n == 0 && rc.hang != nil
	if hang {
		status = 0
	}
	rc.got[r.URL.Path] = append(rc.got[r.URL.Path], received{r.Header.Clone(), r.URL.Query(), body, status})
	rc.mu.Unlock()
	if hang {
		close(rc.hang)
		<-r.Context().Done()
		return
	}
	w.WriteHeader(status)
	if r.URL.Path != "/json" {
		io.WriteString(w, `{"errcode":0,"errmsg":"ok"}`)
	}
}

func (rc *receiver) requests(path string) []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got[path]...)
}

// copyStory stores a bjwb story, a copy by bjwb-app (its own section), a
// credited copy by sohu and an uncredited one by toutiao.
func copyStory(t *testing.T, st *repo.Store, seed uint64) (original int64) {
	t.Helper()
	ctx := context.Background()
	svc := newService(t, st)
	story := novel(t).Originals(rand.New(rand.NewPCG(seed, 48)), 1, 1500, 2500)[0]
	o, err := svc.Ingest(ctx, keyed("bjwb", story.Title, corpus.Article{Title: story.Title, Body: story.Body}), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ source, body string }{
		{"bjwb-app", story.Body},
		{"sohu", story.Body + "\n来源：北京晚报"},
		{"toutiao", story.Body + "\n关注我们，获取更多精彩资讯"},
	} {
		if _, err := svc.Ingest(ctx, keyed(c.source, story.Title, corpus.Article{Title: story.Title, Body: c.body}), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
	}
	return o.ID
}

// until runs w's steps until done says so, or fails after 20 s.
func until(t *testing.T, w *webhook.Worker, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatal("deliveries not done within 20 s")
		}
		if _, err := w.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestOutboxDelivers: the ingest of each copy writes its outbox row (the
// section's copy marked same-owner); the worker delivers a signed JSON
// POST of the uncredited copy only, retried after two 500s under one
// delivery id, and the three robots' messages, DingTalk's and Feishu's
// signed; failures stay visible until delivered.
func TestOutboxDelivers(t *testing.T) {
	st := newStore(t, 4)
	ctx := context.Background()
	orig := copyStory(t, st, 1)

	var n, same int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE article_owner = original_owner)
		FROM copy_events WHERE original_id = $1`, orig).Scan(&n, &same); err != nil || n != 3 || same != 1 {
		t.Fatalf("copy events = %d (%d same-owner), %v; want 3 (1) written with the ingests", n, same, err)
	}

	rc := &receiver{fail: map[string]int{"/json": 2}, got: map[string][]received{}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	cfg := webhook.Config{ClusterURL: "https://dedup.example/ui/clusters/{cluster_id}", Subscriptions: []webhook.Subscription{
		{Name: "legal", URL: srv.URL + "/json", Format: webhook.FormatJSON, Secret: "s3cret", Credits: []string{"uncredited"}},
		{Name: "wecom", URL: srv.URL + "/wecom", Format: webhook.FormatWeCom},
		{Name: "ding", URL: srv.URL + "/ding?access_token=x", Format: webhook.FormatDingTalk, Secret: "dsecret"},
		{Name: "feishu", URL: srv.URL + "/feishu", Format: webhook.FormatFeishu, Secret: "fsecret", Sources: []string{"bjwb"}},
		{Name: "other", URL: srv.URL + "/other", Format: webhook.FormatWeCom, Sources: []string{"xinhua"}},
	}}
	w := &webhook.Worker{Store: st, Config: cfg, Desk: []string{"bjwb"}, Backoff: 10 * time.Millisecond, Poll: 10 * time.Millisecond}
	until(t, w, func() bool {
		return len(rc.requests("/json")) >= 3 && len(rc.requests("/wecom")) >= 2 && len(rc.requests("/ding")) >= 2 && len(rc.requests("/feishu")) >= 2
	})
	// One more step: nothing is left to deliver twice.
	if _, err := w.Step(ctx); err != nil {
		t.Fatal(err)
	}

	js := rc.requests("/json")
	if len(js) != 3 {
		t.Fatalf("json deliveries = %d, want 3 (two 500s, one success)", len(js))
	}
	id := js[0].header.Get(webhook.HeaderDelivery)
	for i, r := range js {
		if got := r.header.Get(webhook.HeaderDelivery); got != id || id == "" {
			t.Errorf("attempt %d: delivery id %q, want %q on every attempt", i, got, id)
		}
		mac := webhook.Sign("s3cret", r.body)
		if !hmac.Equal([]byte(r.header.Get(webhook.HeaderSignature)), []byte(mac)) {
			t.Errorf("attempt %d: signature %q, want %q", i, r.header.Get(webhook.HeaderSignature), mac)
		}
		var p webhook.Payload
		if err := json.Unmarshal(r.body, &p); err != nil {
			t.Fatal(err)
		}
		if p.DeliveryID != id || p.Credit != "uncredited" || p.Copy.Source != "toutiao" || p.Original.ID != orig ||
			p.Original.Source != "bjwb" || p.SameOwner || p.ClusterURL == "" || p.Copy.Title == "" {
			t.Errorf("attempt %d: payload %+v, want toutiao's uncredited copy of %d", i, p, orig)
		}
	}
	// Robots: the desk's other outlets' copies (sohu, toutiao), not its
	// own section's; nothing to a subscription of another source.
	for _, path := range []string{"/wecom", "/ding", "/feishu"} {
		rs := rc.requests(path)
		if len(rs) != 2 {
			t.Errorf("%s: %d requests, want 2 (the copies by sohu and toutiao)", path, len(rs))
		}
		for _, r := range rs {
			var m map[string]any
			if err := json.Unmarshal(r.body, &m); err != nil {
				t.Fatal(err)
			}
			switch path {
			case "/wecom", "/ding":
				md, _ := m["markdown"].(map[string]any)
				if m["msgtype"] != "markdown" || md == nil {
					t.Errorf("%s: body %v, want a markdown message", path, m)
				}
			case "/feishu":
				ts, _ := strconv.ParseInt(m["timestamp"].(string), 10, 64)
				if m["msg_type"] != "text" || m["sign"] != webhook.FeishuSign("fsecret", ts) {
					t.Errorf("feishu: body %v, want a text message signed at its timestamp", m)
				}
			}
			if path == "/ding" {
				ms, _ := strconv.ParseInt(r.query.Get("timestamp"), 10, 64)
				if r.query.Get("sign") != webhook.DingTalkSign("dsecret", ms) || r.query.Get("access_token") != "x" {
					t.Errorf("dingtalk: query %v, want its token and a sign of its timestamp", r.query)
				}
			}
		}
	}
	if rs := rc.requests("/other"); len(rs) != 0 {
		t.Errorf("a subscription to xinhua got %d requests, want none", len(rs))
	}
	all, err := st.Deliveries(ctx, false, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 7 {
		t.Errorf("deliveries = %d, want 7 (1 json, 2 each robot)", len(all))
	}
	for _, d := range all {
		if d.DeliveredAt == nil {
			t.Errorf("delivery %+v not delivered", d)
		}
		if d.Subscription == "legal" && (d.Attempts != 3 || d.LastStatus != 200) {
			t.Errorf("legal: attempts %d, status %d; want 3, 200", d.Attempts, d.LastStatus)
		}
	}
}

// TestOutboxFailuresVisible: a receiver that always fails leaves its
// delivery pending with the attempts and the last error, and the worker
// gives up after MaxAttempts.
func TestOutboxFailuresVisible(t *testing.T) {
	st := newStore(t, 4)
	ctx := context.Background()
	copyStory(t, st, 2)
	rc := &receiver{fail: map[string]int{"/json": 1 << 30}, got: map[string][]received{}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	w := &webhook.Worker{Store: st, Desk: []string{"bjwb"}, Backoff: time.Millisecond, MaxAttempts: 3, Config: webhook.Config{
		Subscriptions: []webhook.Subscription{{Name: "legal", URL: srv.URL + "/json", Secret: "k", Format: webhook.FormatJSON, Credits: []string{"uncredited"}}}}}
	until(t, w, func() bool { return len(rc.requests("/json")) >= 3 })
	if _, err := w.Step(ctx); err != nil {
		t.Fatal(err)
	}
	failed, err := w.Deliveries(ctx, true, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 1 || failed[0].Attempts != 3 || failed[0].GaveUpAt == nil || failed[0].LastStatus != 500 || failed[0].LastError == "" {
		t.Fatalf("failed deliveries = %+v, want one given up after 3 attempts with status 500 and its error", failed)
	}
	if n := len(rc.requests("/json")); n != 3 {
		t.Errorf("requests = %d, want 3 (no attempt after giving up)", n)
	}
}

// TestOutboxAtLeastOnceAcrossACrash: a worker stopped while its receiver
// holds the request — before it could record anything, as a killed
// process — leaves the delivery to the next worker once its lease ends;
// the receiver sees one delivery id, delivered once.
func TestOutboxAtLeastOnceAcrossACrash(t *testing.T) {
	st := newStore(t, 4)
	copyStory(t, st, 3)
	rc := &receiver{got: map[string][]received{}, hang: make(chan struct{})}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	cfg := webhook.Config{Subscriptions: []webhook.Subscription{
		{Name: "legal", URL: srv.URL + "/hang", Secret: "k", Format: webhook.FormatJSON, Credits: []string{"uncredited"}}}}

	ctx, crash := context.WithCancel(context.Background())
	first := &webhook.Worker{Store: st, Config: cfg, Desk: []string{"bjwb"}, Lease: 500 * time.Millisecond, Poll: 10 * time.Millisecond}
	stopped := make(chan struct{})
	go func() { first.Run(ctx); close(stopped) }()
	<-rc.hang
	crash()
	<-stopped

	second := &webhook.Worker{Store: st, Config: cfg, Desk: []string{"bjwb"}, Lease: 500 * time.Millisecond}
	until(t, second, func() bool { return len(rc.requests("/hang")) >= 2 })
	time.Sleep(600 * time.Millisecond) // past a lease: a double would be claimed now
	if _, err := second.Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	rs := rc.requests("/hang")
	if len(rs) != 2 {
		t.Fatalf("requests = %d, want 2 (the one cut off, the one delivered)", len(rs))
	}
	ids := map[string]int{}
	for _, r := range rs {
		ids[r.header.Get(webhook.HeaderDelivery)]++
	}
	if len(ids) != 1 || rs[1].status != http.StatusOK {
		t.Errorf("delivery ids %v, last status %d; want one id, delivered", ids, rs[1].status)
	}
	ds, err := st.Deliveries(context.Background(), false, 10)
	if err != nil || len(ds) != 1 || ds[0].DeliveredAt == nil || ds[0].Attempts != 2 {
		t.Errorf("deliveries = %+v, %v; want one, delivered at its second attempt", ds, err)
	}
}
