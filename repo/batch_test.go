package repo_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
)

func batchOf(svc *service.Service, keys []string, articles []corpus.Article) []service.BatchItem {
	items := make([]service.BatchItem, len(articles))
	for i, a := range articles {
		items[i] = service.BatchItem{Article: input(keys[i], a), Options: svc.Defaults()}
	}
	return items
}

// TestBatchJudgesWithinItself sends a batch whose articles duplicate each
// other and stored ones: each is judged as if the batch had been ingested
// one article after the other.
func TestBatchJudgesWithinItself(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(21, 1))
	os := nv.Originals(rng, 3, 1500, 2500)
	a, b, c := os[0], os[1], os[2]
	stored, err := svc.Ingest(ctx, input("stored-c", c), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	articles := []corpus.Article{
		a,                              // 0 unique
		a,                              // 1 an exact copy of 0
		nv.Apply(rng, a, corpus.Light), // 2 near 0
		{Title: "摘要", Body: firstShare(a.Body, 0.6)}, // 3 partial of 0
		b,                              // 4 unique
		nv.Apply(rng, c, corpus.Light), // 5 near the stored c
		{Title: "转载", Body: chromeSwapped(b.Body)}, // 6 partial of 4
	}
	keys := []string{"a", "a-copy", "a-light", "a-excerpt", "b", "c-light", "b-chrome"}
	results, err := svc.IngestBatch(ctx, batchOf(svc, keys, articles))
	if err != nil {
		t.Fatal(err)
	}
	v := make([]service.Verdict, len(results))
	for i, r := range results {
		if r.Err != nil {
			t.Fatalf("%s: %v", keys[i], r.Err)
		}
		v[i] = r.Verdict
	}
	links := func(i int, status service.Status, to int64) {
		t.Helper()
		if v[i].Status != status || v[i].DuplicateOf == nil || v[i].DuplicateOf.ID != to {
			t.Errorf("%s = %s of %+v, want %s of %d", keys[i], v[i].Status, v[i].DuplicateOf, status, to)
		}
	}
	if v[0].Status != service.StatusUnique || v[4].Status != service.StatusUnique {
		t.Errorf("a and b = %s and %s, want unique", v[0].Status, v[4].Status)
	}
	links(1, service.StatusExactDuplicate, v[0].ID)
	if v[2].Status != service.StatusNearDuplicate || v[2].ClusterID != v[0].ID {
		t.Errorf("a-light = %s in cluster %d, want a near duplicate in a's cluster %d", v[2].Status, v[2].ClusterID, v[0].ID)
	}
	links(3, service.StatusPartialDuplicate, v[0].ID)
	links(5, service.StatusNearDuplicate, stored.ID)
	if v[6].Status == service.StatusNearDuplicate { // another site's dress may leave the fingerprint as it is
		links(6, service.StatusNearDuplicate, v[4].ID)
	} else {
		links(6, service.StatusPartialDuplicate, v[4].ID)
	}
	if v[5].ClusterID != stored.ID {
		t.Errorf("c-light is in cluster %d, want the stored c's %d", v[5].ClusterID, stored.ID)
	}
	for i := range v {
		if !v[i].Created {
			t.Errorf("%s: not created", keys[i])
		}
	}

	// The same batch again: every verdict is the stored one, nothing new.
	again, err := svc.IngestBatch(ctx, batchOf(svc, keys, articles))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range again {
		if r.Err != nil || r.Verdict.Created || r.Verdict.ID != v[i].ID || r.Verdict.Status != v[i].Status {
			t.Errorf("%s again = %+v, %v; want its stored verdict, not created", keys[i], r.Verdict, r.Err)
		}
	}
	if n := countRows(t, st, `SELECT count(*) FROM articles`); n != int64(len(articles)+1) {
		t.Errorf("%d rows, want %d", n, len(articles)+1)
	}
	checkLinks(t, st)
}

// TestSimultaneousBatchesFindEachOther sends two batches at the same
// instant, the originals in one and their reposts and excerpts in the
// other, many times over: every copy must end linked to its original,
// whichever batch was stored first.
func TestSimultaneousBatchesFindEachOther(t *testing.T) {
	const rounds, pairs = 10, 8
	st := newStore(t, 8)
	svc := newService(t, st)
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(22, 1))
	os := nv.Originals(rng, rounds*pairs, 1200, 2000)
	for r := range rounds {
		var originals, copies []corpus.Article
		var okeys, ckeys []string
		for i := range pairs {
			a := os[r*pairs+i]
			originals, okeys = append(originals, a), append(okeys, fmt.Sprintf("o-%d-%d", r, i))
			cp := nv.Apply(rng, a, corpus.Light)
			if i%2 == 1 {
				cp = corpus.Article{Title: "摘编", Body: firstShare(a.Body, 0.6)}
			}
			copies, ckeys = append(copies, cp), append(ckeys, fmt.Sprintf("c-%d-%d", r, i))
		}
		var wg sync.WaitGroup
		var ov, cv []service.BatchResult
		var oerr, cerr error
		start := make(chan struct{})
		wg.Go(func() { <-start; ov, oerr = svc.IngestBatch(ctx, batchOf(svc, okeys, originals)) })
		wg.Go(func() { <-start; cv, cerr = svc.IngestBatch(ctx, batchOf(svc, ckeys, copies)) })
		close(start)
		wg.Wait()
		if err := errors.Join(oerr, cerr); err != nil {
			t.Fatal(err)
		}
		for i := range pairs {
			o, c := ov[i].Verdict, cv[i].Verdict
			if o.ClusterID != c.ClusterID || (o.DuplicateOf == nil && c.DuplicateOf == nil) {
				t.Errorf("round %d pair %d: %s (cluster %d) and %s (cluster %d), not linked",
					r, i, o.Status, o.ClusterID, c.Status, c.ClusterID)
			}
		}
	}
	checkLinks(t, st)
}
