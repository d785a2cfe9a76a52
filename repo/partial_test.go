package repo_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
)

// firstShare returns the first share of a body's sentences.
func firstShare(body string, share float64) string {
	s := corpus.SplitSentences(body)
	return strings.Join(s[:int(float64(len(s))*share)], "")
}

// chromeSwapped replaces the first and last sentence of a body with another
// site's header and footer.
func chromeSwapped(body string) string {
	s := corpus.SplitSentences(body)
	return "本文转载自某某财经网，版权归原作者所有。\n" + strings.Join(s[1:len(s)-1], "") +
		"\n关注某某财经网公众号，获取更多独家资讯。"
}

// TestPartialDuplicates follows the partial duplicates of one article: an
// excerpt and a copy in another site's dress are partial copies of it, an
// expansion holds most of it, a quote of one sentence and an article with a
// boilerplate line are not.
func TestPartialDuplicates(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(5, 10))
	orig, other, third := func() (a, b, c corpus.Article) {
		os := nv.Originals(rng, 3, 1500, 2500)
		return os[0], os[1], os[2]
	}()
	ingest := func(key string, a corpus.Article) service.Verdict {
		t.Helper()
		v, err := svc.Ingest(ctx, input(key, a), svc.Defaults())
		if err != nil {
			t.Fatalf("ingest %s: %v", key, err)
		}
		return v
	}
	o := ingest("original", orig)

	tests := []struct {
		name    string
		body    string
		partial bool
		thisMin float64 // the coverage of this article found in the original, at least
		thatMin float64 // the coverage of the original found here, at least
	}{
		{"the first 60 %", firstShare(orig.Body, 0.6), true, 0.95, 0.5},
		{"another site's header and footer", chromeSwapped(orig.Body), true, 0.8, 0.8},
		{"an expansion", orig.Body + "\n" + other.Body, true, 0.3, 0.95},
		{"a quote of one sentence", third.Body + corpus.SplitSentences(orig.Body)[2], false, 0, 0},
	}
	for i, tt := range tests {
		v := ingest(fmt.Sprintf("copy-%d", i), corpus.Article{Title: "另一个标题", Body: tt.body})
		switch {
		case !tt.partial:
			if v.Status != service.StatusUnique {
				t.Errorf("%s: %s of %+v, want unique", tt.name, v.Status, v.DuplicateOf)
			}
		case v.Status == service.StatusNearDuplicate:
			// A copy close enough to be near is near; the test wants a link.
		case v.Status != service.StatusPartialDuplicate || v.DuplicateOf == nil || v.DuplicateOf.ID != o.ID:
			t.Errorf("%s: %s of %+v, want a partial duplicate of %d", tt.name, v.Status, v.DuplicateOf, o.ID)
		case v.DuplicateOf.Coverage.This < tt.thisMin || v.DuplicateOf.Coverage.That < tt.thatMin:
			t.Errorf("%s: coverage %+v, want this ≥ %v and that ≥ %v", tt.name, v.DuplicateOf.Coverage, tt.thisMin, tt.thatMin)
		}
	}
	checkLinks(t, st)
}

// TestBoilerplateLinksNothing adds one line to articles that share nothing
// else: held by 19 articles it links them, held by 20 it is boilerplate and
// links none of them.
func TestBoilerplateLinksNothing(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(6, 10))
	const line = "免责声明：本文仅代表作者个人观点，与本网站立场无关，请读者仅作参考。"
	linked := func(id int64) int {
		t.Helper()
		shared, err := svc.SharedSentences(ctx, id, service.DefaultSharedOptions)
		if err != nil {
			t.Fatal(err)
		}
		return len(shared.Articles)
	}
	for i, a := range novel(t).Originals(rng, 20, 300, 500) {
		v, err := svc.Ingest(ctx, input(fmt.Sprintf("b-%d", i), corpus.Article{Title: a.Title, Body: line + "\n" + a.Body}), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		switch holders := i + 1; holders {
		case 19:
			if n := linked(v.ID); n != 18 {
				t.Errorf("a line 19 articles hold links %d others to the last, want 18", n)
			}
		case 20:
			if n := linked(v.ID); n != 0 {
				t.Errorf("a line 20 articles hold links %d others to the last, want none", n)
			}
		}
	}
}

// TestBoilerplateCountsEverySpelling holds one line in 20 articles, half of
// them with enumeration commas and half without: the same sentence to its
// exact hash (punctuation is left out), two word lists to the segmenter,
// whose simhashes are 15 bits apart. Every spelling counts, so the line is
// boilerplate and links none of them.
func TestBoilerplateCountsEverySpelling(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(16, 10))
	spellings := []string{
		"本站所载文字、图片、音频、视频均由用户上传，如有侵权请联系删除。",
		"本站所载文字图片音频视频均由用户上传，如有侵权请联系删除。",
	}
	var last int64
	for i, a := range novel(t).Originals(rng, 20, 300, 500) {
		body := spellings[i%2] + "\n" + a.Body
		v, err := svc.Ingest(ctx, input(fmt.Sprintf("s-%d", i), corpus.Article{Title: a.Title, Body: body}), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		last = v.ID
	}
	shared, err := svc.SharedSentences(ctx, last, service.DefaultSharedOptions)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(shared.Articles); n != 0 {
		t.Errorf("a line 20 articles hold, in two spellings, links %d others to the last, want none", n)
	}
}

