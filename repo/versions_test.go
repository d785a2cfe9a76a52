package repo_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
)

// TestVersionsKept corrects a story twice, then sends another story under
// its key: each earlier content is kept as a version, in order, with when
// it was stored and superseded and what the next one changed; a resend of
// the same content and the article's deletion keep none.
func TestVersionsKept(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 4))
	stories := nv.Originals(rng, 2, 1500, 2500)
	first := corpus.Article{Title: "国足1比4负于对手", Body: "本报讯 昨晚国足以1比4负于对手。\n" + stories[0].Body}
	fixed := corpus.Article{Title: "国足1比5负于对手", Body: strings.Replace(first.Body, "1比4", "1比5", 1)}
	noted := corpus.Article{Title: fixed.Title, Body: fixed.Body + "\n更正：本文此前版本比分有误，现已更正。"}
	t0 := time.Date(2026, 3, 1, 19, 30, 0, 0, time.UTC)
	var id int64
	for i, a := range []corpus.Article{first, fixed, fixed, noted, stories[1]} {
		in := keyed("cctv", "k", a)
		in.PublishedAt = t0
		v, err := svc.Ingest(ctx, in, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			id = v.ID
		}
	}
	vs, err := svc.Versions(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	wantTitles := []string{first.Title, fixed.Title, noted.Title, stories[1].Title}
	if len(vs) != len(wantTitles) {
		t.Fatalf("Versions = %d versions, want %d (the same content sent again keeps none): %+v", len(vs), len(wantTitles), vs)
	}
	for i, v := range vs {
		if v.Version != i+1 || v.Title != wantTitles[i] || v.Current != (i == len(vs)-1) {
			t.Errorf("version %d = %d %q current %v, want %d %q", i, v.Version, v.Title, v.Current, i+1, wantTitles[i])
		}
		if i > 0 && (v.Changed == nil || v.StoredAt.Before(vs[i-1].StoredAt) || !v.StoredAt.Equal(vs[i-1].SupersededAt)) {
			t.Errorf("version %d: changed %+v, stored %v after %v superseded %v", v.Version, v.Changed, v.StoredAt, vs[i-1].StoredAt, vs[i-1].SupersededAt)
		}
	}
	if c := vs[1].Changed; c == nil || !c.HeadlineChanged || c.OtherEdits != 2 {
		t.Errorf("version 2 changed %+v, want the headline and one character replaced (two edits)", c)
	}
	if c := vs[2].Changed; c == nil || c.HeadlineChanged || !c.BylineAdded {
		t.Errorf("version 3 changed %+v, want the correction line added at the end", c)
	}
	if err := svc.DeleteArticle(ctx, id); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, st, `SELECT count(*) FROM article_versions`); n != 0 {
		t.Errorf("%d versions left after the article was deleted", n)
	}
	if _, err := svc.Versions(ctx, id); !errors.Is(err, service.ErrNotFound) {
		t.Errorf("Versions of a deleted article: %v, want not found", err)
	}
}

