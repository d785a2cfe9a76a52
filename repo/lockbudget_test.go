package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/newsdedup/newsdedup/service"
)

// TestLockTableSize reads the server's lock table as its settings give it.
func TestLockTableSize(t *testing.T) {
	st := newStore(t, 2)
	ctx := context.Background()
	got, err := st.LockTableSize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	setting := func(name string) int {
		return int(countRows(t, st, `SELECT setting::int8 FROM pg_settings WHERE name = '`+name+`'`))
	}
	if want := setting("max_locks_per_transaction") * (setting("max_connections") + setting("max_prepared_transactions")); got != want {
		t.Errorf("lock table of %d locks, want %d", got, want)
	}
}

// TestGroupsGrowOnceTheLockTableIsKnown stores batches of articles with
// many sentences (each takes a lock per sentence): the first batch, before
// the service has asked the server for its lock table, in groups of the
// default budget; the batches after it, sent four at once, in larger
// groups — fewer transactions for as many articles — and every article
// stored.
func TestGroupsGrowOnceTheLockTableIsKnown(t *testing.T) {
	const perBatch = 20
	st, begins := newCountingStore(t, 8, isBegin)
	svc := newService(t, st)
	ctx := context.Background()
	originals := novel(t).Originals(rand.New(rand.NewPCG(71, 5)), 5*perBatch, 800, 1500)
	batch := func(b int) []service.BatchItem {
		keys := make([]string, perBatch)
		for i := range keys {
			keys[i] = fmt.Sprintf("lb-%d-%d", b, i)
		}
		return batchOf(svc, keys, originals[b*perBatch:(b+1)*perBatch])
	}
	store := func(items []service.BatchItem) {
		results, err := svc.IngestBatch(ctx, items)
		if err != nil {
			t.Error(err)
			return
		}
		for i, r := range results {
			if r.Err != nil || !r.Verdict.Created {
				t.Errorf("item %d: %+v, %v: want created", i, r.Verdict, r.Err)
			}
		}
	}

	store(batch(0))
	first := begins.n.Load()
	var wg sync.WaitGroup
	for b := 1; b <= 4; b++ {
		wg.Go(func() { store(batch(b)) })
	}
	wg.Wait()
	after := (begins.n.Load() - first) / 4 // transactions a batch, on average
	t.Logf("transactions a batch of %d: %d before the lock table is known, %d after", perBatch, first, after)
	if after >= first {
		t.Errorf("%d transactions a batch once the lock table is known, %d before: groups did not grow", after, first)
	}
	if n := countRows(t, st, `SELECT count(*) FROM articles`); n != 5*perBatch {
		t.Errorf("%d articles stored, want %d", n, 5*perBatch)
	}
	checkLinks(t, st)
}
