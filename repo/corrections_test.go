package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
)

// copiedStory is a wire story, stored, and copies of it: three exact
// copies, a retitled one, a repost with a portal's header and footer, an
// excerpt, and an exact copy of the repost (which links to the repost).
type copiedStory struct {
	story, repost corpus.Article
	original      service.Verdict
	copies        []service.Verdict // in the order above
}

func storeCopiedStory(t *testing.T, svc *service.Service, nv *corpus.Novel, rng *rand.Rand) copiedStory {
	t.Helper()
	var s copiedStory
	s.story = nv.Originals(rng, 1, 1500, 2500)[0]
	s.repost = nv.Apply(rng, s.story, corpus.Light)
	ingest := func(source, key string, a corpus.Article) service.Verdict {
		t.Helper()
		return mustIngest(t, svc, source, key, a)
	}
	s.original = ingest("xinhua", "wire-1", s.story)
	texts := []corpus.Article{s.story, s.story, s.story, nv.Apply(rng, s.story, corpus.HeadlineChanged), s.repost,
		{Title: "摘要", Body: firstShare(s.story.Body, 0.6)}, s.repost}
	for i, a := range texts {
		s.copies = append(s.copies, ingest(fmt.Sprintf("portal-%d", i), "copy", a))
	}
	for i, v := range s.copies[:6] {
		if v.DuplicateOf == nil || v.DuplicateOf.ID != s.original.ID {
			t.Fatalf("fixture: copy %d is %s of %+v, want a duplicate of the original %d", i, v.Status, v.DuplicateOf, s.original.ID)
		}
	}
	if v := s.copies[6]; v.DuplicateOf == nil || v.DuplicateOf.ID != s.copies[4].ID {
		t.Fatalf("fixture: the repost's copy links to %+v, want the repost %d", v.DuplicateOf, s.copies[4].ID)
	}
	return s
}

// TestCorrectionKeepsItsPlace corrects a much-copied original three
// times — a new headline, a correction line, a fixed character — and each
// time it stays what it was: the same article, ingested when it was,
// heading its cluster, its copies linking to it, their measures and
// status taken against the new content (an exact copy of the old text is
// a near duplicate of the new).
func TestCorrectionKeepsItsPlace(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	s := storeCopiedStory(t, svc, novel(t), rand.New(rand.NewPCG(32, 1)))
	before := mustFind(t, svc, s.original.ID)

	headline := s.story
	headline.Title = "（更新）" + s.story.Title
	correction := headline
	correction.Body += "\n更正：本文此前版本中的日期有误，现已更正。"
	typo := correction
	typo.Body = strings.Replace(correction.Body, "的", "地", 1)
	for _, next := range []struct {
		name string
		a    corpus.Article
	}{{"a new headline", headline}, {"a correction line", correction}, {"a fixed character", typo}} {
		v, err := svc.Ingest(ctx, keyed("xinhua", "wire-1", next.a), svc.Defaults())
		if err != nil {
			t.Fatalf("%s: %v", next.name, err)
		}
		if !v.Created || v.ID != s.original.ID || v.Status != service.StatusUnique || v.ClusterID != s.original.ID {
			t.Errorf("%s: %+v, want the original %d stored anew, unique, heading its cluster", next.name, v, s.original.ID)
		}
		now := mustFind(t, svc, s.original.ID)
		if !now.IngestedAt.Equal(before.IngestedAt) || !now.IsCanonical() {
			t.Errorf("%s: the original was ingested at %v, is %+v; want it ingested at %v, heading its cluster",
				next.name, now.IngestedAt, now, before.IngestedAt)
		}
		for i, c := range s.copies {
			a := mustFind(t, svc, c.ID)
			linksTo := s.original.ID
			if i == 6 {
				linksTo = s.copies[4].ID
			}
			if a.DuplicateOf != linksTo || a.ClusterID != s.original.ID {
				t.Errorf("%s: copy %d links to %d in cluster %d, want %d in cluster %d", next.name, i, a.DuplicateOf, a.ClusterID, linksTo, s.original.ID)
			}
			if i < 3 && a.Status != service.StatusNearDuplicate {
				t.Errorf("%s: exact copy %d of the old text is %s, want a near duplicate of the new", next.name, i, a.Status)
			}
		}
		checkLinks(t, st)
	}

	// A copy corrected keeps its place too: it stays in the original's
	// cluster, ingested when it was (it links to its best match before
	// it), and the exact copy of its old text still links to it, now a near
	// duplicate.
	repost := s.repost
	repost.Title = "（转载更新）" + repost.Title
	was := mustFind(t, svc, s.copies[4].ID)
	if _, err := svc.Ingest(ctx, keyed("portal-4", "copy", repost), svc.Defaults()); err != nil {
		t.Fatal(err)
	}
	if a := mustFind(t, svc, s.copies[4].ID); a.ClusterID != s.original.ID || !a.IngestedAt.Equal(was.IngestedAt) {
		t.Errorf("the corrected repost is %s of %d in cluster %d, ingested at %v; want it in cluster %d, ingested at %v",
			a.Status, a.DuplicateOf, a.ClusterID, a.IngestedAt, s.original.ID, was.IngestedAt)
	}
	if a := mustFind(t, svc, s.copies[6].ID); a.DuplicateOf != s.copies[4].ID || a.Status != service.StatusNearDuplicate {
		t.Errorf("the repost's copy is %s of %d, want a near duplicate of the repost %d", a.Status, a.DuplicateOf, s.copies[4].ID)
	}
	checkLinks(t, st)
}

