package migrations_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// gooseTags leave out the goose CLI's drivers for other databases, whose
// modules the module cache need not hold; its postgres driver is pgx, ours.
const gooseTags = "no_clickhouse no_libsql no_mssql no_mysql no_sqlite3 no_vertica no_ydb"

// TestGooseCLIRunsTheFolder holds the README's promise that the goose CLI
// runs this folder as dedupd migrate does: it builds the real CLI at the
// version go.mod requires and runs up, down-to 0 and up again on a fresh
// database. goose reads every top-level .sql file here as a migration, so
// anything else there (a generated schema dump) breaks it.
func TestGooseCLIRunsTheFolder(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	goose := buildGooseCLI(ctx, t)

	server := dbtest.ServerURL(t)
	name := "newsdedup_goose_" + randomHex(t)
	dbURL, err := dbtest.CreateDatabase(ctx, server, name, dbtest.DatabaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := dbtest.DropDatabase(context.Background(), server, name); err != nil {
			t.Error(err)
		}
	})
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, goose, append([]string{"-dir", dir, "postgres", dbURL}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("goose %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	last := lastMigration(t, dir)
	for _, step := range [][]string{{"up"}, {"down-to", "0"}, {"up"}} {
		run(step...)
	}
	if got := run("version"); !strings.Contains(got, "version "+strings.TrimLeft(last, "0")) {
		t.Errorf("after up, down-to 0, up: goose version says %q, want %s", got, last)
	}
}

// buildGooseCLI builds github.com/pressly/goose/v3/cmd/goose at the version
// go.mod requires, in a scratch module with this module's requirements (so
// from the module cache), and returns the binary's path.
func buildGooseCLI(ctx context.Context, t *testing.T) string {
	t.Helper()
	goMod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goSum, err := os.ReadFile("../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\s*github\.com/pressly/goose/v3 v`).Match(goMod) {
		t.Fatal("go.mod does not require github.com/pressly/goose/v3")
	}
	scratch := t.TempDir()
	mod := regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(goMod, []byte("module goosecli"))
	for name, b := range map[string][]byte{"go.mod": mod, "go.sum": goSum} {
		if err := os.WriteFile(filepath.Join(scratch, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(scratch, "goose")
	cmd := exec.CommandContext(ctx, "go", "build", "-mod=mod", "-tags", gooseTags, "-o", bin,
		"github.com/pressly/goose/v3/cmd/goose")
	cmd.Dir = scratch
	// The module cache verified its modules when it fetched them; the
	// scratch go.sum lacks the CLI's own two, which go would otherwise
	// look up in the checksum database (no network in CI).
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false", "GOWORK=off", "GOSUMDB=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the goose CLI: %v\n%s", err, out)
	}
	return bin
}

// lastMigration is the number of the folder's last migration, 00024 for
// 00024_drift_heads.sql.
func lastMigration(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "[0-9]*_*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations in %s: %v", dir, err)
	}
	base := filepath.Base(files[len(files)-1])
	return base[:strings.IndexByte(base, '_')]
}