// TestSharedSentences asks which sentences an article shares, all news and
// within a window.
func TestSharedSentences(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 10))
	os := novel(t).Originals(rng, 2, 1200, 2000)
	a, b := os[0], os[1]
	sa := corpus.SplitSentences(a.Body)
	// A commentary quoting three of a's sentences, published much later.
	commentary := b.Body + "\n" + sa[1] + sa[4] + sa[7]
	t0 := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
	report := input("report", a)
	report.PublishedAt = t0
	va, err := svc.Ingest(ctx, report, svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	in := input("commentary", corpus.Article{Title: b.Title, Body: commentary})
	in.PublishedAt = t0.Add(30 * 24 * time.Hour) // far outside the verdict's window
	vb, err := svc.Ingest(ctx, in, svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if vb.Status != service.StatusUnique {
		t.Fatalf("the commentary is %s; it quotes three sentences, want unique", vb.Status)
	}
	shared, err := svc.SharedSentences(ctx, vb.ID, service.DefaultSharedOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(shared.Articles) != 1 || shared.Articles[0].ID != va.ID || len(shared.Articles[0].Pairs) != 3 {
		t.Fatalf("shared sentences of the commentary = %+v, want the report with 3 sentences", shared)
	}
	for _, p := range shared.Articles[0].Pairs {
		if p.Text != p.OtherText || !strings.Contains(a.Body, strings.TrimSpace(p.OtherText)) || p.Distance != 0 {
			t.Errorf("pair %+v: want a sentence of the report, the same on both sides", p)
		}
	}
	if c := shared.Articles[0].Coverage; c.That <= 0 || c.That >= 0.5 || c.This <= 0 {
		t.Errorf("coverage %+v, want a small share both ways", c)
	}
	// The report, asked the other way round, finds the commentary: shared
	// sentences look at all stored news, later articles too; a window of a
	// week leaves it out.
	back, err := svc.SharedSentences(ctx, va.ID, service.DefaultSharedOptions)
	if err != nil || len(back.Articles) != 1 || back.Articles[0].ID != vb.ID {
		t.Errorf("shared sentences of the report = %+v, %v; want the commentary", back, err)
	}
	week := service.DefaultSharedOptions
	week.Window = 168 * time.Hour
	if within, err := svc.SharedSentences(ctx, va.ID, week); err != nil || len(within.Articles) != 0 {
		t.Errorf("shared sentences of the report within a week = %+v, %v; want none", within, err)
	}
}

// TestSentencesGoWithTheirArticle checks that an article's sentences are
// replaced with its content and removed with it.
func TestSentencesGoWithTheirArticle(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	os := novel(t).Originals(rand.New(rand.NewPCG(8, 10)), 2, 800, 1200)
	v, err := svc.Ingest(ctx, input("k", os[0]), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	count := func() int64 {
		return countRows(t, st, fmt.Sprintf(`SELECT count(*) FROM sentences WHERE article_id = %d`, v.ID))
	}
	first := count()
	if first < 5 {
		t.Fatalf("%d sentences stored for an article of 800 characters or more", first)
	}
	if _, err := svc.Ingest(ctx, input("k", os[1]), svc.Defaults()); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, st, fmt.Sprintf(`
		SELECT count(*) FROM sentences s JOIN articles a ON a.id = s.article_id
		WHERE a.id = %d AND strpos(a.body, substring(a.body FROM s.start_char + 1 FOR s.end_char - s.start_char)) = 0`, v.ID)); n != 0 {
		t.Errorf("%d sentences of the old content are left after new content", n)
	}
	if err := svc.DeleteArticle(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, st, `SELECT count(*) FROM sentences`); n != 0 {
		t.Errorf("%d sentences left behind by the deleted article", n)
	}
}

// TestSimultaneousPartialsFindEachOther posts 30 pairs at once, an article
// and its first 60 %: every pair must end linked, whichever arrives first.
func TestSimultaneousPartialsFindEachOther(t *testing.T) {
	const pairs = 30
	st := newStore(t, 2*pairs+5)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 10))
	os := novel(t).Originals(rng, pairs, 1500, 2500)

	start := make(chan struct{})
	verdicts := make([][2]service.Verdict, pairs)
	errs := make(chan error, 2*pairs)
	var wg sync.WaitGroup
	for i, a := range os {
		docs := [2]corpus.Article{a, {Title: "摘编", Body: firstShare(a.Body, 0.6)}}
		for j := range 2 {
			wg.Go(func() {
				<-start
				v, err := svc.Ingest(ctx, input(fmt.Sprintf("p-%d-%d", i, j), docs[j]), svc.Defaults())
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
		if !errors.Is(err, service.ErrConflict) {
			t.Fatal(err)
		}
	}
	for i, v := range verdicts {
		linked := (v[0].DuplicateOf != nil && v[0].DuplicateOf.ID == v[1].ID) || (v[1].DuplicateOf != nil && v[1].DuplicateOf.ID == v[0].ID)
		if !linked {
			t.Errorf("pair %d: %s and %s, neither links to the other", i, v[0].Status, v[1].Status)
		}
	}
	checkLinks(t, st)
}

// TestWithoutSentenceIndex checks that a service without the sentence index
// stores no sentence, and so finds no partial duplicate.
func TestWithoutSentenceIndex(t *testing.T) {
	st := newStore(t, 4)
	svc, err := service.New(st, algorithm(t), service.DefaultOptions, service.WithoutSentenceIndex())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a := novel(t).Originals(rand.New(rand.NewPCG(12, 10)), 1, 1500, 2500)[0]
	if _, err := svc.Ingest(ctx, input("a", a), svc.Defaults()); err != nil {
		t.Fatal(err)
	}
	v, err := svc.Ingest(ctx, input("excerpt", corpus.Article{Title: "摘要", Body: firstShare(a.Body, 0.6)}), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if v.Status == service.StatusPartialDuplicate {
		t.Errorf("without the sentence index, an excerpt is a partial duplicate")
	}
	if n := countRows(t, st, `SELECT count(*) FROM sentences`); n != 0 {
		t.Errorf("%d sentences stored without the sentence index", n)
	}
}
