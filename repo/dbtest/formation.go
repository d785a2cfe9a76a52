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

// RequireHAVariable, set to 1 (CI sets it), makes a missing pg_autoctl or
// pgBackRest fail the tests that need them instead of skipping them.
const RequireHAVariable = "NEWSDEDUP_REQUIRE_HA"

// RequireProgram skips the test when a program it needs is missing (err,
// from the lookup), or fails it under NEWSDEDUP_REQUIRE_HA=1.
func RequireProgram(tb testing.TB, err error) {
	tb.Helper()
	if err == nil {
		return
	}
	if os.Getenv(RequireHAVariable) == "1" {
		tb.Fatalf("%v; %s=1 makes its absence a failure", err, RequireHAVariable)
	}
	tb.Skipf("%v (set %s=1 to fail instead)", err, RequireHAVariable)
}

// PrivateFormation makes a pg_auto_failover formation (a monitor, a primary
// and its synchronous standby) for this test alone, with the database
// PrivateDatabase migrated on it; f.URL(PrivateDatabase) is the URL of both
// nodes that the service uses. The monitor notices a lost node within
// seconds with pgcluster.FastDetection, as the monitor of a real deployment
// does with the zero Detection (pg_auto_failover's defaults). The test may kill and restart nodes as
// it likes; when it ends the formation is stopped and its folder removed,
// the end of each member's log logged first if the test failed.
//
// It skips the test when pg_autoctl is missing, or fails it under
// NEWSDEDUP_REQUIRE_HA=1. A formation takes 15 to 30 s to make.
func PrivateFormation(tb testing.TB, detection pgcluster.Detection) *pgcluster.Formation {
	tb.Helper()
	_, err := pgcluster.FindAutoctl()
	RequireProgram(tb, err)
	parent, err := os.MkdirTemp("", "newsdedup-ha-")
	if err != nil {
		tb.Fatalf("dbtest: private formation: %v", err)
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		os.RemoveAll(parent)
		tb.Fatalf("dbtest: private formation: %v", err)
	}
	first := 20000 + rand.IntN(10000) // as PrivateCluster's
	f, err := pgcluster.NewFormation(filepath.Join(parent, "ha"), pgcluster.FormationOptions{
		Owner:    "repo/dbtest",
		Database: PrivateDatabase,
		// Small, for a shared machine; enough connections for a pool of 16,
		// the tests' own and the monitor's checks (a check refused for want
		// of a connection would count as a failure).
		Settings:  []string{"shared_buffers = '32MB'", "max_connections = 60", "logging_collector = off"},
		Detection: detection,
		FirstPort: first,
		LastPort:  first + 500,
		NoSync:    true,
	})
	if err != nil {
		os.RemoveAll(parent)
		tb.Fatalf("dbtest: private formation: %v", err)
	}
	tb.Cleanup(func() {
		if tb.Failed() {
			for _, m := range []string{pgcluster.Monitor, pgcluster.Node1, pgcluster.Node2} {
				tb.Logf("dbtest: the end of the formation's %s log %s:\n%s", m, f.LogFile(m), f.LogTail(m, 25))
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := f.Stop(ctx); err != nil {
			tb.Errorf("dbtest: stop the private formation: %v", err)
		}
		for _, m := range []string{pgcluster.Monitor, pgcluster.Node1, pgcluster.Node2} {
			if f.Running(m) {
				tb.Errorf("dbtest: the private formation's %s still runs; it is left in %s", m, parent)
				return
			}
		}
		if err := os.RemoveAll(parent); err != nil {
			tb.Errorf("dbtest: remove the private formation: %v", err)
		}
	})

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	if err := f.Create(ctx); err != nil {
		tb.Fatalf("dbtest: private formation in %s: %v", f.Dir(), err)
	}
	if err := MigrateUp(ctx, f.URL(PrivateDatabase)); err != nil {
		tb.Fatalf("dbtest: migrate the private formation: %v", fmt.Errorf("%s: %w", PrivateDatabase, err))
	}
	return f
}
