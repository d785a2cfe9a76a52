package repo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestMigrationsDownAndUp rolls every migration back to an empty schema and
// applies them all again.
func TestMigrationsDownAndUp(t *testing.T) {
	ctx := context.Background()
	m, url := newMigrator(t)
	st := openStore(t, url, 2)
	tables := func() int64 {
		t.Helper()
		var n int64
		err := st.Pool().QueryRow(ctx, `
			SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm') AND c.relname <> 'goose_db_version'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	all := tables()
	if all == 0 {
		t.Fatal("a migrated database holds no tables")
	}
	if _, err := m.DownTo(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if n := tables(); n != 0 {
		t.Errorf("after migrating down to 0, %d tables and views remain", n)
	}
	res, err := m.Up(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 {
		t.Error("migrating up again applied nothing")
	}
	if n := tables(); n != all {
		t.Errorf("after migrating up again, %d tables and views, want %d", n, all)
	}
	st2, err := m.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st2 {
		if s.State != "applied" {
			t.Errorf("migration %d is %s after up", s.Source.Version, s.State)
		}
	}
}

func TestDatabaseURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ server, want string }{
		{"postgres://postgres@127.0.0.1:54329/newsdedup?sslmode=disable", "postgres://postgres@127.0.0.1:54329/x?sslmode=disable"},
		{"postgresql://u:p@h/db?dbname=other", "postgresql://u:p@h/x"},
		{"host=h user=u", "host=h user=u dbname='x'"},
		{"host=h dbname=other", "host=h dbname=other dbname='x'"},
	}
	for _, tt := range tests {
		if got, err := dbtest.DatabaseURL(tt.server, "x"); err != nil || got != tt.want {
			t.Errorf("DatabaseURL(%q, x) = %q, %v; want %q", tt.server, got, err, tt.want)
		}
	}
	if _, err := dbtest.DatabaseURL("postgres://u:secret@h:bad port/db", "x"); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("DatabaseURL of a bad URL: %v; want an error that does not echo the password", err)
	}
}
