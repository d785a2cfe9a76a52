package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
)

// TestMostCopiedStoryKeepsItsPartials stores a story and then more and
// more near copies of it, and checks its partial copies — an excerpt, an
// expansion, a copy with a fifth of its sentences dropped — after 1, 18 and
// 300 copies: the story's own sentences, held by its copies, are no
// boilerplate, so each is found, linked to the story, as often at 300
// copies as at 1. A slogan held across the copies is still boilerplate
// (TestSloganBodiesLinkNothing).
func TestMostCopiedStoryKeepsItsPartials(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(45, 300))
	texts := novel(t).Originals(rng, 2, 1500, 2500)
	story, other := texts[0], texts[1]
	v, err := svc.Ingest(ctx, input("story", story), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	stored := map[int64]bool{v.ID: true}

	sentences := strings.SplitAfter(story.Body, "。")
	if len(sentences) < 20 {
		t.Fatalf("the fixture: a story of %d sentences, want 20 or more", len(sentences))
	}
	var dropped []string
	for i, s := range sentences {
		if i%5 != 2 {
			dropped = append(dropped, s)
		}
	}
	partials := []struct {
		name string
		body string
	}{
		{"an excerpt", strings.Join(sentences[len(sentences)/4:len(sentences)/4+len(sentences)*2/5], "")},
		{"an expansion", story.Body + "\n" + other.Body},
		{"a fifth dropped", strings.Join(dropped, "")},
	}

	copies := 0
	addCopies := func(upTo int) {
		t.Helper()
		var keys []string
		var arts []corpus.Article
		for ; copies < upTo; copies++ {
			keys = append(keys, fmt.Sprintf("copy-%d", copies))
			arts = append(arts, corpus.Article{Title: story.Title,
				Body: fmt.Sprintf("来源：第%d号新闻网\n%s\n责任编辑：编辑%d", copies, story.Body, copies)})
		}
		for from := 0; from < len(keys); from += 100 {
			to := min(from+100, len(keys))
			results, err := svc.IngestBatch(ctx, batchOf(svc, keys[from:to], arts[from:to]))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				if r.Err != nil {
					t.Fatal(r.Err)
				}
				stored[r.Verdict.ID] = true
			}
		}
	}
	for _, n := range []int{1, 18, 300} {
		addCopies(n)
		for _, p := range partials {
			v, err := svc.Check(ctx, input("", corpus.Article{Title: "另一个标题", Body: p.body}), svc.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			if v.Status == service.StatusUnique || v.DuplicateOf == nil || !stored[v.DuplicateOf.ID] {
				t.Errorf("%s of a story copied %d times: %s of %+v, want it linked to the story or a copy", p.name, n, v.Status, v.DuplicateOf)
			}
		}
	}
}
