package dbtest_test

import (
	"context"
	"net"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestPrivateCluster gets a private cluster with a migrated database that
// survives a crash, and checks that it is gone once the test that asked for
// it has ended.
func TestPrivateCluster(t *testing.T) {
	t.Parallel()
	var dir string
	var port int
	t.Run("private", func(t *testing.T) {
		c := dbtest.PrivateCluster(t)
		dir, port = c.Dir(), c.Port()
		conn := mustConnect(t, c.URL(dbtest.PrivateDatabase))
		if !tableExists(t, conn, "articles") {
			t.Fatalf("%s has no articles table: migrations not applied", dbtest.PrivateDatabase)
		}
		if _, err := conn.Exec(t.Context(), "INSERT INTO articles (external_id, body, published_at, content_hash, simhash, fingerprint_version, a0, a1, a2, a3, b0, b1, b2, b3, words, status) "+
			"VALUES ('x', 'b', now(), decode(repeat('00', 32), 'hex'), 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, '{}', 'unique')"); err != nil {
			t.Fatal(err)
		}
		conn.Close(context.Background())

		ctx := t.Context()
		if err := c.Stop(ctx, "immediate"); err != nil {
			t.Fatalf("Stop(immediate): %v", err)
		}
		if err := c.Start(ctx); err != nil {
			t.Fatalf("Start after a crash: %v", err)
		}
		conn = mustConnect(t, c.URL(dbtest.PrivateDatabase))
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM articles").Scan(&n); err != nil || n != 1 {
			t.Errorf("articles after a crash and a start = %d, %v; want 1", n, err)
		}
	})
	if dir == "" || port == 0 {
		t.Fatal("the subtest did not get a cluster")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the private cluster's folder %s is still there after the test (stat: %v)", dir, err)
	}
	if c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), time.Second); err == nil {
		c.Close()
		t.Errorf("port %d still accepts connections after the test", port)
	}
}
