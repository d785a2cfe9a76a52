package repo_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func input(externalID string, a corpus.Article) service.ArticleInput {
	return service.ArticleInput{
		Text:       service.Text{Title: a.Title, Body: a.Body},
		ExternalID: externalID,
		Source:     "test",
	}
}

// nearPairs returns n unrelated originals, each with a light repost that the
// default options judge a near duplicate of it (within 3 bits).
func nearPairs(t *testing.T, n int) [][2]corpus.Article {
	t.Helper()
	rng := rand.New(rand.NewPCG(50, 2))
	nv := novel(t)
	var pairs [][2]corpus.Article
	for _, a := range nv.Originals(rng, 3*n, 500, 1500) {
		b := nv.Apply(rng, a, corpus.Light)
		fa, fb := mustFingerprint(t, a), mustFingerprint(t, b)
		aInB, bInA := fingerprint.Coverage(fa.Shingles, fb.Shingles)
		if fingerprint.Distance(fa.Simhash, fb.Simhash) <= 3 && min(aInB, bInA) >= service.HoldShare {
			pairs = append(pairs, [2]corpus.Article{a, b})
		}
		if len(pairs) == n {
			return pairs
		}
	}
	t.Fatalf("only %d usable pairs", len(pairs))
	return nil
}

// TestSimultaneousNearDuplicatesFindEachOther posts 50 pairs of near
// duplicates at once, both articles of a pair at the same instant: every pair
// must end linked, one original and one duplicate pointing at it.
func TestSimultaneousNearDuplicatesFindEachOther(t *testing.T) {
	const pairs = 50
	st := newStore(t, 2*pairs+5) // every request gets its own connection: only the locks serialise
	svc := newService(t, st)
	ctx := context.Background()
	ps := nearPairs(t, pairs)

	start := make(chan struct{})
	verdicts := make([][2]service.Verdict, pairs)
	errs := make(chan error, 2*pairs)
	var wg sync.WaitGroup
	for i, p := range ps {
		for j := range 2 {
			wg.Go(func() {
				<-start
				v, err := svc.Ingest(ctx, input(fmt.Sprintf("pair-%d-%d", i, j), p[j]), svc.Defaults())
				if err != nil {
					errs <- err
				}
				verdicts[i][j] = v
			})
		}
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i, v := range verdicts {
		a, b := v[0], v[1]
		if a.Status == service.StatusNearDuplicate {
			a, b = b, a
		}
		if a.Status != service.StatusUnique || b.Status != service.StatusNearDuplicate ||
			b.DuplicateOf == nil || b.DuplicateOf.ID != a.ID {
			t.Errorf("pair %d: verdicts %s and %s (duplicate_of %+v): want one unique and one near duplicate of it",
				i, v[0].Status, v[1].Status, b.DuplicateOf)
		}
	}
	checkLinks(t, st)
}

// TestConcurrentRetriesMakeOneRow sends one article 40 times at once: one
// row, one request that created it, the same verdict for all.
func TestConcurrentRetriesMakeOneRow(t *testing.T) {
	const retries = 40
	st := newStore(t, retries+5)
	svc := newService(t, st)
	ctx := context.Background()
	a := nearPairs(t, 1)[0][0]

	start := make(chan struct{})
	verdicts := make([]service.Verdict, retries)
	errs := make([]error, retries)
	var wg sync.WaitGroup
	for i := range retries {
		wg.Go(func() {
			<-start
			verdicts[i], errs[i] = svc.Ingest(ctx, input("retry-me", a), svc.Defaults())
		})
	}
	close(start)
	wg.Wait()
	created := 0
	for i, v := range verdicts {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if v.Created {
			created++
		}
		if v.ID != verdicts[0].ID || v.Status != service.StatusUnique {
			t.Errorf("retry %d: id %d status %s, want id %d unique", i, v.ID, v.Status, verdicts[0].ID)
		}
	}
	if created != 1 {
		t.Errorf("%d requests created the article, want exactly 1", created)
	}
	if n := countRows(t, st, `SELECT count(*) FROM articles`); n != 1 {
		t.Errorf("%d rows stored, want 1", n)
	}
}

// TestClusterLifecycle follows one cluster through duplicates, a retry, new
// content under a key, and deletions of its canonical article.
func TestClusterLifecycle(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	p := nearPairs(t, 2)
	orig, repost, other := p[0][0], p[0][1], p[1][0]
	opts := svc.Defaults()

	ingest := func(id string, a corpus.Article) service.Verdict {
		t.Helper()
		v, err := svc.Ingest(ctx, input(id, a), opts)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	first := ingest("first", orig)
	exact := ingest("exact", orig)
	near := ingest("near", repost)
	nearToo := ingest("near-too", repost)
	if first.Status != service.StatusUnique || exact.Status != service.StatusExactDuplicate ||
		near.Status != service.StatusNearDuplicate || nearToo.Status != service.StatusExactDuplicate {
		t.Fatalf("statuses %s %s %s %s, want unique exact_duplicate near_duplicate exact_duplicate",
			first.Status, exact.Status, near.Status, nearToo.Status)
	}
	for _, v := range []service.Verdict{exact, near} {
		if v.DuplicateOf.ID != first.ID || v.ClusterID != first.ID {
			t.Errorf("%s: duplicate_of %d in cluster %d, want %d in its cluster", v.ExternalID, v.DuplicateOf.ID, v.ClusterID, first.ID)
		}
	}
	if nearToo.DuplicateOf.ID != near.ID || nearToo.ClusterID != first.ID {
		t.Errorf("near-too: duplicate_of %d in cluster %d, want its exact copy %d in cluster %d",
			nearToo.DuplicateOf.ID, nearToo.ClusterID, near.ID, first.ID)
	}
	if len(nearToo.Matches) != 3 || nearToo.Matches[0].ID != near.ID || nearToo.Matches[0].Distance != 0 {
		t.Errorf("near-too matches %+v, want 3 with its exact copy %d first", nearToo.Matches, near.ID)
	}

	// A retry returns the stored verdict, Created false.
	again := ingest("near", repost)
	if again.Created || again.ID != near.ID || again.Status != near.Status || again.DuplicateOf.ID != first.ID {
		t.Errorf("retry: %+v, want the stored verdict of %d, not created", again, near.ID)
	}

	// Deleting the head judges the articles that linked to it again: the
	// exact copy, alone before the others, heads the cluster; the repost
	// now links to it and brings its own copy along.
	if err := svc.DeleteArticle(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	heir := mustFind(t, svc, exact.ID)
	if !heir.IsCanonical() || heir.Status != service.StatusUnique || heir.ClusterID != exact.ID {
		t.Errorf("after deleting the head, %d is %+v, want the new head", exact.ID, heir)
	}
	for _, want := range []struct{ id, linksTo int64 }{{near.ID, exact.ID}, {nearToo.ID, near.ID}} {
		a := mustFind(t, svc, want.id)
		if a.DuplicateOf != want.linksTo || a.ClusterID != exact.ID {
			t.Errorf("article %d links to %d in cluster %d; want %d in cluster %d", want.id, a.DuplicateOf, a.ClusterID, want.linksTo, exact.ID)
		}
	}
	if _, err := svc.FindArticle(ctx, first.ID); !errors.Is(err, service.ErrNotFound) {
		t.Errorf("find deleted article: %v, want not found", err)
	}
	checkLinks(t, st)

	// A deleted article is never matched again.
	if err := svc.DeleteArticle(ctx, near.ID); err != nil {
		t.Fatal(err)
	}
	v, err := svc.Check(ctx, input("", repost), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range v.Matches {
		if m.ID == near.ID || m.ID == first.ID {
			t.Errorf("check matched deleted article %d", m.ID)
		}
	}
	if err := svc.DeleteArticle(ctx, near.ID); !errors.Is(err, service.ErrNotFound) {
		t.Errorf("delete twice: %v, want not found", err)
	}

	// New content under the head's key: the article that linked to it is
	// judged again and, with nothing else before it, heads its cluster; the
	// article is judged again, as unique.
	replaced := ingest("exact", other)
	if !replaced.Created || replaced.ID != exact.ID || replaced.Status != service.StatusUnique {
		t.Errorf("replace: %+v, want created again with id %d, unique", replaced, exact.ID)
	}
	if a := mustFind(t, svc, nearToo.ID); !a.IsCanonical() {
		t.Errorf("after the article it linked to changed content, %d is %+v, want a head", nearToo.ID, a)
	}
	checkLinks(t, st)
}

func mustFind(t *testing.T, svc *service.Service, id int64) service.Article {
	t.Helper()
	a, err := svc.FindArticle(context.Background(), id)
	if err != nil {
		t.Fatalf("find %d: %v", id, err)
	}
	return a
}

// TestStressMixKeepsLinksReal is the hostile tester's stress mix, bounded:
// 20 writers each run 60 operations on a small set of keys and texts —
// new near duplicates, re-ingests of a key with other text (related or
// not), deletions of cluster heads — and at the end every link must be a
// real match and every cluster well formed. Writers that keep colliding
// get ErrConflict (503 through the API); the test reports how many.
func TestStressMixKeepsLinksReal(t *testing.T) {
	const writers, operations = 20, 60
	st := newStore(t, writers+4)
	svc := newService(t, st)
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(3, 3))
	var texts []corpus.Article
	for _, a := range nv.Originals(rng, 8, 500, 1500) {
		texts = append(texts, a)
		for _, e := range []corpus.Edit{corpus.Light, corpus.SentenceDropped, corpus.ParagraphMoved, corpus.Boilerplate} {
			texts = append(texts, nv.Apply(rng, a, e))
		}
	}
	var (
		wg                             sync.WaitGroup
		mu                             sync.Mutex
		ingests, deletes, conflicts, n int
		slowest                        time.Duration
	)
	errs := make(chan error, writers*operations)
	for w := range writers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 9))
			for i := range operations {
				var err error
				start := time.Now()
				switch op := r.IntN(10); {
				case op < 3: // delete a cluster's head
					var id int64
					err = st.Pool().QueryRow(ctx, `SELECT id FROM articles WHERE duplicate_of IS NULL ORDER BY random() LIMIT 1`).Scan(&id)
					if err == nil {
						err = svc.DeleteArticle(ctx, id)
						mu.Lock()
						deletes++
						mu.Unlock()
					} else if errors.Is(err, pgx.ErrNoRows) {
						err = nil
					}
				default: // ingest, under a key that may already hold other text
					key := fmt.Sprintf("key-%d", r.IntN(30))
					if op >= 7 {
						key = fmt.Sprintf("new-%d-%d", w, i)
					}
					_, err = svc.Ingest(ctx, input(key, texts[r.IntN(len(texts))]), svc.Defaults())
					mu.Lock()
					ingests++
					mu.Unlock()
				}
				switch {
				case errors.Is(err, service.ErrConflict):
					mu.Lock()
					conflicts++
					mu.Unlock()
				case err != nil && !errors.Is(err, service.ErrNotFound):
					errs <- err
				}
				mu.Lock()
				n++
				slowest = max(slowest, time.Since(start))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d operations: %d ingests, %d deletions of a head; %d gave up after colliding; the slowest took %v",
		n, ingests, deletes, conflicts, slowest.Round(time.Millisecond))
	checkLinks(t, st)
}

// checkLinks asserts that every link is a real match and every cluster well
// formed (dbtest.CheckLinks).
func checkLinks(t *testing.T, st *repo.Store) {
	t.Helper()
	dbtest.CheckLinks(t, st.Pool())
}

func countRows(t *testing.T, st *repo.Store, sql string) int64 {
	t.Helper()
	var n int64
	if err := st.Pool().QueryRow(context.Background(), sql).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWindow checks that near duplicates are looked for only within the
// window around the article's publication time, while exact copies are
// found at any time.
func TestWindow(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	p := nearPairs(t, 1)[0]
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	in := input("old", p[0])
	in.PublishedAt = t0
	if _, err := svc.Ingest(ctx, in, svc.Defaults()); err != nil {
		t.Fatal(err)
	}
	check := func(a corpus.Article, published time.Time, windowHours float64) service.Status {
		t.Helper()
		opts := svc.Defaults()
		w, err := service.WindowHoursOption(windowHours)
		if err != nil {
			t.Fatal(err)
		}
		opts.Window = w
		c := input("", a)
		c.PublishedAt = published
		v, err := svc.Check(ctx, c, opts)
		if err != nil {
			t.Fatal(err)
		}
		return v.Status
	}
	tests := []struct {
		name   string
		a      corpus.Article
		at     time.Time
		window float64
		want   service.Status
	}{
		{"repost within the window", p[1], t0.Add(100 * time.Hour), 168, service.StatusNearDuplicate},
		{"repost after the window", p[1], t0.Add(200 * time.Hour), 168, service.StatusUnique},
		{"repost before the window", p[1], t0.Add(-200 * time.Hour), 168, service.StatusUnique},
		{"no window", p[1], t0.Add(10_000 * time.Hour), 0, service.StatusNearDuplicate},
		{"an exact copy at any time", p[0], t0.Add(10_000 * time.Hour), 1, service.StatusExactDuplicate},
	}
	for _, tc := range tests {
		if got := check(tc.a, tc.at, tc.window); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
