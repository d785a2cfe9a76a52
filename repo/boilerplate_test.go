package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
)

// slogan is a made-up portal slogan: the whole body of the pages a scraper
// keeps when it finds no story, one line under each page's own headline.
const slogan = "晨星资讯客户端，每天三分钟读懂天下大事。"

// sloganPages are n pages whose body is only the slogan, under headlines
// of their own.
func sloganPages(n int) []corpus.Article {
	pages := make([]corpus.Article, n)
	for i := range pages {
		pages[i] = corpus.Article{Title: fmt.Sprintf("晨星快讯第%d期：编辑部专题页面", i+1), Body: slogan}
	}
	return pages
}

// wantSloganVerdicts checks the verdicts of sloganPages, in order: a page
// is a near duplicate of an earlier one while fewer than
// boilerplateArticles (20) pages hold the slogan — nothing yet says it is
// boilerplate — and from the 20th on, when the slogan is all two pages
// share, it links to none.
func wantSloganVerdicts(t *testing.T, verdicts []service.Verdict) {
	t.Helper()
	for i, v := range verdicts {
		holders := i + 1
		switch {
		case holders == 1 || holders >= 20:
			if v.Status != service.StatusUnique {
				t.Errorf("page %d, slogan held by %d pages: %s (of %+v), want unique", holders, holders, v.Status, v.DuplicateOf)
			}
		default:
			if v.Status != service.StatusNearDuplicate {
				t.Errorf("page %d, slogan held by %d pages: %s, want near_duplicate", holders, holders, v.Status)
			}
		}
	}
}

// TestSloganBodiesLinkNothing ingests 25 pages whose body is only a slogan,
// one by one: from the 20th on, the slogan is boilerplate and links no page
// as a near duplicate.
func TestSloganBodiesLinkNothing(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	var verdicts []service.Verdict
	for i, p := range sloganPages(25) {
		v, err := svc.Ingest(ctx, input(fmt.Sprintf("slogan-%d", i), p), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		verdicts = append(verdicts, v)
	}
	wantSloganVerdicts(t, verdicts)
}

// TestSloganLinksUndoneOnceBoilerplate: the pages linked while fewer than
// 20 held the slogan are the first to arrive — the first published in
// publication order, the last in reverse. Once the slogan is boilerplate
// those links are judged again: every page ends unique, whatever the order
// of arrival, one at a time or in one batch.
func TestSloganLinksUndoneOnceBoilerplate(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	var items []lineageItem
	for i, p := range sloganPages(25) {
		items = append(items, lineageItem{fmt.Sprintf("page-%02d", i), p, t0.Add(time.Duration(i) * time.Hour)})
	}
	inOrder := make([]int, len(items))
	for i := range inOrder {
		inOrder[i] = i
	}
	want := storeLineage(t, items, inOrder, false)
	if len(want) != len(items) {
		t.Fatalf("in publication order: %d lines, want %d pages and no duplicate pair:\n%s", len(want), len(items), strings.Join(want, "\n"))
	}
	for _, line := range want {
		if !strings.Contains(line, " unique of - ") {
			t.Fatalf("in publication order: %s, want every page unique", line)
		}
	}
	reverse := slices.Clone(inOrder)
	slices.Reverse(reverse)
	shuffled := slices.Clone(inOrder)
	rand.New(rand.NewPCG(47, 20)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	checkEveryOrder(t, items, [][]int{reverse, shuffled}, want)
}

// TestSloganPartialLinkJudgedAgain: a page holding the slogan and one
// line of its own, and a copy of it, published after 20 slogan pages.
// Stored in reverse the two arrive first, and the slogan pages, published
// before, take the page as their partial copy while the slogan is not yet
// boilerplate. Once it is, that link is judged again too: the page heads
// its copy alone, as in publication order, whatever the order of arrival.
func TestSloganPartialLinkJudgedAgain(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	var items []lineageItem
	for i, p := range sloganPages(20) {
		items = append(items, lineageItem{fmt.Sprintf("page-%02d", i), p, t0.Add(time.Duration(i) * time.Hour)})
	}
	page := corpus.Article{Title: "晨星快讯：今日编辑部说明", Body: slogan + "\n今日暂停更新。"}
	cp := page
	cp.Title = "转载：晨星快讯今日说明"
	items = append(items, lineageItem{"story", page, t0.Add(30 * time.Hour)}, lineageItem{"story-copy", cp, t0.Add(31 * time.Hour)})
	inOrder := make([]int, len(items))
	for i := range inOrder {
		inOrder[i] = i
	}
	want := storeLineage(t, items, inOrder, false)
	if got := strings.Join(want[len(want)-3:], "\n"); got != "story unique of - (-1 bits, -1.0000) in story's cluster\n"+
		"story-copy near_duplicate of story (0 bits, 1.0000) in story's cluster\nstory-copy copied story true" {
		t.Fatalf("in publication order:\n%s\nwant the copy linked to the page and the page unique", got)
	}
	for _, line := range want[:20] {
		if !strings.Contains(line, " unique of - ") {
			t.Fatalf("in publication order: %s, want every slogan page unique", line)
		}
	}
	reverse := slices.Clone(inOrder)
	slices.Reverse(reverse)
	checkEveryOrder(t, items, [][]int{reverse}, want)
}

// TestCorrectedOriginalKeepsItsCopyOnceBoilerplate: a story ending in the
// slogan, sent without a publication time, and a light repost of it; the
// story is corrected (sent again, still without a time: its publication
// becomes the correction's arrival, after the repost's). Slogan pages then
// make the slogan boilerplate, and the repost, whose link the slogan is
// part of, is judged again by publication: the story was there before it,
// since it was first stored, and the repost still links to it.
func TestCorrectedOriginalKeepsItsCopyOnceBoilerplate(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 21))
	story := nv.Originals(rng, 1, 1500, 2500)[0]
	story.Body += "\n" + slogan
	ingest := func(source, key string, a corpus.Article) service.Verdict {
		t.Helper()
		return mustIngest(t, svc, source, key, a)
	}
	orig := ingest("wire", "story", story)
	repost := ingest("portal", "repost", nv.Apply(rng, story, corpus.Light))
	if repost.Status != service.StatusNearDuplicate || repost.DuplicateOf == nil || repost.DuplicateOf.ID != orig.ID {
		t.Fatalf("the repost: %s of %+v, want a near duplicate of the story %d", repost.Status, repost.DuplicateOf, orig.ID)
	}
	time.Sleep(10 * time.Millisecond) // the correction arrives after the repost
	corrected := story
	corrected.Body += "\n更正：本文此前版本中的日期有误，现已更正。"
	if v := ingest("wire", "story", corrected); v.ID != orig.ID {
		t.Fatalf("the correction is article %d, want the story %d corrected in place", v.ID, orig.ID)
	}
	for i, p := range sloganPages(boilerplateArticlesInTest) {
		ingest("page", fmt.Sprintf("page-%d", i), p)
	}
	if a := mustFind(t, svc, repost.ID); a.DuplicateOf != orig.ID || a.ClusterID != orig.ID {
		t.Errorf("the repost links to %d in cluster %d, want the corrected story %d", a.DuplicateOf, a.ClusterID, orig.ID)
	}
	checkLinks(t, st)
}

