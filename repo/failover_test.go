package repo_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// What a failover asks of the store, each shown on plain PostgreSQL
// servers; cmd/dedupd's TestFailover runs the whole of it on a
// pg_auto_failover formation.

// TestCommitWaitsForTheSynchronousStandby gives the server a synchronous
// standby that never answers, as a primary whose standby was just lost has
// until the monitor releases it. A commit then waits: the service's
// sessions keep the server's synchronous_commit (a session that lowered it
// would be acknowledged at once), and PostgreSQL ends the statement timeout
// before a commit's wait. The request's deadline ends the wait, and the
// write is reported unavailable, never acknowledged; once the standby is
// released a retry finds the one article the first attempt stored.
func TestCommitWaitsForTheSynchronousStandby(t *testing.T) {
	t.Parallel()
	c := dbtest.PrivateCluster(t)
	dbURL := c.URL(dbtest.PrivateDatabase)
	setSystem(t, dbURL, "synchronous_standby_names", "'nobody'")

	st, err := repo.Open(context.Background(), dbURL, repo.Options{MaxConns: 2, StatementTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := newService(t, st)
	in := input("sync-1", nearPairs(t, 1)[0][0])

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	_, err = svc.Ingest(ctx, in, svc.Defaults())
	cancel()
	if !errors.Is(err, service.ErrUnavailable) {
		t.Fatalf("Ingest while the synchronous standby does not answer = %v, want ErrUnavailable", err)
	}

	setSystem(t, dbURL, "synchronous_standby_names", "''")
	v, err := svc.Ingest(context.Background(), in, svc.Defaults())
	if err != nil {
		t.Fatalf("Ingest again once the standby is released: %v", err)
	}
	if v.Created {
		t.Errorf("the retry stored the article anew (Created); the first attempt had committed locally and should be found")
	}
	if n := countKey(t, dbURL, "sync-1"); n != 1 {
		t.Errorf("%d rows under the key, want 1", n)
	}
}

// TestWritesLeaveAServerThatStopsAcceptingThem connects through a URL of two
// servers with target_session_attrs=read-write, as the service does to a
// formation. The first accepts writes, then stops (default_transaction_read_only,
// as pg_auto_failover sets it on a node that must not take writes): the
// write that meets the refusal is reported unavailable and its connection
// dropped, so that the next write connects anew and reaches the other
// server; the readiness check says unavailable while a pooled connection
// leads to the read-only one.
func TestWritesLeaveAServerThatStopsAcceptingThem(t *testing.T) {
	t.Parallel()
	a, b := dbtest.PrivateCluster(t), dbtest.PrivateCluster(t)
	url := fmt.Sprintf("postgres://postgres@127.0.0.1:%d,127.0.0.1:%d/%s?sslmode=disable&target_session_attrs=read-write",
		a.Port(), b.Port(), dbtest.PrivateDatabase)
	st, err := repo.Open(context.Background(), url, repo.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := newService(t, st)
	ctx := context.Background()
	pairs := nearPairs(t, 3)

	if _, err := svc.Ingest(ctx, input("first", pairs[0][0]), svc.Defaults()); err != nil {
		t.Fatal(err)
	}
	if n := countKey(t, a.URL(dbtest.PrivateDatabase), "first"); n != 1 {
		t.Fatalf("the first write went elsewhere than the first server (%d rows there)", n)
	}

	setSystem(t, a.URL(dbtest.PrivateDatabase), "default_transaction_read_only", "on")
	if err := st.Ping(ctx); !errors.Is(err, service.ErrUnavailable) {
		t.Errorf("Ping with the pool's connection on a read-only server = %v, want ErrUnavailable", err)
	}
	if err := st.Ping(ctx); err != nil {
		t.Errorf("Ping once that connection was dropped = %v, want nil (the other server accepts writes)", err)
	}
	if _, err := svc.Ingest(ctx, input("second", pairs[1][0]), svc.Defaults()); err != nil {
		t.Fatal(err)
	}

	setSystem(t, b.URL(dbtest.PrivateDatabase), "default_transaction_read_only", "on")
	_, err = svc.Ingest(ctx, input("third", pairs[2][0]), svc.Defaults())
	if !errors.Is(err, service.ErrUnavailable) {
		t.Fatalf("Ingest on a pooled connection to a server turned read-only = %v, want ErrUnavailable", err)
	}
	setSystem(t, a.URL(dbtest.PrivateDatabase), "default_transaction_read_only", "off")
	if _, err := svc.Ingest(ctx, input("third", pairs[2][0]), svc.Defaults()); err != nil {
		t.Fatalf("Ingest after the refusal, with the first server writable again = %v, want it stored there "+
			"(the refused connection dropped, a new one made)", err)
	}
	for _, k := range []string{"second", "third"} {
		if n := countKey(t, a.URL(dbtest.PrivateDatabase), k) + countKey(t, b.URL(dbtest.PrivateDatabase), k); n != 1 {
			t.Errorf("%s is stored %d times on the two servers, want once", k, n)
		}
	}
	if n := countKey(t, a.URL(dbtest.PrivateDatabase), "third"); n != 1 {
		t.Errorf("third is not on the first server, the only one writable when it was stored")
	}
}

// setSystem sets a server setting with ALTER SYSTEM and reloads, then waits
// until a new session sees it: the postmaster has then read it and signalled
// the sessions, which take it before their next statement.
func setSystem(t *testing.T, dbURL, name, value string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	query := func(sql string) string {
		t.Helper()
		conn, err := pgx.Connect(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		var out string
		if err := conn.QueryRow(ctx, sql).Scan(&out); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return out
	}
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, fmt.Sprintf("ALTER SYSTEM SET %s = %s", name, value))
	if err == nil {
		_, err = conn.Exec(ctx, "SELECT pg_reload_conf()")
	}
	conn.Close(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Trim(value, "'")
	for query("SELECT current_setting('"+name+"')") != want {
		if ctx.Err() != nil {
			t.Fatalf("%s did not become %s after a reload", name, value)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func countKey(t *testing.T, dbURL, key string) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM articles WHERE external_id = $1", key).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOpenRefusesALowerSynchronousCommit: a database URL that lowers
// synchronous_commit would have the service acknowledge writes the standby
// may not have.
func TestOpenRefusesALowerSynchronousCommit(t *testing.T) {
	for _, v := range []string{"off", "local", "remote_write"} {
		st, err := repo.Open(context.Background(), "postgres://u@127.0.0.1:1/db?synchronous_commit="+v, repo.Options{})
		if err == nil {
			st.Close()
			t.Errorf("Open with synchronous_commit=%s: no error, want a refusal", v)
		}
	}
	for _, v := range []string{"on", "remote_apply"} {
		st, err := repo.Open(context.Background(), "postgres://u@127.0.0.1:1/db?synchronous_commit="+v, repo.Options{})
		if err != nil {
			t.Errorf("Open with synchronous_commit=%s = %v, want no error", v, err)
			continue
		}
		st.Close()
	}
}
