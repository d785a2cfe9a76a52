package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/webhook"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestWebhookSurvivesKill9: a copy ingested through a real dedupd is
// alerted to a receiver that holds the request; dedupd is killed with
// SIGKILL while it waits, after the ingest's commit and before the
// delivery is recorded. A second dedupd, once the first's lease is over,
// delivers it again under the same delivery id, signed, and records it.
func TestWebhookSurvivesKill9(t *testing.T) {
	var (
		mu   sync.Mutex
		got  []*http.Request
		hung = make(chan struct{})
	)
	bodies := map[*http.Request][]byte{}
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r)
		bodies[r] = b
		first := len(got) == 1
		mu.Unlock()
		if first {
			close(hung)
			<-r.Context().Done() // held until its client dies
			return
		}
	}))
	defer rc.Close()

	file := filepath.Join(t.TempDir(), "webhooks.json")
	cfg, _ := json.Marshal(webhook.Config{Subscriptions: []webhook.Subscription{
		{Name: "legal", URL: rc.URL + "/copies", Format: webhook.FormatJSON, Secret: "k9", Credits: []string{"uncredited"}}}})
	if err := os.WriteFile(file, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	bin := buildDedupd(t)
	dbURL := dbtest.URL(t)
	env := map[string]string{
		"DATABASE_URL":        dbURL,
		"DEDUP_ADDR":          "127.0.0.1:0",
		"DEDUP_LOG_FORMAT":    "json",
		"DEDUP_DESK_SOURCES":  "bjwb",
		"DEDUP_WEBHOOKS_FILE": file,
	}
	p := startDedupd(t, bin, env)
	for _, src := range []string{"bjwb", "toutiao"} {
		body, _ := json.Marshal(map[string]string{"external_id": "k9", "source": src, "title": articleTitle, "body": articleBody})
		resp, err := http.Post("http://"+p.addr+"/v1/articles", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("ingest %s: %s", src, resp.Status)
		}
	}
	select {
	case <-hung:
	case <-time.After(30 * time.Second):
		t.Fatalf("no delivery within 30 s; dedupd's log:\n%s", p.log.String())
	}
	if err := p.cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	<-p.exited

	// The killed worker's lease (30 s) ends now rather than in 30 s.
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var delivered *time.Time
	if err := conn.QueryRow(ctx, `UPDATE webhook_deliveries SET next_attempt_at = now() RETURNING delivered_at`).Scan(&delivered); err != nil || delivered != nil {
		t.Fatalf("the delivery after the kill: delivered_at %v, %v; want one, not delivered", delivered, err)
	}

	startDedupd(t, bin, env)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := conn.QueryRow(ctx, `SELECT delivered_at FROM webhook_deliveries`).Scan(&delivered); err != nil {
			t.Fatal(err)
		}
		if delivered != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("not delivered within 30 s of the restart")
		}
		time.Sleep(100 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 {
		t.Fatalf("requests = %d, want 2 (the one held when dedupd was killed, the redelivery)", len(got))
	}
	id := got[0].Header.Get(webhook.HeaderDelivery)
	for i, r := range got {
		if r.Header.Get(webhook.HeaderDelivery) != id || id == "" {
			t.Errorf("request %d: delivery id %q, want %q", i, r.Header.Get(webhook.HeaderDelivery), id)
		}
		if sig := r.Header.Get(webhook.HeaderSignature); sig != webhook.Sign("k9", bodies[r]) {
			t.Errorf("request %d: signature %q does not sign its body", i, sig)
		}
	}
	var pl webhook.Payload
	if err := json.Unmarshal(bodies[got[1]], &pl); err != nil || pl.Copy.Source != "toutiao" || pl.Original.Source != "bjwb" || pl.Credit != "uncredited" {
		t.Errorf("payload %+v, %v; want toutiao's uncredited copy of bjwb", pl, err)
	}
}
