package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io/fs"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/migrations"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// emptyDatabase creates a database with no schema on DATABASE_URL's server
// and drops it when the test ends.
func emptyDatabase(t *testing.T) string {
	t.Helper()
	server := dbtest.ServerURL(t)
	var random [6]byte
	rand.Read(random[:])
	name := "dedupd_migrate_" + hex.EncodeToString(random[:])

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("connect to DATABASE_URL's server: %v", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, server)
		if err != nil {
			t.Errorf("drop database %s: %v", name, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})

	if u, err := url.Parse(server); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		u.Path, u.RawPath = "/"+name, ""
		q := u.Query()
		q.Del("dbname")
		u.RawQuery = q.Encode()
		return u.String()
	}
	return server + " dbname=" + name // a key=value string: the last dbname wins
}

// TestMigrate runs migrate status, up, status, down and up through run on an
// empty database.
func TestMigrate(t *testing.T) {
	t.Parallel()
	dbURL := emptyDatabase(t)
	files, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("migrations: %v, %d files", err, len(files))
	}
	latest := files[len(files)-1]

	migrate := func(action string) string {
		t.Helper()
		a, stdout, stderr := testApp(t, map[string]string{"DATABASE_URL": dbURL})
		if err := a.run(context.Background(), []string{"migrate", action}); err != nil {
			t.Fatalf("migrate %s = %v; stderr:\n%s", action, err, stderr)
		}
		return stdout.String()
	}
	statusRows := func(out string) map[string]string { // file → state
		t.Helper()
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if !regexp.MustCompile(`^VERSION\s+STATE\s+APPLIED AT\s+FILE$`).MatchString(lines[0]) {
			t.Fatalf("migrate status header = %q", lines[0])
		}
		rows := map[string]string{}
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if len(f) != 4 {
				t.Fatalf("migrate status row %q: want 4 columns", l)
			}
			if f[1] == "applied" {
				if _, err := time.Parse(time.RFC3339, f[2]); err != nil {
					t.Errorf("migrate status row %q: applied at is not a time", l)
				}
			} else if f[2] != "-" {
				t.Errorf("migrate status row %q: a pending migration has no time", l)
			}
			rows[f[3]] = f[1]
		}
		return rows
	}
	wantAll := func(out, state string) {
		t.Helper()
		rows := statusRows(out)
		if len(rows) != len(files) {
			t.Errorf("migrate status lists %d migrations, want %d:\n%s", len(rows), len(files), out)
		}
		for _, f := range files {
			if rows[f] != state {
				t.Errorf("migrate status: %s is %q, want %q:\n%s", f, rows[f], state, out)
			}
		}
	}

	wantAll(migrate("status"), "pending")

	out := migrate("up")
	for _, f := range files {
		if !strings.Contains(out, "applied "+f) {
			t.Errorf("migrate up printed %q, want it to name %s", out, f)
		}
	}
	wantAll(migrate("status"), "applied")
	if out := migrate("up"); !strings.Contains(out, "up to date") {
		t.Errorf("migrate up again printed %q, want \"up to date\"", out)
	}

	if out := migrate("down"); !strings.Contains(out, "rolled back "+latest) {
		t.Errorf("migrate down printed %q, want \"rolled back %s\"", out, latest)
	}
	if rows := statusRows(migrate("status")); rows[latest] != "pending" {
		t.Errorf("after migrate down, %s is %q, want pending", latest, rows[latest])
	}
	if len(files) == 1 {
		if out := migrate("down"); !strings.Contains(out, "no applied migration") {
			t.Errorf("migrate down on an empty schema printed %q", out)
		}
	}
	migrate("up")
	wantAll(migrate("status"), "applied")
}

func TestMigrateDatabaseDown(t *testing.T) {
	t.Parallel()
	a, _, _ := testApp(t, map[string]string{"DATABASE_URL": "postgres://postgres:pw@127.0.0.1:1/x?sslmode=disable&connect_timeout=2"})
	if err := a.run(context.Background(), []string{"migrate", "status"}); err == nil {
		t.Fatal("migrate status with the database down = nil, want an error")
	} else if !strings.Contains(err.Error(), "connect") {
		t.Errorf("migrate status with the database down = %v, want a connection error", err)
	} else if strings.Contains(err.Error(), ":pw@") {
		t.Errorf("migrate status error shows the password: %v", err)
	}
}
