package repo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestBatchStoresAroundAGroupInFlight holds one batch's group in its
// transaction (an operator's lock on one of its sentences) while a second
// batch arrives with a repost of that group's article and two unrelated
// articles: the unrelated two are stored while the first group still
// waits, the repost only after it, and judged its near duplicate.
func TestBatchStoresAroundAGroupInFlight(t *testing.T) {
	st := newStore(t, 8)
	svc := newService(t, st)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pairs := nearPairs(t, 3)
	original, repost := pairs[0][0], pairs[0][1]
	others := []corpus.Article{pairs[1][0], pairs[2][0]}
	for _, o := range others {
		if shareLocks(t, original, o) {
			t.Fatal("an unrelated article shares a family-A block or a sentence with the original: the fixture does not test the set-aside")
		}
	}

	// An operator holds the lock of the original's first sentence.
	conn, err := st.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	key := int64(service.SentenceLockKey(mustFingerprint(t, original).Sentences[0].TextHash))
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		t.Fatal(err)
	}
	unlocked := false
	unlock := func() {
		if !unlocked {
			unlocked = true
			if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, key); err != nil {
				t.Error(err)
			}
		}
	}
	defer unlock()

	type outcome struct {
		results []service.BatchResult
		err     error
	}
	first, second := make(chan outcome, 1), make(chan outcome, 1)
	go func() {
		r, err := svc.IngestBatch(ctx, batchOf(svc, []string{"original"}, []corpus.Article{original}))
		first <- outcome{r, err}
	}()
	waitForAdvisoryWaiter(t, st.Pool()) // the first group is in its transaction, waiting
	go func() {
		r, err := svc.IngestBatch(ctx, batchOf(svc, []string{"repost", "other-0", "other-1"}, append([]corpus.Article{repost}, others...)))
		second <- outcome{r, err}
	}()

	// The unrelated two are stored while the first group waits.
	for _, k := range []string{"other-0", "other-1"} {
		for {
			_, err := st.ArticleByKey(ctx, "test", k)
			if err == nil {
				break
			}
			if !errors.Is(err, service.ErrNotFound) {
				t.Fatal(err)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s not stored while another batch's group waits: its batch waited too", k)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	if _, err := st.ArticleByKey(ctx, "test", "repost"); !errors.Is(err, service.ErrNotFound) {
		t.Fatalf("the repost was stored before its original's group: %v", err)
	}

	unlock()
	a, b := <-first, <-second
	if err := errors.Join(a.err, b.err); err != nil {
		t.Fatal(err)
	}
	orig, rep := a.results[0].Verdict, b.results[0].Verdict
	if a.results[0].Err != nil || b.results[0].Err != nil {
		t.Fatal(a.results[0].Err, b.results[0].Err)
	}
	if rep.Status != service.StatusNearDuplicate || rep.DuplicateOf == nil || rep.DuplicateOf.ID != orig.ID || rep.ClusterID != orig.ClusterID {
		t.Errorf("the repost: %s of %v in cluster %d; want a near duplicate of the original %d in its cluster %d",
			rep.Status, rep.DuplicateOf, rep.ClusterID, orig.ID, orig.ClusterID)
	}
	for i, r := range b.results[1:] {
		if r.Err != nil || r.Verdict.Status != service.StatusUnique {
			t.Errorf("other-%d: %s, %v; want unique", i, r.Verdict.Status, r.Err)
		}
	}
	checkLinks(t, st)
}

// shareLocks reports whether two articles would take a common content lock:
// a family-A block, or a sentence.
func shareLocks(t *testing.T, a, b corpus.Article) bool {
	fa, fb := mustFingerprint(t, a), mustFingerprint(t, b)
	ba, bb := fingerprint.BlocksOf(fa.Simhash), fingerprint.BlocksOf(fb.Simhash)
	for j := range ba.A {
		if ba.A[j] == bb.A[j] {
			return true
		}
	}
	sentences := map[uint64]bool{}
	for _, s := range fa.Sentences {
		sentences[s.TextHash] = true
	}
	for _, s := range fb.Sentences {
		if sentences[s.TextHash] {
			return true
		}
	}
	return false
}
