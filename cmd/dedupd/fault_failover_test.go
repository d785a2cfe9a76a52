package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

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
//
// It does not run in parallel: its load (three servers, twenty clients)
// would slow the timing-bounded fault tests beside it.
func TestFailover(t *testing.T) {
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
