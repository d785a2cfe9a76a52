package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// statementCounter counts the statements a store runs that match.
type statementCounter struct {
	match func(sql string) bool
	n     atomic.Int64
}

func (c *statementCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	if c.match(data.SQL) {
		c.n.Add(1)
	}
	return ctx
}

func (c *statementCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// isBegin matches the statement that begins a transaction.
func isBegin(sql string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(sql)), "begin")
}

// newCountingStore opens a store on a fresh database, as newStore does, and
// counts the statements it runs that match.
func newCountingStore(tb testing.TB, maxConns int32, match func(sql string) bool) (*repo.Store, *statementCounter) {
	tb.Helper()
	counter := &statementCounter{match: match}
	st, err := repo.Open(context.Background(), dbtest.URL(tb), repo.Options{MaxConns: maxConns, Tracer: counter})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(st.Close)
	return st, counter
}

// TestConcurrentIngestsAreStoredTogether sends 60 unrelated articles at
// once through Ingest: each is stored and answered as on its own, but they
// share transactions — the articles that arrive while others are being
// stored wait and are stored together.
func TestConcurrentIngestsAreStoredTogether(t *testing.T) {
	const articles = 60
	st, begins := newCountingStore(t, 8, isBegin)
	svc := newService(t, st)
	ctx := context.Background()
	originals := novel(t).Originals(rand.New(rand.NewPCG(61, 3)), articles, 800, 1500)

	start := make(chan struct{})
	verdicts := make([]service.Verdict, articles)
	errs := make([]error, articles)
	var wg sync.WaitGroup
	for i, a := range originals {
		wg.Go(func() {
			<-start
			verdicts[i], errs[i] = svc.Ingest(ctx, input(fmt.Sprintf("together-%d", i), a), svc.Defaults())
		})
	}
	close(start)
	wg.Wait()
	for i, v := range verdicts {
		if errs[i] != nil {
			t.Fatalf("article %d: %v", i, errs[i])
		}
		if !v.Created || v.ID == 0 {
			t.Errorf("article %d: %+v, want created", i, v)
		}
	}
	if n := countRows(t, st, `SELECT count(*) FROM articles`); n != articles {
		t.Errorf("%d rows, want %d", n, articles)
	}
	if n := begins.n.Load(); n >= articles/2 {
		t.Errorf("%d transactions for %d simultaneous articles: they were not stored together", n, articles)
	}
	checkLinks(t, st)
}

// TestQueuedIngestGivesUpAtItsDeadline fills both of the combiner's storing
// goroutines with articles that wait for a cluster lock held elsewhere; an
// article queued behind them whose deadline passes gets the deadline's
// error and is never stored, while the two waiting are stored once the lock
// is free.
func TestQueuedIngestGivesUpAtItsDeadline(t *testing.T) {
	st := newStore(t, 8)
	svc := newService(t, st)
	ctx := context.Background()
	ps := nearPairs(t, 3)
	var originals [2]service.Verdict
	for i := range originals {
		v, err := svc.Ingest(ctx, input(fmt.Sprintf("original-%d", i), ps[i][0]), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		originals[i] = v
	}

	// Each repost is judged a copy of its original and waits for the
	// original's cluster lock: one storing goroutine each.
	type result struct {
		v   service.Verdict
		err error
	}
	var reposts [2]chan result
	var releases []func()
	for i := range reposts {
		release := holdClusterLock(t, st, originals[i].ID)
		defer release() // if the test fails before they are let through
		releases = append(releases, release)
		reposts[i] = make(chan result, 1)
		go func() {
			v, err := svc.Ingest(ctx, input(fmt.Sprintf("repost-%d", i), ps[i][1]), svc.Defaults())
			reposts[i] <- result{v, err}
		}()
		waitForWaiters(t, st, originals[i].ID, 1)
	}

	late, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	_, err := svc.Ingest(late, input("late", ps[2][0]), svc.Defaults())
	if service.KindOf(err) != service.KindUnavailable {
		t.Fatalf("late article: error %v, want unavailable (its deadline passed)", err)
	}
	for _, release := range releases { // let the reposts through
		release()
	}
	for i := range reposts {
		r := <-reposts[i]
		if r.err != nil {
			t.Fatalf("repost %d: %v", i, r.err)
		}
		if r.v.Status != service.StatusNearDuplicate || r.v.DuplicateOf == nil || r.v.DuplicateOf.ID != originals[i].ID {
			t.Errorf("repost %d: %s of %+v, want a near duplicate of %d", i, r.v.Status, r.v.DuplicateOf, originals[i].ID)
		}
	}
	if n := countRows(t, st, `SELECT count(*) FROM articles WHERE external_id = 'late'`); n != 0 {
		t.Errorf("the article whose deadline passed in the queue was stored (%d rows)", n)
	}
	v, err := svc.Ingest(ctx, input("late", ps[2][0]), svc.Defaults())
	if err != nil || !v.Created {
		t.Errorf("sent again: %+v, %v; want stored now", v, err)
	}
	checkLinks(t, st)
}

// TestBatchRepeatingAKey sends one key twice in a batch: the second answers
// with the first's stored verdict, as a retry does.
func TestBatchRepeatingAKey(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	os := novel(t).Originals(rand.New(rand.NewPCG(62, 4)), 2, 800, 1500)
	keys := []string{"x", "y", "x"}
	results, err := svc.IngestBatch(ctx, batchOf(svc, keys, []corpus.Article{os[0], os[1], os[0]}))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		if r.Err != nil {
			t.Fatalf("%s: %v", keys[i], r.Err)
		}
	}
	first, again := results[0].Verdict, results[2].Verdict
	if !first.Created || again.Created || again.ID != first.ID || again.Status != service.StatusUnique {
		t.Errorf("x = %+v, then %+v; want created, then the same article not created", first, again)
	}
	if n := countRows(t, st, `SELECT count(*) FROM articles`); n != 2 {
		t.Errorf("%d rows, want 2", n)
	}
}
