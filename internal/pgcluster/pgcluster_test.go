package pgcluster_test

import (
	"context"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/pgcluster"
)

// newCluster returns a cluster in a fresh folder under os.TempDir that the
// postgres user can reach (t.TempDir lies in a folder closed to it when the
// tests run as root). The cluster is stopped and its folder removed when the
// test ends; the end of its server log is logged if the test failed.
func newCluster(t *testing.T) *pgcluster.Cluster {
	t.Helper()
	parent, err := os.MkdirTemp("", "newsdedup-pgcluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		os.RemoveAll(parent)
		t.Fatal(err)
	}
	first := 20000 + rand.IntN(10000) // clear of the ephemeral ports and of devdb's
	c, err := pgcluster.New(filepath.Join(parent, "pg"), pgcluster.Options{
		Owner:     "internal/pgcluster tests",
		NoSync:    true,
		FirstPort: first,
		LastPort:  first + 500,
		Logf:      t.Logf,
	})
	if err != nil {
		os.RemoveAll(parent)
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the end of %s:\n%s", c.LogFile(), c.LogTail(30))
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := c.Stop(ctx, "immediate"); err != nil {
			t.Errorf("Stop(immediate) in cleanup: %v; the cluster is left in %s", err, parent)
			return
		}
		if err := os.RemoveAll(parent); err != nil {
			t.Errorf("remove %s: %v", parent, err)
		}
	})
	return c
}

func mustRunning(t *testing.T, c *pgcluster.Cluster, want bool) {
	t.Helper()
	got, err := c.Running(context.Background())
	if err != nil {
		t.Fatalf("Running() error = %v", err)
	}
	if got != want {
		t.Fatalf("Running() = %v, want %v", got, want)
	}
}

// query runs the statements before the last on the postgres database, then
// the last, and returns the first column of its first row, as text.
func query(t *testing.T, c *pgcluster.Cluster, statements ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		t.Fatalf("connect to %s: %v", c.URL("postgres"), err)
	}
	defer conn.Close(context.Background())
	last := len(statements) - 1
	for _, sql := range statements[:last] {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	var out string
	if err := conn.QueryRow(ctx, statements[last]).Scan(&out); err != nil {
		t.Fatalf("%s: %v", statements[last], err)
	}
	return out
}

// TestLifecycle starts a throw-away cluster, stops it cleanly, starts it
// again, crashes it (immediate) and starts it once more: a committed row
// survives both, and the cluster keeps its port.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t)

	if c.Initialised() {
		t.Fatal("Initialised() = true before Init")
	}
	if err := c.Start(ctx); err == nil {
		t.Fatal("Start before Init = nil, want an error")
	}
	if err := c.Init(ctx); err != nil {
		t.Fatalf("Init: %v", err)
	}
	if !c.Initialised() {
		t.Fatal("Initialised() = false after Init")
	}
	port := c.Port()
	if port == 0 {
		t.Fatal("Port() = 0 after Init")
	}
	if got, want := c.URL("x"), "postgres://postgres@127.0.0.1:"+strconv.Itoa(port)+"/x?sslmode=disable"; got != want {
		t.Errorf("URL(x) = %q, want %q", got, want)
	}
	if c.RunAs() == "" && os.Geteuid() == 0 {
		t.Error("RunAs() = \"\" for a root process, want the postgres user")
	}
	mustRunning(t, c, false)

	if err := c.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	mustRunning(t, c, true)
	if err := c.Start(ctx); err != nil { // a no-op on a running cluster
		t.Fatalf("Start on a running cluster: %v", err)
	}
	query(t, c, "CREATE TABLE kept (n int)", "INSERT INTO kept VALUES (1)", "SELECT 'ok'")

	for _, mode := range []string{"fast", "immediate"} {
		if err := c.Stop(ctx, mode); err != nil {
			t.Fatalf("Stop(%s): %v", mode, err)
		}
		mustRunning(t, c, false)
		if _, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), time.Second); err == nil {
			t.Fatalf("port %d still accepts connections after Stop(%s)", port, mode)
		}
		if err := c.Stop(ctx, mode); err != nil { // a no-op on a stopped cluster
			t.Fatalf("Stop(%s) on a stopped cluster: %v", mode, err)
		}
		if err := c.Start(ctx); err != nil {
			t.Fatalf("Start after Stop(%s): %v", mode, err)
		}
		mustRunning(t, c, true)
		if got := c.Port(); got != port {
			t.Errorf("Port() after Stop(%s) and Start = %d, want %d", mode, got, port)
		}
		if got := query(t, c, "SELECT count(*)::text FROM kept"); got != "1" {
			t.Errorf("rows after Stop(%s) and Start = %s, want 1", mode, got)
		}
	}
	if log := c.LogTail(200); !strings.Contains(log, "database system was interrupted") &&
		!strings.Contains(log, "not properly shut down") {
		t.Errorf("the server log does not show a recovery after Stop(immediate):\n%s", log)
	}

	// Init on an initialised cluster changes nothing.
	if err := c.Init(ctx); err != nil {
		t.Fatalf("Init again: %v", err)
	}
	if got := c.Port(); got != port {
		t.Errorf("Port() after a second Init = %d, want %d", got, port)
	}
	if err := c.Stop(ctx, "sideways"); err == nil {
		t.Error("Stop(sideways) = nil, want an error")
	}
}

// TestStartMovesOffATakenPort takes a stopped cluster's port: Start moves
// the cluster to a free one and writes it to the port file.
func TestStartMovesOffATakenPort(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t)
	if err := c.Init(ctx); err != nil {
		t.Fatalf("Init: %v", err)
	}
	port := c.Port()
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		t.Fatalf("take port %d: %v", port, err)
	}
	defer l.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("Start with its port taken: %v", err)
	}
	moved := c.Port()
	if moved == port {
		t.Fatalf("Port() = %d, the taken port", moved)
	}
	if got, err := c.ReadPort(); err != nil || got != moved {
		t.Errorf("ReadPort() = %d, %v; want %d", got, err, moved)
	}
	if got := query(t, c, "SELECT current_setting('port')"); got != strconv.Itoa(moved) {
		t.Errorf("the server listens on %s, want %d", got, moved)
	}
	conf, err := os.ReadFile(filepath.Join(c.DataDir(), "pgcluster.conf"))
	if err != nil || !strings.Contains(string(conf), "port = "+strconv.Itoa(moved)+"\n") {
		t.Errorf("pgcluster.conf = %q, %v; want port = %d", conf, err, moved)
	}
}