// boilerplateArticlesInTest is service's boilerplateArticles: the holders
// that make a sentence boilerplate.
const boilerplateArticlesInTest = 20

// TestSloganBodiesLinkNothingInABatch sends the same 25 pages as one batch,
// judged as one group: the pages before one in the group hold the slogan
// too, and the verdicts are those of single ingests.
func TestSloganBodiesLinkNothingInABatch(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	pages := sloganPages(25)
	keys := make([]string, len(pages))
	for i := range keys {
		keys[i] = fmt.Sprintf("slogan-%d", i)
	}
	results, err := svc.IngestBatch(ctx, batchOf(svc, keys, pages))
	if err != nil {
		t.Fatal(err)
	}
	verdicts := make([]service.Verdict, len(results))
	for i, r := range results {
		if r.Err != nil {
			t.Fatalf("page %d: %v", i+1, r.Err)
		}
		verdicts[i] = r.Verdict
	}
	wantSloganVerdicts(t, verdicts)
}

// TestSameStoryUnderAnotherHeadlineStillLinks makes the slogan boilerplate
// (20 stories carry it as their first line), then sends real stories that
// carry it too, each twice under two headlines: the second is a near
// duplicate of the first, one by one and in a batch — their stories are
// the same once the slogan is left out.
func TestSameStoryUnderAnotherHeadlineStillLinks(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(19, 4))
	stories := novel(t).Originals(rng, 28, 300, 600)
	for i, a := range stories[:20] {
		a.Body = slogan + "\n" + a.Body
		if _, err := svc.Ingest(ctx, input(fmt.Sprintf("carrier-%d", i), a), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
	}
	// Each pair: the story under its own headline, then under the next
	// story's.
	pair := func(i int) [2]corpus.Article {
		a := stories[20+i]
		a.Body = slogan + "\n" + a.Body
		b := a
		b.Title = stories[(21+i)%len(stories)].Title
		return [2]corpus.Article{a, b}
	}
	wantLinked := func(how string, first, second service.Verdict) {
		t.Helper()
		if second.Status != service.StatusNearDuplicate || second.DuplicateOf == nil || second.DuplicateOf.ID != first.ID {
			t.Errorf("%s: a story under another headline is %s of %+v, want near_duplicate of %d", how, second.Status, second.DuplicateOf, first.ID)
		}
	}
	for i := range 4 {
		p := pair(i)
		first, err := svc.Ingest(ctx, input(fmt.Sprintf("one-%d-a", i), p[0]), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		second, err := svc.Ingest(ctx, input(fmt.Sprintf("one-%d-b", i), p[1]), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		wantLinked("one by one", first, second)
	}
	var keys []string
	var batch []corpus.Article
	for i := 4; i < 8; i++ {
		p := pair(i)
		keys = append(keys, fmt.Sprintf("batch-%d-a", i), fmt.Sprintf("batch-%d-b", i))
		batch = append(batch, p[0], p[1])
	}
	results, err := svc.IngestBatch(ctx, batchOf(svc, keys, batch))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(results); i += 2 {
		if results[i].Err != nil || results[i+1].Err != nil {
			t.Fatalf("batch pair %d: %v, %v", i/2, results[i].Err, results[i+1].Err)
		}
		wantLinked("in a batch", results[i].Verdict, results[i+1].Verdict)
	}
}
