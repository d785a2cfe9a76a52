package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestRefingerprint stores articles with fingerprint version 2, then
// upgrades them to version 3 as dedupd refingerprint does, with a stop
// half-way and a new article ingested meanwhile: every article ends in
// version 3 with the time it was ingested, every link real, and no article
// compared with one of another version.
func TestRefingerprint(t *testing.T) {
	st := newStore(t, 8)
	ctx := context.Background()
	load(t)
	old, err := service.New(st, fingerprint.NewWeighted(shared.dict, fingerprint.WeightedParamsV2), service.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	svc := newService(t, st)
	nv := novel(t)
	rng := rand.New(rand.NewPCG(11, 12))
	var texts []corpus.Article
	for _, a := range nv.Originals(rng, 12, 600, 1500) {
		texts = append(texts, a, nv.Apply(rng, a, corpus.Light), nv.Apply(rng, a, corpus.HeadlineChanged))
	}
	for i, a := range texts {
		if _, err := old.Ingest(ctx, input(fmt.Sprintf("old-%d", i), a), old.Defaults()); err != nil {
			t.Fatal(err)
		}
	}
	ingestedAt := map[int64]time.Time{}
	if err := forEachRow(ctx, st, `SELECT id, ingested_at FROM articles`, func(v []any) { ingestedAt[v[0].(int64)] = v[1].(time.Time) }); err != nil {
		t.Fatal(err)
	}
	if n, err := svc.CountOutdated(ctx); err != nil || n != int64(len(texts)) {
		t.Fatalf("CountOutdated = %d, %v; want %d", n, err, len(texts))
	}

	upgrade := func(limit int) int {
		t.Helper()
		done := 0
		var after service.ArticlePosition
		for done < limit {
			chunk, err := svc.OutdatedArticles(ctx, after, 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(chunk) == 0 {
				break
			}
			for _, p := range chunk {
				if done == limit {
					break
				}
				if _, err := svc.Refingerprint(ctx, p.ID); err != nil {
					t.Fatal(err)
				}
				done++
			}
			after = chunk[len(chunk)-1]
		}
		return done
	}
	mark, err := svc.RejudgeMark(ctx) // before the first upgrade
	if err != nil {
		t.Fatal(err)
	}
	upgrade(len(texts) / 2) // then the run stops

	// A new article arrives mid-way: a copy of an original not yet upgraded.
	// It is judged among version 3 alone, and finds nothing.
	late := texts[len(texts)-3]
	v, err := svc.Ingest(ctx, input("late", late), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != service.StatusUnique {
		t.Errorf("an article ingested mid-way is %s of %+v: it was compared with an article of version 2", v.Status, v.DuplicateOf)
	}
	checkLinks(t, st)

	upgrade(len(texts)) // the run again, from where it was
	if n, err := svc.CountOutdated(ctx); err != nil || n != 0 {
		t.Fatalf("after the run, %d articles are of older versions (%v)", n, err)
	}
	// Then the articles ingested meanwhile are judged again.
	horizon, err := svc.RejudgeHorizon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	unique, err := svc.UniqueBefore(ctx, horizon, mark, 100)
	if err != nil {
		t.Fatal(err)
	}
	relinked := false
	for _, p := range unique {
		linked, err := svc.Rejudge(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		relinked = relinked || (p.ID == v.ID && linked)
	}
	if !relinked {
		t.Errorf("the article ingested mid-way was not linked once its original was upgraded")
	}

	if err := forEachRow(ctx, st, `SELECT id, ingested_at FROM articles WHERE external_id LIKE 'old-%'`, func(v []any) {
		if at := v[1].(time.Time); !at.Equal(ingestedAt[v[0].(int64)]) {
			t.Errorf("article %d: ingested at %v, was %v: the upgrade must keep it", v[0], at, ingestedAt[v[0].(int64)])
		}
	}); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, st, `SELECT count(*) FROM articles WHERE status <> 'unique'`); n < int64(len(texts))/3 {
		t.Errorf("only %d articles are linked after the upgrade: the copies should be", n)
	}
	checkLinks(t, st)
}
