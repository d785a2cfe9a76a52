package repo_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// holdClusterLock takes cluster id's advisory lock on a connection of its
// own, as an operator could from psql, and returns the function that lets
// it go.
func holdClusterLock(t *testing.T, st *repo.Store, id int64) (release func()) {
	t.Helper()
	ctx := context.Background()
	tx, err := st.Pool().BeginTx(ctx, pgx.TxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k := service.ClusterLockKey(id)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(k)); err != nil {
		t.Fatal(err)
	}
	return func() { _ = tx.Rollback(ctx) }
}

// waitForWaiters waits until n transactions wait for cluster id's lock.
func waitForWaiters(t *testing.T, st *repo.Store, id int64, n int) {
	t.Helper()
	k := service.ClusterLockKey(id)
	deadline := time.Now().Add(20 * time.Second)
	for {
		var waiting int
		err := st.Pool().QueryRow(context.Background(), `
			SELECT count(*) FROM pg_locks
			WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
			  AND (classid::int8 << 32 | objid::int8) = $1`, int64(k)).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d transactions wait for cluster %d's lock after 20 s, want %d", waiting, id, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestMatchChangedWhileWaiting is the race a hostile tester found: article
// X is judged a copy of E and waits for E's cluster, while E's key is
// re-ingested with unrelated text. X must be judged against what E holds
// when X commits: it links to the copy of its text that remains, never to
// E's new text.
func TestMatchChangedWhileWaiting(t *testing.T) {
	st := newStore(t, 8)
	svc := newService(t, st)
	ctx := context.Background()
	ps := nearPairs(t, 2)
	textA, textU := ps[0][0], ps[1][0]
	ingest := func(key string, in service.ArticleInput) service.Verdict {
		t.Helper()
		v, err := svc.Ingest(ctx, in, svc.Defaults())
		if err != nil {
			t.Fatalf("ingest %s: %v", key, err)
		}
		return v
	}
	e := ingest("E", input("E", textA))
	copyOfA := ingest("copy", input("copy", textA))
	if copyOfA.Status != service.StatusExactDuplicate {
		t.Fatalf("copy: %s, want exact_duplicate", copyOfA.Status)
	}

	release := holdClusterLock(t, st, e.ID)
	reingested := make(chan error, 1)
	go func() {
		_, err := svc.Ingest(ctx, input("E", textU), svc.Defaults())
		reingested <- err
	}()
	waitForWaiters(t, st, e.ID, 1)
	type result struct {
		v   service.Verdict
		err error
	}
	xDone := make(chan result, 1)
	go func() {
		v, err := svc.Ingest(ctx, input("X", textA), svc.Defaults())
		xDone <- result{v, err}
	}()
	waitForWaiters(t, st, e.ID, 2)
	release()

	if err := <-reingested; err != nil {
		t.Fatalf("re-ingest E: %v", err)
	}
	x := <-xDone
	if x.err != nil {
		t.Fatalf("ingest X: %v", x.err)
	}
	if x.v.Status != service.StatusExactDuplicate || x.v.DuplicateOf == nil ||
		x.v.DuplicateOf.ID != copyOfA.ID || x.v.DuplicateOf.Distance != 0 {
		t.Errorf("X = %s, duplicate_of %+v; want an exact duplicate of the remaining copy %d at distance 0",
			x.v.Status, x.v.DuplicateOf, copyOfA.ID)
	}
	fa := mustFingerprint(t, textA)
	if got := mustFind(t, svc, x.v.ID); got.DuplicateOf == e.ID {
		t.Errorf("X links to E, which now holds other text (%d bits from X)",
			fingerprint.Distance(fa.Simhash, mustFind(t, svc, e.ID).Simhash))
	}
	checkLinks(t, st)
}
