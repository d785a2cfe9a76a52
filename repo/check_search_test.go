package repo_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/newsdedup/newsdedup/repo"
)

// TestCheckSearchesSentencesOnce checks a repost asking for its shared
// sentences: the verdict's boilerplate check and the shared sentences come
// from one search of the sentence index.
func TestCheckSearchesSentencesOnce(t *testing.T) {
	st, searches := newCountingStore(t, 4, func(sql string) bool { return sql == repo.SentenceMatchesSQL })
	svc := newService(t, st)
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
	before := searches.n.Load()
	v, err := svc.Check(ctx, input("", repost), opts)
	if err != nil {
		t.Fatal(err)
	}
	if n := searches.n.Load() - before; n != 1 {
		t.Errorf("the check searched the sentence index %d times, want 1", n)
	}
	if v.DuplicateOf == nil || v.DuplicateOf.ID != stored.ID {
		t.Errorf("the repost's verdict: %s, of %+v; want a duplicate of article %d", v.Status, v.DuplicateOf, stored.ID)
	}
	if v.SharedSentences == nil || len(v.SharedSentences.Articles) == 0 || v.SharedSentences.Articles[0].ID != stored.ID {
		t.Errorf("shared sentences %+v, want the stored story first", v.SharedSentences)
	}
}
