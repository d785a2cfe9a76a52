package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestCheckSearchesSentencesOnce checks a repost asking for its shared
// sentences: the verdict's boilerplate check and the shared sentences come
// from one search of the sentence index.
func TestCheckSearchesSentencesOnce(t *testing.T) {
	svc, searches, counts := sentenceCountingService(t)
	ctx := context.Background()
	story := novel(t).Originals(rand.New(rand.NewPCG(83, 5)), 1, 800, 1500)[0]
	stored, err := svc.Ingest(ctx, input("story", story), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}

	repost := story // a near duplicate, not a copy: its check looks for boilerplate
	repost.Body = story.Body + "\n本文转载自晨星资讯，版权归原作者所有。"
	opts := svc.Defaults()
	opts.SharedSentences = true
	before, countsBefore := searches.n.Load(), counts.n.Load()
	v, err := svc.Check(ctx, input("", repost), opts)
	if err != nil {
		t.Fatal(err)
	}
	if n := searches.n.Load() - before; n != 1 {
		t.Errorf("the check searched the sentence index %d times, want 1", n)
	}
	if n := counts.n.Load() - countsBefore; n != 0 {
		t.Errorf("the check also counted its sentences' holders (%d statements): the search's matches hold them", n)
	}
	if v.DuplicateOf == nil || v.DuplicateOf.ID != stored.ID {
		t.Errorf("the repost's verdict: %s, of %+v; want a duplicate of article %d", v.Status, v.DuplicateOf, stored.ID)
	}
	if v.SharedSentences == nil || len(v.SharedSentences.Articles) == 0 || v.SharedSentences.Articles[0].ID != stored.ID {
		t.Errorf("shared sentences %+v, want the stored story first", v.SharedSentences)
	}
}

// TestCheckOfNearMatchCountsHolders checks what a check reads of the
// sentence index. A near duplicate needs only its sentences' holders, to
// tell boilerplate: one counting statement, no search. A page whose near
// matches share only boilerplate (a portal's slogan held by 25 pages) is
// left without them, and then looks for a partial duplicate: the count,
// then the search.
func TestCheckOfNearMatchCountsHolders(t *testing.T) {
	svc, searches, counts := sentenceCountingService(t)
	ctx := context.Background()

	check := func(what string, in service.ArticleInput, wantStatus service.Status, wantCounts, wantSearches int64) service.Verdict {
		t.Helper()
		countsBefore, searchesBefore := counts.n.Load(), searches.n.Load()
		v, err := svc.Check(ctx, in, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != wantStatus {
			t.Errorf("%s: %s, want %s", what, v.Status, wantStatus)
		}
		if n := counts.n.Load() - countsBefore; n != wantCounts {
			t.Errorf("%s: %d counting statements, want %d", what, n, wantCounts)
		}
		if n := searches.n.Load() - searchesBefore; n != wantSearches {
			t.Errorf("%s: %d sentence searches, want %d", what, n, wantSearches)
		}
		return v
	}

	story := novel(t).Originals(rand.New(rand.NewPCG(83, 6)), 1, 800, 1500)[0]
	stored, err := svc.Ingest(ctx, input("story", story), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	repost := story
	repost.Body = story.Body + "\n本文转载自晨星资讯，版权归原作者所有。"
	if v := check("a repost", input("", repost), service.StatusNearDuplicate, 1, 0); v.DuplicateOf == nil || v.DuplicateOf.ID != stored.ID {
		t.Errorf("a repost: a duplicate of %+v, want article %d", v.DuplicateOf, stored.ID)
	}
	check("an exact copy", input("", story), service.StatusExactDuplicate, 0, 0)

	pages := sloganPages(26)
	for i, p := range pages[:25] {
		if _, err := svc.Ingest(ctx, input(fmt.Sprintf("slogan-%d", i), p), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
	}
	check("a slogan page", input("", pages[25]), service.StatusUnique, 1, 1)
}

// sentenceCountingService is a service on a store of its own that counts
// the sentence searches (SentenceMatches) and the holder counts
// (SentenceHolders) it sends.
func sentenceCountingService(t *testing.T) (svc *service.Service, searches, counts *statementCounter) {
	t.Helper()
	searches = &statementCounter{match: func(sql string) bool { return sql == repo.SentenceMatchesSQL }}
	counts = &statementCounter{match: func(sql string) bool { return sql == repo.SentenceHoldersSQL }}
	st, err := repo.Open(context.Background(), dbtest.URL(t), repo.Options{MaxConns: 4, Tracer: tracers{searches, counts}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return newService(t, st), searches, counts
}

// tracers are several query tracers as one.
type tracers []pgx.QueryTracer

func (ts tracers) TraceQueryStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	for _, t := range ts {
		ctx = t.TraceQueryStart(ctx, conn, data)
	}
	return ctx
}

func (ts tracers) TraceQueryEnd(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryEndData) {
	for _, t := range ts {
		t.TraceQueryEnd(ctx, conn, data)
	}
}