// TestCopiesCarryingACorrectedFact: an original copied eight times is
// corrected (1比4 to 1比5): its cluster says when, what changed, and that
// the eight copies still carry the old score; a copy made after does not.
func TestCopiesCarryingACorrectedFact(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 5))
	story := nv.Originals(rng, 1, 1500, 2500)[0]
	old := corpus.Article{Title: story.Title, Body: "昨晚国足以1比4负于对手，主教练赛后表示将总结经验。\n" + story.Body}
	fixed := corpus.Article{Title: story.Title, Body: strings.Replace(old.Body, "1比4", "1比5", 1)}
	t0 := time.Date(2026, 3, 1, 19, 30, 0, 0, time.UTC)
	ingest := func(source string, a corpus.Article, at time.Time) service.Verdict {
		t.Helper()
		in := keyed(source, "k", a)
		in.PublishedAt = at
		v, err := svc.Ingest(ctx, in, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	orig := ingest("cctv", old, t0)
	var copies []int64
	for i := range 8 {
		copies = append(copies, ingest(fmt.Sprintf("portal-%d", i), old, t0.Add(time.Duration(i+1)*time.Minute)).ID)
	}
	if v := ingest("cctv", fixed, t0); v.ID != orig.ID {
		t.Fatalf("the correction is article %d, want %d", v.ID, orig.ID)
	}
	later := ingest("portal-late", fixed, t0.Add(time.Hour))
	view, err := svc.Cluster(ctx, orig.ClusterID)
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Corrections(ctx, view)
	if err != nil {
		t.Fatal(err)
	}
	if c.CorrectedAt.IsZero() || len(c.Passages) != 1 || !strings.Contains(c.Passages[0].Superseded, "1比4") || !strings.Contains(c.Passages[0].Corrected, "1比5") {
		t.Fatalf("Corrections = %+v, want when and the score before and after", c)
	}
	for _, id := range copies {
		if !c.Carriers[id] {
			t.Errorf("copy %d of the old text is not listed as carrying it", id)
		}
	}
	if c.Carriers[later.ID] || c.Carriers[orig.ID] || len(c.Carriers) != len(copies) {
		t.Errorf("carriers %v, want the %d copies of the old text alone", c.Carriers, len(copies))
	}
}

// TestCopiesDiffedAgainstTheVersionTheyCopied: an original copied eight
// times is corrected twice (the score 1比4 to 1比5, then the crowd 3万 to
// 4万), and copied between and after. Each copy is matched with the
// version it copied: the eight with the first, the one made between with
// the second, the one made after with the current content; each is
// measured against that version, so that the superseded facts it carries
// are not counted as its own edits (an exact copy is the same as what it
// copied), and the diff of the original into it is of that version, with
// the corrections it still carries side by side.
func TestCopiesDiffedAgainstTheVersionTheyCopied(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 6))
	story := nv.Originals(rng, 1, 1500, 2500)[0]
	v1 := corpus.Article{Title: story.Title, Body: "昨晚国足以1比4负于对手，主教练赛后表示将总结经验。\n现场观众约3万人，创下本赛季新高。\n" + story.Body}
	v2 := corpus.Article{Title: story.Title, Body: strings.Replace(v1.Body, "1比4", "1比5", 1)}
	v3 := corpus.Article{Title: story.Title, Body: strings.Replace(v2.Body, "约3万人", "约4万人", 1)}
	t0 := time.Date(2026, 3, 1, 19, 30, 0, 0, time.UTC)
	ingest := func(source string, a corpus.Article, at time.Time) int64 {
		t.Helper()
		in := keyed(source, "k", a)
		in.PublishedAt = at
		v, err := svc.Ingest(ctx, in, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		return v.ID
	}
	orig := ingest("cctv", v1, t0)
	// Seven exact copies of the first version, and one that edits a word
	// of its own and adds a credit line.
	edited := corpus.Article{Title: v1.Title, Body: strings.Replace(v1.Body, "主教练赛后", "主帅赛后", 1) + "\n来源：央视新闻"}
	var firsts []int64
	for i := range 8 {
		a := v1
		if i == 7 {
			a = edited
		}
		firsts = append(firsts, ingest(fmt.Sprintf("portal-%d", i), a, t0.Add(time.Duration(i+1)*time.Minute)))
	}
	if id := ingest("cctv", v2, t0); id != orig {
		t.Fatalf("the first correction is article %d, want %d", id, orig)
	}
	between := ingest("portal-between", v2, t0.Add(30*time.Minute))
	if id := ingest("cctv", v3, t0); id != orig {
		t.Fatalf("the second correction is article %d, want %d", id, orig)
	}
	after := ingest("portal-after", v3, t0.Add(time.Hour))

	view, err := svc.Cluster(ctx, orig)
	if err != nil {
		t.Fatal(err)
	}
	if view.Original.ID != orig || view.Size != 11 {
		t.Fatalf("cluster %d: original %d, %d members; want %d and 11", orig, view.Original.ID, view.Size, orig)
	}
	c, err := svc.Corrections(ctx, view)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Passages) != 1 || !strings.Contains(c.Passages[0].Superseded, "约3万人") || !strings.Contains(c.Passages[0].Corrected, "约4万人") {
		t.Errorf("the latest correction's passages = %+v, want the crowd before and after", c.Passages)
	}
	wantVersion := map[int64]int{between: 2, after: 0}
	for _, id := range firsts {
		wantVersion[id] = 1
	}
	for id, want := range wantVersion {
		cv, ok := c.Copied[id]
		if ok != (want != 0) || cv.Version != want || c.Carriers[id] != (want != 0) {
			t.Errorf("copy %d: copied version %d (matched %v, carrier %v), want %d", id, cv.Version, ok, c.Carriers[id], want)
		}
	}
	if cv := c.Copied[firsts[0]]; len(cv.Passages) != 2 || !strings.Contains(cv.Passages[0].Superseded, "1比4") || !strings.Contains(cv.Passages[0].Corrected, "1比5") ||
		!strings.Contains(cv.Passages[1].Superseded, "约3万人") || !strings.Contains(cv.Passages[1].Corrected, "约4万人") {
		t.Errorf("a copy of the first version carries %+v, want both corrections side by side, earliest first", cv.Passages)
	}
	if cv := c.Copied[between]; len(cv.Passages) != 1 || !strings.Contains(cv.Passages[0].Superseded, "约3万人") {
		t.Errorf("the copy of the second version carries %+v, want the crowd alone", cv.Passages)
	}

	diffs, err := svc.Differences(ctx, view, c)
	if err != nil {
		t.Fatal(err)
	}
	exact := append(append([]int64{}, firsts[:7]...), between, after)
	for _, id := range exact {
		d, ok := diffs[id]
		if !ok || !d.Same || d.OtherEdits != 0 || d.AgainstVersion != wantVersion[id] {
			t.Errorf("exact copy %d of version %d: difference %+v, want the same as what it copied, against it", id, wantVersion[id], d)
		}
	}
	own := service.Differ(v1.Title, v1.Body, edited.Title, edited.Body)
	if d := diffs[firsts[7]]; d.Same || d.OtherEdits != own.OtherEdits || d.BylineAdded != own.BylineAdded || d.AgainstVersion != 1 {
		t.Errorf("the edited copy's difference = %+v, want its own edits alone (%+v), against version 1", d, own)
	}

	md, err := svc.DiffMembers(ctx, orig, orig, firsts[7])
	if err != nil {
		t.Fatal(err)
	}
	if md.Against == nil || md.Against.Version != 1 || len(md.Against.Passages) != 2 || md.Difference.AgainstVersion != 1 {
		t.Fatalf("DiffMembers against %+v (difference %+v), want version 1 with both corrections", md.Against, md.Difference)
	}
	for _, r := range md.Body {
		if r.Kind != service.DiffEqual && (strings.Contains(r.Text, "比") || strings.Contains(r.Text, "万")) {
			t.Errorf("the diff of the original into the copy shows %q as the copy's change", r.Text)
		}
	}
	if md, err := svc.DiffMembers(ctx, orig, orig, after); err != nil || md.Against != nil || !md.Difference.Same {
		t.Errorf("DiffMembers into the copy of the current content: against %+v, %+v, %v; want none, the same", md.Against, md.Difference, err)
	}
}
