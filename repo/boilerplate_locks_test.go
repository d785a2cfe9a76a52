package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// holdSentenceLocks takes, on a connection of its own, the advisory locks
// writers take for the indexed sentences of body, and returns what
// releases them.
func holdSentenceLocks(t *testing.T, st *repo.Store, body string) func() {
	t.Helper()
	ctx := context.Background()
	fp, err := algorithm(t).Fingerprint(ctx, fingerprint.Document{Body: body})
	if err != nil {
		t.Fatal(err)
	}
	if len(fp.Sentences) == 0 {
		t.Fatalf("%q has no indexed sentence", body)
	}
	conn, err := st.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var keys []int64
	for _, s := range fp.Sentences {
		keys = append(keys, int64(service.SentenceLockKey(s.TextHash)))
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(k) FROM unnest($1::int8[]) AS k`, keys); err != nil {
		t.Fatal(err)
	}
	released := false
	release := func() {
		if released {
			return
		}
		released = true
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock_all()`); err != nil {
			t.Error(err)
		}
		conn.Release()
	}
	t.Cleanup(release)
	return release
}

// waitForAdvisoryWaiter waits until a backend of pool waits for an
// advisory lock, and fails the test if none does within a minute.
func waitForAdvisoryWaiter(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	waitForAdvisoryWaiters(t, pool, 1)
}

// waitForAdvisoryWaiters waits until n backends of pool's database wait for
// an advisory lock, and fails the test if they do not within a minute.
func waitForAdvisoryWaiters(t *testing.T, pool *pgxpool.Pool, n int) {
	t.Helper()
	for range 600 {
		var waiting int
		if err := pool.QueryRow(context.Background(), `
			SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting >= n {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("fewer than %d writers wait for the held locks", n)
}

// TestBoilerplateTakesNoLock: once the service has found the slogan to be
// boilerplate, a writer of a page holding it does not wait for its lock,
// one by one or in a batch, while a writer of a sentence that is not
// boilerplate does; and once articles holding the slogan are deleted, so
// that it is boilerplate no more, the writer finds that out and takes its
// lock again.
func TestBoilerplateTakesNoLock(t *testing.T) {
	st := newStore(t, 8)
	svc := newService(t, st)
	ctx := context.Background()
	pages := sloganPages(30)
	ids := make([]int64, 0, len(pages))
	for i, p := range pages[:20] {
		v, err := svc.Ingest(ctx, input(fmt.Sprintf("slogan-%d", i), p), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
	}

	// Held elsewhere, the slogan's locks hold back no writer: the 20th page
	// taught the service that the slogan is boilerplate.
	release := holdSentenceLocks(t, st, slogan)
	deadline, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	v, err := svc.Ingest(deadline, input("slogan-20", pages[20]), svc.Defaults())
	if err != nil {
		t.Fatalf("a page holding known boilerplate waited for its lock: %v", err)
	}
	if v.Status != service.StatusUnique {
		t.Errorf("page 21: %s, want unique (the slogan is boilerplate)", v.Status)
	}
	ids = append(ids, v.ID)
	results, err := svc.IngestBatch(deadline, batchOf(svc, []string{"slogan-21", "slogan-22"}, pages[21:23]))
	if err != nil {
		t.Fatalf("a batch of pages holding known boilerplate waited for its lock: %v", err)
	}
	for i, r := range results {
		if r.Err != nil || r.Verdict.Status != service.StatusUnique {
			t.Errorf("batch page %d: %s, %v; want unique", i+1, r.Verdict.Status, r.Err)
		}
	}
	release()

	// A sentence that is not boilerplate keeps its lock: the same held
	// lock holds its writer back until it is released.
	story := novel(t).Originals(rand.New(rand.NewPCG(7, 7)), 1, 300, 600)[0]
	release = holdSentenceLocks(t, st, story.Body)
	done := make(chan error, 1)
	go func() {
		_, err := svc.Ingest(ctx, input("story", story), svc.Defaults())
		done <- err
	}()
	waitForAdvisoryWaiter(t, st.Pool())
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// Delete pages until fewer than 20 hold the slogan: it is boilerplate
	// no more. The next writer confirms what it left unlocked, finds out,
	// and runs again with the lock, so it waits for it.
	for _, id := range ids[:8] {
		if err := svc.DeleteArticle(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	release = holdSentenceLocks(t, st, slogan)
	type result struct {
		v   service.Verdict
		err error
	}
	out := make(chan result, 1)
	go func() {
		v, err := svc.Ingest(ctx, input("slogan-23", pages[23]), svc.Defaults())
		out <- result{v, err}
	}()
	waitForAdvisoryWaiter(t, st.Pool())
	release()
	r := <-out
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.v.Status != service.StatusNearDuplicate {
		t.Errorf("a page after the deletions, the slogan held by %d pages: %s, want near_duplicate", len(ids)+2-8, r.v.Status)
	}
}
