package pgcluster_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/pgcluster"
)

// requireAutoctl skips the test when pg_autoctl is missing, or fails it under
// NEWSDEDUP_REQUIRE_HA=1 (CI sets it).
func requireAutoctl(t *testing.T) {
	t.Helper()
	if _, err := pgcluster.FindAutoctl(); err != nil {
		if os.Getenv("NEWSDEDUP_REQUIRE_HA") == "1" {
			t.Fatalf("%v; NEWSDEDUP_REQUIRE_HA=1 makes its absence a failure", err)
		}
		t.Skip(err)
	}
}

// TestFormationStopStart makes a formation, writes through its URL, checks
// that the standby is synchronous, stops it and starts it again as devdb
// does: the URL reaches a primary that holds what was written.
func TestFormationStopStart(t *testing.T) {
	requireAutoctl(t)
	t.Parallel()
	parent, err := os.MkdirTemp("", "newsdedup-formation-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	first := 20000 + rand.IntN(10000)
	f, err := pgcluster.NewFormation(filepath.Join(parent, "ha"), pgcluster.FormationOptions{
		Owner:     "internal/pgcluster tests",
		Database:  "app",
		Settings:  []string{"shared_buffers = '16MB'", "max_connections = 30"},
		Detection: pgcluster.FastDetection,
		FirstPort: first,
		LastPort:  first + 500,
		NoSync:    true,
		Logf:      t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, m := range []string{pgcluster.Monitor, pgcluster.Node1, pgcluster.Node2} {
				t.Logf("the end of %s's log:\n%s", m, f.LogTail(m, 20))
			}
		}
		if err := f.Stop(context.Background()); err != nil {
			t.Errorf("Stop in cleanup: %v", err)
		}
		os.RemoveAll(parent)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	if err := f.Create(ctx); err != nil {
		t.Fatalf("Create: %v", err)
	}
	exec := func(sql string) {
		t.Helper()
		conn, err := pgx.Connect(ctx, f.URL("app"))
		if err != nil {
			t.Fatalf("connect to %s: %v", f.URL("app"), err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec("CREATE TABLE t (x int); INSERT INTO t VALUES (1)")

	primary, err := f.Primary(ctx)
	if err != nil || primary != pgcluster.Node1 {
		t.Fatalf("Primary() = %q, %v; want %s", primary, err, pgcluster.Node1)
	}
	conn, err := pgx.Connect(ctx, f.NodeURL(pgcluster.Node1, "app"))
	if err != nil {
		t.Fatal(err)
	}
	var syncState, names string
	err = conn.QueryRow(ctx, `SELECT (SELECT string_agg(sync_state, ',') FROM pg_stat_replication), current_setting('synchronous_standby_names')`).Scan(&syncState, &names)
	conn.Close(ctx)
	if err != nil || (syncState != "sync" && syncState != "quorum") || names == "" {
		t.Errorf("the primary's standby: sync_state %q, synchronous_standby_names %q (%v); want a synchronous standby", syncState, names, err)
	}

	if err := f.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	for _, m := range []string{pgcluster.Monitor, pgcluster.Node1, pgcluster.Node2} {
		if f.Running(m) {
			t.Errorf("%s still runs after Stop", m)
		}
	}
	if err := f.Start(ctx); err != nil {
		t.Fatalf("Start after Stop: %v", err)
	}
	// Either node may be the primary now: a monitor that started before
	// the first primary's keeper reported may have promoted the standby,
	// which is safe (it was synchronous). The URL finds whichever it is.
	if _, err := f.Primary(ctx); err != nil {
		t.Errorf("Primary() after a restart: %v", err)
	}
	exec("INSERT INTO t VALUES (2)")
	conn, err = pgx.Connect(ctx, f.URL("app"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 2 {
		t.Errorf("rows after a restart = %d, %v; want 2", n, err)
	}
}
