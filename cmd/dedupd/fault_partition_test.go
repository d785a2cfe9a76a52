package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestSentencePartitionKilledUnderLoad serves with the sentence index in
// two partitions (docs/scaling.md, "The sentence index in partitions"),
// one of them a cluster of its own, and kills that one's postmaster (kill
// -9) under ingest load: while it is down, /v1/check and ingests answer
// 503 with Retry-After; every acknowledged article is stored once, and,
// once the partition is back, its sentences are on the partitions, each
// row of the primary's table once.
func TestSentencePartitionKilledUnderLoad(t *testing.T) {
	ctx := context.Background()
	primary := dbtest.URL(t)
	server := dbtest.ServerURL(t)
	cfg, err := pgx.ParseConfig(primary)
	if err != nil {
		t.Fatal(err)
	}
	localName := cfg.Database + "_p0"
	_ = dbtest.DropDatabase(ctx, server, localName)
	local, err := dbtest.CreateDatabase(ctx, server, localName, dbtest.DatabaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dbtest.DropDatabase(context.Background(), server, localName) })
	cluster := dbtest.PrivateCluster(t)
	remote := cluster.URL(dbtest.PrivateDatabase)
	register := func() {
		t.Helper()
		for _, u := range []string{local, remote} {
			if err := repo.PreparePartition(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		st, err := repo.Open(ctx, primary, repo.Options{MaxConns: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		remote = cluster.URL(dbtest.PrivateDatabase)
		if err := st.SetSentencePartitions(ctx, []string{connstrOf(t, local), connstrOf(t, remote)}); err != nil {
			t.Fatal(err)
		}
	}
	register()

	a, _, _ := testApp(t, nil)
	logs := newLogWatcher()
	a.stderr = logs
	a.getenv = envFrom(map[string]string{
		"DATABASE_URL":               primary,
		"DEDUP_ADDR":                 "127.0.0.1:0",
		"DEDUP_LOG_FORMAT":           "json",
		"DEDUP_REQUEST_TIMEOUT":      outageRequestTimeout.String(),
		"DEDUP_DB_STATEMENT_TIMEOUT": "1s",
		"DEDUP_DB_MAX_CONNS":         "8",
		"DEDUP_SHUTDOWN_TIMEOUT":     "10s",
	})
	serveCtx, stopServe := context.WithCancel(context.Background())
	defer stopServe()
	done := make(chan error, 1)
	go func() { done <- a.run(serveCtx, []string{"serve"}) }()
	base := "http://" + logs.waitAddr(t, done)

	load := newIngestLoad(t, base, "partition-down")
	loadCtx, stopLoad := context.WithCancel(context.Background())
	var clients sync.WaitGroup
	defer func() { stopLoad(); clients.Wait() }()
	for range 4 {
		clients.Add(1)
		go func() {
			defer clients.Done()
			c := &http.Client{Timeout: outageRequestTimeout + 5*time.Second, Transport: &http.Transport{}}
			load.run(loadCtx, c, nil)
		}()
	}
	load.waitAcked(t, 20, 60*time.Second, "before the partition is killed")

	pid := postmasterPID(t, cluster.DataDir())
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the requests in flight finish
	probe := &http.Client{Timeout: outageRequestTimeout + 5*time.Second}
	art := faultArticles(t)[0]
	body, _ := json.Marshal(map[string]string{"title": art.Title, "body": art.Body})
	for i := range 5 {
		resp, err := probe.Post(base+"/v1/check", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Errorf("check %d with a partition down: %d (Retry-After %q) %.200s, want 503 with Retry-After",
				i, resp.StatusCode, resp.Header.Get("Retry-After"), raw)
		}
	}
	// A check that allows it is answered, marked incomplete, without the
	// partition that is down.
	allow, _ := json.Marshal(map[string]any{"title": art.Title, "body": art.Body, "allow_incomplete": true})
	resp, err := probe.Post(base+"/v1/check", "application/json", bytes.NewReader(allow))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var incomplete struct {
		Incomplete        bool  `json:"incomplete"`
		MissingPartitions []int `json:"missing_partitions"`
	}
	if err := json.Unmarshal(raw, &incomplete); resp.StatusCode != http.StatusOK || err != nil ||
		!incomplete.Incomplete || len(incomplete.MissingPartitions) != 1 || incomplete.MissingPartitions[0] != 1 {
		t.Errorf("check allowing an incomplete answer with partition 1 down: %d %.300s, want 200, incomplete, missing [1]", resp.StatusCode, raw)
	}
	load.drainAcked()
	time.Sleep(time.Second)
	stopLoad()
	clients.Wait()
	down := 0
	for _, o := range load.all() {
		if o.status == http.StatusServiceUnavailable {
			down++
		}
	}
	if down == 0 {
		t.Error("no ingest answered 503 while a partition was down")
	}

	// Back: the zombie postmaster's files go (as in the repo test), the
	// partition starts, and is registered again in case its port moved.
	deadline := time.Now().Add(30 * time.Second)
	for !exited(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("postmaster %d still runs 30 s after kill -9", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	locks, _ := filepath.Glob(filepath.Join(cluster.Dir(), ".s.PGSQL.*.lock"))
	for _, f := range append(locks, filepath.Join(cluster.DataDir(), "postmaster.pid")) {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if err := cluster.Start(ctx); err != nil {
		t.Fatal(err)
	}
	register()

	acked, lost, _ := checkAckedStored(t, primary, "partition-down", load.all())
	if acked < 20 || lost > 0 {
		t.Errorf("%d acknowledged, %d lost", acked, lost)
	}
	// Every sentence row of the primary's table is on the partitions once.
	var want int
	pc, err := pgx.Connect(ctx, primary)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close(ctx)
	if err := pc.QueryRow(ctx, `SELECT count(*) FROM sentences`).Scan(&want); err != nil {
		t.Fatal(err)
	}
	var got int
	if err := pc.QueryRow(ctx, `
		SELECT count(*) FROM sentences s
		WHERE EXISTS (SELECT 1 FROM sentence_proxy.search(ARRAY[0], ARRAY[s.text_hash], ARRAY[NULL::int8], 0, 0, NULL) f
		              WHERE f.article_id = s.article_id AND f.pos = s.position)`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != want || want == 0 {
		t.Errorf("the partitions hold %d of the primary's %d sentence rows", got, want)
	}
	t.Logf("%d acknowledged, %d answered 503; %d sentence rows on the partitions", acked, down, got)
	stopServe()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}

func connstrOf(t *testing.T, url string) string {
	t.Helper()
	c, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("host=%s port=%d dbname=%s user=%s connect_timeout=2", c.Host, c.Port, c.Database, c.User)
}

func postmasterPID(t *testing.T, dataDir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// exited reports whether process pid has exited (gone, or a zombie).
func exited(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	return strings.HasPrefix(strings.TrimSpace(string(stat[strings.LastIndexByte(string(stat), ')')+1:])), "Z")
}