// TestCorrectionToATextStoredElsewhere corrects an original into a text
// another cluster already holds (a copy published outside the window, so
// never linked to it): kept in its place the original could not join that
// copy, ingested after it, so it is stored as another story would be — it
// joins the copy's cluster, and its own copies stay together.
func TestCorrectionToATextStoredElsewhere(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	s := storeCopiedStory(t, svc, novel(t), rand.New(rand.NewPCG(32, 4)))
	corrected := s.story
	corrected.Title = "（更新）" + s.story.Title
	elsewhere := keyed("archive", "late", corrected)
	elsewhere.PublishedAt = mustFind(t, svc, s.original.ID).PublishedAt.Add(300 * time.Hour)
	late, err := svc.Ingest(ctx, elsewhere, svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if late.Status != service.StatusUnique {
		t.Fatalf("fixture: the late copy is %s, want unique", late.Status)
	}
	in := keyed("xinhua", "wire-1", corrected)
	in.PublishedAt = mustFind(t, svc, s.original.ID).PublishedAt
	v, err := svc.Ingest(ctx, in, svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != service.StatusExactDuplicate || v.DuplicateOf.ID != late.ID || v.ClusterID != late.ID {
		t.Errorf("the corrected original is %s of %+v in cluster %d, want an exact copy of %d in its cluster", v.Status, v.DuplicateOf, v.ClusterID, late.ID)
	}
	if head := mustFind(t, svc, s.copies[0].ID); !head.IsCanonical() {
		t.Errorf("the earliest copy is %+v, want it heading the other copies", head)
	}
	checkLinks(t, st)
}

// TestAnotherStoryUnderTheKey puts another story under a much-copied
// original's key: its copies leave it and stay together, headed by the
// earliest of them, and the new story is judged as the latest article.
func TestAnotherStoryUnderTheKey(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(32, 2))
	nv := novel(t)
	s := storeCopiedStory(t, svc, nv, rng)
	other := nv.Originals(rng, 1, 1500, 2500)[0]

	v, err := svc.Ingest(ctx, keyed("xinhua", "wire-1", other), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if !v.Created || v.ID != s.original.ID || v.Status != service.StatusUnique {
		t.Errorf("another story: %+v, want article %d stored anew, unique", v, s.original.ID)
	}
	head := mustFind(t, svc, s.copies[0].ID)
	if !head.IsCanonical() || head.ClusterID != head.ID {
		t.Errorf("the earliest copy is %+v, want it heading the copies", head)
	}
	for i, c := range s.copies[1:] {
		if a := mustFind(t, svc, c.ID); a.ClusterID != head.ID || a.IsCanonical() {
			t.Errorf("copy %d links to %d in cluster %d, want a link in the earliest copy's cluster %d", i+1, a.DuplicateOf, a.ClusterID, head.ID)
		}
	}
	if now := mustFind(t, svc, s.original.ID); !now.IngestedAt.After(mustFind(t, svc, s.copies[len(s.copies)-1].ID).IngestedAt) {
		t.Errorf("the new story was ingested at %v, before the copies of the old", now.IngestedAt)
	}
	checkLinks(t, st)
}

// TestDependantsInBoundedStatements counts the statements a correction
// and a deletion of an original cost with 5 and with 60 copies linking to
// it: the same, however many.
func TestDependantsInBoundedStatements(t *testing.T) {
	ctx := context.Background()
	story := nearPairs(t, 1)[0][0]
	counts := map[int][2]int64{}
	for _, n := range []int{5, 60} {
		// Every statement but the count of sentence partitions, which is
		// read again when a second old and so comes with the clock.
		st, tracer := newCountingStore(t, 4, func(sql string) bool { return !strings.Contains(sql, "FROM sentence_partitions") })
		svc := newService(t, st)
		original, err := svc.Ingest(ctx, keyed("xinhua", "wire-1", story), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		items := make([]service.BatchItem, n)
		for i := range items {
			items[i] = service.BatchItem{Article: keyed(fmt.Sprintf("portal-%d", i), "copy", story), Options: svc.Defaults()}
		}
		if _, err := svc.IngestBatch(ctx, items); err != nil {
			t.Fatal(err)
		}
		corrected := story
		corrected.Title += "（更新）"
		tracer.n.Store(0)
		if _, err := svc.Ingest(ctx, keyed("xinhua", "wire-1", corrected), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
		correcting := tracer.n.Load()
		tracer.n.Store(0)
		if err := svc.DeleteArticle(ctx, original.ID); err != nil {
			t.Fatal(err)
		}
		counts[n] = [2]int64{correcting, tracer.n.Load()}
		if got := countRows(t, st, `SELECT count(*) FROM articles WHERE duplicate_of IS NOT NULL`); got != int64(n-1) {
			t.Errorf("%d copies: %d link after the original was deleted, want %d", n, got, n-1)
		}
		checkLinks(t, st)
	}
	if few, many := counts[5], counts[60]; many[0] > few[0] || many[1] > few[1] {
		t.Errorf("a correction and a deletion cost %d and %d statements with 5 copies, %d and %d with 60; want no more",
			few[0], few[1], many[0], many[1])
	}
}

// TestLeaveJudgesTheRestAgain deletes an article two excerpts link to, one
// of its first sentences, one of the rest, most of which another stored
// article also holds: the first excerpt heads itself, the second, matching
// no excerpt before it, is judged again against the stored articles and
// links to the other holder of its text.
func TestLeaveJudgesTheRestAgain(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(32, 3))
	nv := novel(t)
	var long []string // sentences of 20 characters or more, each indexed
	for _, o := range nv.Originals(rng, 10, 2000, 3000) {
		for _, s := range corpus.SplitSentences(o.Body) {
			if utf8.RuneCountInString(s) >= 20 && !slices.Contains(long, s) {
				long = append(long, s)
			}
		}
	}
	if len(long) < 20 {
		t.Fatalf("fixture: %d long sentences, want 20", len(long))
	}
	a, more := long[:10], long[10:20]
	ingest := func(source string, sentences ...[]string) service.Verdict {
		t.Helper()
		v, err := svc.Ingest(ctx, keyed(source, "k", corpus.Article{Title: source, Body: strings.Join(slices.Concat(sentences...), "")}), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	holder := ingest("holder", a[5:], more) // holds the second half, and more
	x := ingest("x", a)
	first := ingest("first-half", a[:3])
	second := ingest("second-half", a[3:])
	for _, v := range []service.Verdict{first, second} {
		if v.DuplicateOf == nil || v.DuplicateOf.ID != x.ID {
			t.Fatalf("fixture: %s is %s of %+v, want a duplicate of %d", v.Source, v.Status, v.DuplicateOf, x.ID)
		}
	}
	if err := svc.DeleteArticle(ctx, x.ID); err != nil {
		t.Fatal(err)
	}
	if a := mustFind(t, svc, first.ID); !a.IsCanonical() {
		t.Errorf("the first half is %+v, want it heading a cluster", a)
	}
	if a := mustFind(t, svc, second.ID); a.DuplicateOf != holder.ID || a.ClusterID != holder.ID {
		t.Errorf("the second half is %s of %d in cluster %d, want a duplicate of %d in its cluster", a.Status, a.DuplicateOf, a.ClusterID, holder.ID)
	}
	checkLinks(t, st)
}
