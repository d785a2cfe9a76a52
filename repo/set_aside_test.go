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
// transaction (an operator's locks on its sentences) while a second
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

	// An operator holds the locks of the original's sentences.
	unlock := holdSentenceLocks(t, st, original.Body)

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

// TestSingleIngestsStoreAroundAGroupInFlight: the same with single ingests.
// Both of the combiner's storing goroutines are held (an operator's locks
// on the sentences of an original and of an unrelated article, each sent
// alone), so that a repost of the original and two unrelated articles
// queue; once the unrelated article's locks are let go, the next group
// holds the three: the two unrelated are answered while the original still
// waits, the repost after it, its near duplicate.
func TestSingleIngestsStoreAroundAGroupInFlight(t *testing.T) {
	st := newStore(t, 8)
	svc := newService(t, st)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pairs := nearPairs(t, 8)
	original, repost := pairs[0][0], pairs[0][1]
	var unrelated []corpus.Article // three that share no lock with the original
	for _, p := range pairs[1:] {
		if !shareLocks(t, original, p[0]) && len(unrelated) < 3 {
			unrelated = append(unrelated, p[0])
		}
	}
	if len(unrelated) < 3 {
		t.Fatal("fewer than three articles share no lock with the original")
	}
	blocker, others := unrelated[0], unrelated[1:]

	type outcome struct {
		v   service.Verdict
		err error
	}
	ingest := func(key string, a corpus.Article) chan outcome {
		out := make(chan outcome, 1)
		go func() {
			v, err := svc.Ingest(ctx, input(key, a), svc.Defaults())
			out <- outcome{v, err}
		}()
		return out
	}
	unlockOriginal := holdSentenceLocks(t, st, original.Body)
	unlockBlocker := holdSentenceLocks(t, st, blocker.Body)
	first := ingest("original", original)
	waitForAdvisoryWaiters(t, st.Pool(), 1)
	held := ingest("blocker", blocker)
	waitForAdvisoryWaiters(t, st.Pool(), 2) // both storing goroutines wait
	reposted := ingest("repost", repost)
	answers := []chan outcome{ingest("other-0", others[0]), ingest("other-1", others[1])}
	// Fingerprinting three articles takes milliseconds: then they queue.
	time.Sleep(time.Second)
	unlockBlocker()
	if r := <-held; r.err != nil {
		t.Fatal(r.err)
	}

	for i, c := range answers {
		select {
		case r := <-c:
			if r.err != nil || r.v.Status != service.StatusUnique {
				t.Errorf("other-%d: %s, %v; want unique", i, r.v.Status, r.err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("other-%d not answered while the original's group waits: its group waited too", i)
		}
	}
	select {
	case r := <-reposted:
		t.Fatalf("the repost was answered before its original was stored: %+v, %v", r.v, r.err)
	default:
	}

	unlockOriginal()
	o, r := <-first, <-reposted
	if err := errors.Join(o.err, r.err); err != nil {
		t.Fatal(err)
	}
	if r.v.Status != service.StatusNearDuplicate || r.v.DuplicateOf == nil || r.v.DuplicateOf.ID != o.v.ID || r.v.ClusterID != o.v.ClusterID {
		t.Errorf("the repost: %s of %v in cluster %d; want a near duplicate of the original %d in its cluster %d",
			r.v.Status, r.v.DuplicateOf, r.v.ClusterID, o.v.ID, o.v.ClusterID)
	}
	checkLinks(t, st)
}
