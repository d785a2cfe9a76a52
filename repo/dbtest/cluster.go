package dbtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/pgcluster"
)

// PrivateDatabase is the database PrivateCluster creates and migrates.
const PrivateDatabase = "newsdedup"

// PrivateCluster starts a PostgreSQL cluster for this test alone and creates
// in it the database PrivateDatabase with every migration applied; its URL
// is c.URL(PrivateDatabase). The test may stop, crash (Stop "immediate")
// and start the cluster as it likes. When the test ends the cluster is
// stopped and its folder removed; if the test failed, the end of the server
// log is logged first.
//
// Settings are postgresql.conf lines added to the cluster's own.
//
// It needs the PostgreSQL server programs (see pgcluster.FindBinaries), not
// DATABASE_URL's server. Like URL, it fails the test, never skips it, when
// PostgreSQL cannot start. A cluster takes a second or two to create.
func PrivateCluster(tb testing.TB, settings ...string) *pgcluster.Cluster {
	tb.Helper()
	// The folder must be one the postgres user can reach when the tests run
	// as root: t.TempDir lies in a folder of mode 700.
	parent, err := os.MkdirTemp("", "newsdedup-dbtest-")
	if err != nil {
		tb.Fatalf("dbtest: private cluster: %v", err)
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		os.RemoveAll(parent)
		tb.Fatalf("dbtest: private cluster: %v", err)
	}
	// A port clear of the ephemeral range (outgoing connections) and of
	// tools/cmd/devdb's; a random start keeps parallel test processes apart.
	first := 20000 + rand.IntN(10000)
	c, err := pgcluster.New(filepath.Join(parent, "pg"), pgcluster.Options{
		Owner:     "repo/dbtest",
		ConfFile:  "dbtest.conf",
		Settings:  append([]string{"max_connections = 100", "shared_buffers = '64MB'"}, settings...),
		FirstPort: first,
		LastPort:  first + 500,
		NoSync:    true,
	})
	if err != nil {
		os.RemoveAll(parent)
		tb.Fatalf("dbtest: private cluster: %v", err)
	}
	tb.Cleanup(func() {
		if tb.Failed() {
			tb.Logf("dbtest: the end of the private cluster's server log %s:\n%s", c.LogFile(), c.LogTail(40))
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := c.Stop(ctx, "immediate"); err != nil {
			tb.Errorf("dbtest: stop the private cluster: %v; it is left in %s", err, parent)
			return
		}
		if err := os.RemoveAll(parent); err != nil {
			tb.Errorf("dbtest: remove the private cluster: %v", err)
		}
	})

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := startPrivate(ctx, c); err != nil {
		tb.Fatalf("dbtest: private cluster in %s: %v", c.Dir(), err)
	}
	return c
}

// startPrivate creates and starts the cluster, then creates and migrates
// its database.
func startPrivate(ctx context.Context, c *pgcluster.Cluster) error {
	if err := c.Init(ctx); err != nil {
		return err
	}
	if err := c.Start(ctx); err != nil {
		return err
	}
	dbURL, err := CreateDatabase(ctx, c.URL("postgres"), PrivateDatabase, DatabaseOptions{})
	if err != nil {
		return err
	}
	if err := MigrateUp(ctx, dbURL); err != nil {
		return fmt.Errorf("migrate %s: %w", PrivateDatabase, err)
	}
	return nil
}
