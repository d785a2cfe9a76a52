package dbtest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

func TestURLGivesEachCallItsOwnMigratedDatabase(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	server := mustParse(t, dbtest.ServerURL(t))
	u1, u2 := dbtest.URL(t), dbtest.URL(t)
	c1, c2 := mustConnect(t, u1), mustConnect(t, u2)

	db1, db2 := currentDatabase(t, c1), currentDatabase(t, c2)
	if db1 == db2 {
		t.Fatalf("URL twice gave the same database %q", db1)
	}
	for _, u := range []string{u1, u2} {
		cfg := mustParse(t, u)
		if cfg.Host != server.Host || cfg.Port != server.Port || cfg.User != server.User {
			t.Errorf("URL = %s:%d as %s, want DATABASE_URL's %s:%d as %s",
				cfg.Host, cfg.Port, cfg.User, server.Host, server.Port, server.User)
		}
	}
	for _, c := range []*pgx.Conn{c1, c2} {
		if !tableExists(t, c, "articles") {
			t.Errorf("database %s has no articles table: migrations not applied", currentDatabase(t, c))
		}
	}

	// What one test writes, the other does not see.
	if _, err := c1.Exec(ctx, "CREATE TABLE dbtest_probe (id int)"); err != nil {
		t.Fatal(err)
	}
	if tableExists(t, c2, "dbtest_probe") {
		t.Errorf("a table created in %s shows in %s", db1, db2)
	}
}

func TestURLDropsTheDatabaseOfAPassingTest(t *testing.T) {
	t.Parallel()
	var name string
	t.Run("passing", func(t *testing.T) {
		c := mustConnect(t, dbtest.URL(t))
		name = currentDatabase(t, c)
	})
	if name == "" {
		t.Fatal("the subtest did not get a database")
	}
	if databaseExists(t, name) {
		t.Errorf("database %s of a passing test still exists after its cleanup", name)
	}
}

func TestURLFitsLongTestNamesIntoADatabaseName(t *testing.T) {
	t.Parallel()
	t.Run(strings.Repeat("Ünïcode, spaces / and slashes ", 5), func(t *testing.T) {
		name := currentDatabase(t, mustConnect(t, dbtest.URL(t)))
		if len(name) > 63 {
			t.Errorf("database name %q is %d bytes, want ≤ 63", name, len(name))
		}
		if want := "testurlfitslongtestnames"; !strings.HasPrefix(name, want) {
			t.Errorf("database name %q does not start with %q: it should say which test it belongs to", name, want)
		}
	})
}

// The two tests below run this test binary again with childEnv set, to watch
// a test that fails from outside.
const childEnv = "DBTEST_CHILD"

func TestURLKeepsTheDatabaseOfAFailingTest(t *testing.T) {
	t.Parallel()
	dbtest.ServerURL(t)
	out, err := runChild(t, "fail", os.Getenv("DATABASE_URL"))
	if !isExitError(err) {
		t.Fatalf("the failing child test: err = %v, want a non-zero exit; output:\n%s", err, out)
	}
	m := regexp.MustCompile(`kept database "(\w+)" of this failed test: \S`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the failing child test did not log the name and URL of its database; output:\n%s", out)
	}
	name := m[1]
	if !databaseExists(t, name) {
		t.Errorf("database %s of a failed test is gone, want it kept", name)
	}
	mustExec(t, "DROP DATABASE "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
}

func TestURLFailsWithoutDatabaseURL(t *testing.T) {
	t.Parallel()
	out, err := runChild(t, "nourl", "")
	if !isExitError(err) {
		t.Fatalf("the child test without DATABASE_URL: err = %v, want a non-zero exit; output:\n%s", err, out)
	}
	if !strings.Contains(out, "--- FAIL") || strings.Contains(out, "--- SKIP: TestChild") || !strings.Contains(out, "make test") {
		t.Errorf("without DATABASE_URL, want a failure that says to run `make test`; output:\n%s", out)
	}
}

// TestChild is the test runChild runs, in a child process; on its own it
// does nothing.
func TestChild(t *testing.T) {
	switch os.Getenv(childEnv) {
	case "fail":
		mustConnect(t, dbtest.URL(t))
		t.Error("failing on purpose, so that the database is kept")
	case "nourl":
		dbtest.URL(t)
	default:
		// Not a child: nothing to do. (No t.Skip: a skip in a database
		// package would read, in CI, like a database test that did not run.)
	}
}

func runChild(t *testing.T, mode, databaseURL string) (string, error) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, "DATABASE_URL="+databaseURL)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func isExitError(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}

func mustParse(t *testing.T, u string) *pgx.ConnConfig {
	t.Helper()
	cfg, err := pgx.ParseConfig(u)
	if err != nil {
		t.Fatalf("parse %q: %v", u, err)
	}
	return cfg
}

func mustConnect(t *testing.T, u string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func mustExec(t *testing.T, sql string) {
	t.Helper()
	c := mustConnect(t, dbtest.ServerURL(t))
	if _, err := c.Exec(t.Context(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func currentDatabase(t *testing.T, c *pgx.Conn) string {
	t.Helper()
	var name string
	if err := c.QueryRow(t.Context(), "SELECT current_database()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	return name
}

func tableExists(t *testing.T, c *pgx.Conn, table string) bool {
	t.Helper()
	var ok bool
	if err := c.QueryRow(t.Context(), "SELECT to_regclass($1) IS NOT NULL", "public."+table).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

func databaseExists(t *testing.T, name string) bool {
	t.Helper()
	c := mustConnect(t, dbtest.ServerURL(t))
	var ok bool
	err := c.QueryRow(t.Context(), "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&ok)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}
