// Package dbtest gives each database test a fresh PostgreSQL database with
// every migration applied, on the server DATABASE_URL points at.
//
// The first call in a test process migrates a template database, named
// after a hash of the migrations so that later runs with the same
// migrations reuse it; each call then clones the template (tens of
// milliseconds) into a database of its own. A passing test's database is
// dropped when the test ends; a failing test's database is kept and its URL
// logged, so that one can look at what the test left behind.
//
// `make test` sets DATABASE_URL (starting a local cluster with tools/cmd/devdb if
// needed). Without it the tests fail rather than skip: a suite that quietly
// skips every database test proves nothing.
package dbtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/migrations"
)

// templateLockKey is the pg_advisory_lock key that serialises building the
// template across the test processes `go test ./...` runs at once. Advisory
// locks belong to a database: every process takes it in DATABASE_URL's.
const templateLockKey int64 = 0x6e657773_64656475 // "newsdedu"

// maxIdentifier is PostgreSQL's limit on a database name, in bytes.
const maxIdentifier = 63

var template struct {
	once sync.Once
	name string
	err  error
}

// ServerURL returns DATABASE_URL, or fails the test with a message saying to
// run `make test`. It never skips.
func ServerURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv("DATABASE_URL")
	if u == "" {
		tb.Fatal("DATABASE_URL is not set: run the tests with `make test`, which starts a local PostgreSQL " +
			"(tools/cmd/devdb) and sets it, or set DATABASE_URL to a server where this role may CREATE DATABASE")
	}
	return u
}

// URL returns the URL of a fresh database with every migration applied, for
// this test alone. It is dropped when the test ends if the test passed; if
// it failed, it is kept and its URL logged.
func URL(tb testing.TB) string {
	tb.Helper()
	server := ServerURL(tb)

	template.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		template.name, template.err = ensureTemplate(ctx, server)
	})
	if template.err != nil {
		tb.Fatalf("dbtest: template database: %v", template.err)
	}

	name, err := testDatabaseName(tb.Name())
	if err != nil {
		tb.Fatalf("dbtest: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dbURL, err := CreateDatabase(ctx, server, name, DatabaseOptions{Template: template.name})
	if err != nil {
		tb.Fatalf("dbtest: %v", err)
	}

	tb.Cleanup(func() {
		if tb.Failed() {
			tb.Logf("dbtest: kept database %q of this failed test: %s", name, redact(dbURL))
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := DropDatabase(ctx, server, name); err != nil {
			tb.Errorf("dbtest: %v", err)
		}
	})
	return dbURL
}

// templateName returns the name of the template database for the migrations
// in migrations.FS: newsdedup_tmpl_ and 12 hex digits of a SHA-256 over the
// names and contents of the files.
func templateName() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.FS, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash migrations: %w", err)
	}
	return "newsdedup_tmpl_" + hex.EncodeToString(h.Sum(nil))[:12], nil
}

// ensureTemplate makes sure the template database for the current
// migrations exists on the server, building it if not, and returns its name.
func ensureTemplate(ctx context.Context, server string) (string, error) {
	name, err := templateName()
	if err != nil {
		return "", err
	}
	conn, err := connect(ctx, server)
	if err != nil {
		return "", err
	}
	defer conn.Close(context.Background())

	// The lock is a session lock: it also goes when this connection does.
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", templateLockKey); err != nil {
		return "", fmt.Errorf("take the template lock: %w", err)
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", templateLockKey)

	var found bool
	err = conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&found)
	if err != nil {
		return "", fmt.Errorf("look for %s: %w", name, err)
	}
	if found {
		return name, nil
	}

	// Build under a temporary name and rename at the end, so that the final
	// name only ever stands for a fully migrated database. A leftover of a
	// build that died halfway is dropped first.
	building := name + "_building"
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(building)+" WITH (FORCE)"); err != nil {
		return "", fmt.Errorf("drop the leftover %s: %w", building, err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+ident(building)); err != nil {
		return "", fmt.Errorf("create %s: %w", building, err)
	}
	buildURL, err := DatabaseURL(server, building)
	if err != nil {
		return "", err
	}
	if err := MigrateUp(ctx, buildURL); err != nil {
		return "", fmt.Errorf("migrate %s: %w", building, err)
	}

	// CREATE DATABASE … TEMPLATE and RENAME both fail while anyone is
	// connected. Closing a client does not end its server process at once,
	// so wait until the migrator's sessions are gone; then nobody may connect.
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+ident(building)+" WITH ALLOW_CONNECTIONS false"); err != nil {
		return "", fmt.Errorf("close %s to connections: %w", building, err)
	}
	if err := waitNoSessions(ctx, conn, building); err != nil {
		return "", err
	}
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+ident(building)+" WITH IS_TEMPLATE true"); err != nil {
		return "", fmt.Errorf("mark %s a template: %w", building, err)
	}
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+ident(building)+" RENAME TO "+ident(name)); err != nil {
		return "", fmt.Errorf("rename %s to %s: %w", building, name, err)
	}
	return name, nil
}

// waitNoSessions waits until no session is connected to db, ending any that
// stay longer than a few seconds.
func waitNoSessions(ctx context.Context, conn *pgx.Conn, db string) error {
	for i := 0; ; i++ {
		var n int
		err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE datname = $1", db).Scan(&n)
		if err != nil {
			return fmt.Errorf("count sessions on %s: %w", db, err)
		}
		if n == 0 {
			return nil
		}
		if i == 100 { // 5 s
			_, err := conn.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", db)
			if err != nil {
				return fmt.Errorf("end sessions on %s: %w", db, err)
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for the sessions on %s to end: %w", db, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// testDatabaseName turns a test's name into a database name of at most 63
// bytes: the name's letters and digits in lower case, then random hex.
func testDatabaseName(testName string) (string, error) {
	var b strings.Builder
	underscore := false
	for _, r := range strings.ToLower(testName) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			underscore = false
		} else if !underscore && b.Len() > 0 {
			b.WriteByte('_')
			underscore = true
		}
	}
	var random [8]byte
	if _, err := rand.Read(random[:]); err != nil {
		return "", err
	}
	suffix := hex.EncodeToString(random[:])
	prefix := strings.TrimRight(b.String(), "_")
	if max := maxIdentifier - len(suffix) - 1; len(prefix) > max {
		prefix = strings.TrimRight(prefix[:max], "_")
	}
	if prefix == "" {
		prefix = "test"
	}
	return prefix + "_" + suffix, nil
}

// redact hides the password of a URL or keyword/value string, for logs.
func redact(dbURL string) string {
	if u, err := url.Parse(dbURL); err == nil && u.Scheme != "" {
		return u.Redacted()
	}
	return kvPassword.ReplaceAllString(dbURL, "password=xxxxx")
}

var kvPassword = regexp.MustCompile(`password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)`)

func connect(ctx context.Context, server string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(server)
	if err != nil {
		return nil, errors.New("parse DATABASE_URL: invalid syntax")
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to DATABASE_URL's server (%s:%d): %w", cfg.Host, cfg.Port, err)
	}
	return conn, nil
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }
