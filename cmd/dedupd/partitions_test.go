package main

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestPartitionsCommand sets two partitions with dedupd partitions set,
// lists them, sweeps, and goes back to the table alone; a wrong action or
// count is a usage error.
func TestPartitionsCommand(t *testing.T) {
	ctx := context.Background()
	primary := dbtest.URL(t)
	server := dbtest.ServerURL(t)
	cfg, err := pgx.ParseConfig(primary)
	if err != nil {
		t.Fatal(err)
	}
	var connstrs []string
	for _, suffix := range []string{"_c0", "_c1"} {
		name := cfg.Database + suffix
		_ = dbtest.DropDatabase(ctx, server, name)
		u, err := dbtest.CreateDatabase(ctx, server, name, dbtest.DatabaseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = dbtest.DropDatabase(context.Background(), server, name) })
		if err := repo.PreparePartition(ctx, u); err != nil {
			t.Fatal(err)
		}
		connstrs = append(connstrs, connstrOf(t, u))
	}
	run := func(args ...string) (string, error) {
		a, stdout, _ := testApp(t, map[string]string{"DATABASE_URL": primary})
		err := a.run(ctx, append([]string{"partitions"}, args...))
		return stdout.String(), err
	}
	if out, err := run(append([]string{"set"}, connstrs...)...); err != nil || !strings.Contains(out, "2 sentence partitions set") {
		t.Fatalf("set: %q, %v", out, err)
	}
	out, err := run("list")
	if err != nil || out != "0\t"+connstrs[0]+"\n1\t"+connstrs[1]+"\n" {
		t.Errorf("list: %q, %v", out, err)
	}
	if out, err := run("sweep"); err != nil || !strings.Contains(out, "swept 0 rows") {
		t.Errorf("sweep: %q, %v", out, err)
	}
	if _, err := run(append([]string{"set"}, connstrs[0], connstrs[1], connstrs[0])...); err == nil {
		t.Error("set of 3 partitions succeeded")
	}
	if out, err := run("set"); err != nil || !strings.Contains(out, "0 sentence partitions set") {
		t.Errorf("set of none: %q, %v", out, err)
	}
	if out, err := run("list"); err != nil || !strings.Contains(out, "no partitions") {
		t.Errorf("list of none: %q, %v", out, err)
	}
	for _, args := range [][]string{{}, {"bogus"}, {"move", "1"}, {"split"}, {"list", "x"}} {
		if _, err := run(args...); err == nil {
			t.Errorf("partitions %v: no error", args)
		} else if _, ok := err.(usageError); !ok {
			t.Errorf("partitions %v: %v, want a usage error", args, err)
		}
	}
}
