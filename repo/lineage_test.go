package repo_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestLinksByPublication stores an original and its copies — exact copies,
// reposts with a portal's lines, a retitled one — in publication order and
// in shuffled orders, one at a time and in batches: each time every copy
// links to the original, the original heads the cluster, and
// duplicate_pairs says the same rows, whatever arrived first.
func TestLinksByPublication(t *testing.T) {
	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 2))
	story := nv.Originals(rng, 1, 1500, 2500)[0]
	t0 := time.Date(2026, 3, 1, 19, 30, 0, 0, time.UTC)
	items := []lineageItem{{"cctv", story, t0}}
	for i, a := range []corpus.Article{story, story, nv.Apply(rng, story, corpus.Light), nv.Apply(rng, story, corpus.Light),
		nv.Apply(rng, story, corpus.HeadlineChanged), {Title: story.Title, Body: "【搜狐新闻】" + story.Body + "\n（责任编辑：王芳）"}} {
		items = append(items, lineageItem{fmt.Sprintf("portal-%d", i), a, t0.Add(time.Duration(i+1) * 10 * time.Minute)})
	}
	run := func(t *testing.T, order []int, batch bool) []string {
		t.Helper()
		return storeLineage(t, items, order, batch)
	}

	inOrder := []int{0, 1, 2, 3, 4, 5, 6}
	want := run(t, inOrder, false)
	for _, line := range want[:len(items)] {
		if !strings.HasPrefix(line, "cctv ") && !strings.Contains(line, "of cctv ") {
			t.Fatalf("in publication order: %s, want every copy linked to the original", line)
		}
		if !strings.HasSuffix(line, "in cctv's cluster") {
			t.Fatalf("in publication order: %s, want the original's cluster", line)
		}
	}
	reverse := slices.Clone(inOrder)
	slices.Reverse(reverse)
	orders := [][]int{reverse}
	for range 3 {
		o := slices.Clone(inOrder)
		rng.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
		orders = append(orders, o)
	}
	for _, o := range orders {
		for _, batch := range []bool{false, true} {
			if got := run(t, o, batch); !slices.Equal(got, want) {
				t.Errorf("arrival order %v (batch %v):\n%s\nwant (publication order):\n%s", o, batch, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// TestPromotedHeadCorrectedAndRejudged: an original that arrived after its
// copies, and so heads them, is corrected and judged again; it sees its
// copies among the articles stored before it, and must not link to one of
// its own (a circle): it keeps heading them.
func TestPromotedHeadCorrectedAndRejudged(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 3))
	story := nv.Originals(rng, 1, 1500, 2500)[0]
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
	var copies []service.Verdict
	for i := range 3 {
		copies = append(copies, ingest(fmt.Sprintf("portal-%d", i), nv.Apply(rng, story, corpus.Light), t0.Add(time.Duration(i+1)*time.Hour)))
	}
	orig := ingest("cctv", story, t0)
	corrected := story
	corrected.Body += "\n更正：本文此前版本中的比分有误，现已更正。"
	if v := ingest("cctv", corrected, t0); v.ID != orig.ID {
		t.Fatalf("the correction is article %d, want the original %d corrected in place", v.ID, orig.ID)
	}
	if _, err := svc.Rejudge(ctx, orig.ID); err != nil {
		t.Fatal(err)
	}
	if a := mustFind(t, svc, orig.ID); a.DuplicateOf != 0 || a.ClusterID != orig.ID {
		t.Fatalf("the corrected original links to %d in cluster %d, want it heading its own", a.DuplicateOf, a.ClusterID)
	}
	for _, c := range copies {
		if a := mustFind(t, svc, c.ID); a.DuplicateOf != orig.ID || a.ClusterID != orig.ID {
			t.Errorf("copy %d links to %d in cluster %d, want the original %d", c.ID, a.DuplicateOf, a.ClusterID, orig.ID)
		}
	}
}

// lineageItem is an article of a lineage test, its source and publication.
type lineageItem struct {
	source string
	a      corpus.Article
	at     time.Time
}

// checkEveryOrder stores items in each of orders, one at a time and in one
// batch, and checks that the lineage is want, that of publication order.
func checkEveryOrder(t *testing.T, items []lineageItem, orders [][]int, want []string) {
	t.Helper()
	for _, o := range orders {
		for _, batch := range []bool{false, true} {
			if got := storeLineage(t, items, o, batch); !slices.Equal(got, want) {
				t.Errorf("arrival order %v (batch %v):\n%s\nwant (publication order):\n%s", o, batch, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// storeLineage stores items in order, one at a time or as one batch, on a
// fresh database and returns each article's stored link and cluster head,
// by source, then the rows of duplicate_pairs.
func storeLineage(t *testing.T, items []lineageItem, order []int, batch bool) []string {
	t.Helper()
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	in := func(i int) service.ArticleInput {
		a := keyed(items[i].source, "k", items[i].a)
		a.PublishedAt = items[i].at
		return a
	}
	if batch {
		var b []service.BatchItem
		for _, i := range order {
			b = append(b, service.BatchItem{Article: in(i), Options: svc.Defaults()})
		}
		rs, err := svc.IngestBatch(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
		}
	} else {
		for _, i := range order {
			if _, err := svc.Ingest(ctx, in(i), svc.Defaults()); err != nil {
				t.Fatal(err)
			}
		}
	}
	dbtest.CheckOriginals(t, st.Pool())
	rows, err := st.Pool().Query(ctx, `
		SELECT a.source, a.status, coalesce(o.source, '-'), coalesce(a.distance, -1), coalesce(round(a.overlap::numeric, 4), -1),
		       (SELECT h.source FROM articles h WHERE h.id = a.cluster_id)
		FROM articles a LEFT JOIN articles o ON o.id = a.duplicate_of ORDER BY a.source`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var src, status, of, head string
		var dist int
		var overlap float64
		if err := rows.Scan(&src, &status, &of, &dist, &overlap, &head); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %s of %s (%d bits, %.4f) in %s's cluster", src, status, of, dist, overlap, head))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var dp []string
	prows, err := st.Pool().Query(ctx, `SELECT article_source || ' copied ' || original_source || ' ' || (published_after >= interval '0')::text FROM duplicate_pairs ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	for prows.Next() {
		var s string
		if err := prows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		dp = append(dp, s)
	}
	return append(got, dp...)
}

// TestPartialCopiesBeforeTheirOriginal: partial copies of a story — an
// excerpt, the story with a fifth of its sentences dropped — and a repost
// arrive before the story they copy, published earlier. Once it arrives it
// heads them all, each linked as in publication order, whatever arrived
// first, one at a time and in batches; duplicate_pairs says the same rows.
func TestPartialCopiesBeforeTheirOriginal(t *testing.T) {
	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 4))
	story := nv.Originals(rng, 1, 1500, 2500)[0]
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
	t0 := time.Date(2026, 3, 1, 19, 30, 0, 0, time.UTC)
	items := []lineageItem{
		{"cctv", story, t0},
		{"portal-repost", nv.Apply(rng, story, corpus.Light), t0.Add(10 * time.Minute)},
		{"portal-excerpt", corpus.Article{Title: "节选：" + story.Title, Body: strings.Join(sentences[len(sentences)/4:len(sentences)/4+len(sentences)*2/5], "")}, t0.Add(20 * time.Minute)},
		{"portal-dropped", corpus.Article{Title: story.Title, Body: strings.Join(dropped, "")}, t0.Add(30 * time.Minute)},
	}
	inOrder := []int{0, 1, 2, 3}
	want := storeLineage(t, items, inOrder, false)
	for _, line := range want[:len(items)] {
		if !strings.HasSuffix(line, "in cctv's cluster") {
			t.Fatalf("in publication order: %s, want the original's cluster\n%s", line, strings.Join(want, "\n"))
		}
	}
	if !slices.ContainsFunc(want, func(l string) bool { return strings.HasPrefix(l, "portal-excerpt partial_duplicate of cctv ") }) {
		t.Fatalf("in publication order the excerpt does not copy the original:\n%s", strings.Join(want, "\n"))
	}
	orders := [][]int{{2, 0, 1, 3}, {3, 0, 1, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}}
	for range 2 {
		o := slices.Clone(inOrder)
		rng.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
		orders = append(orders, o)
	}
	checkEveryOrder(t, items, orders, want)
}

// TestPartialCopyOfACopyBeforeIt: a story, a longer version of it (the
// story plus other paragraphs, a partial duplicate of the story) and an
// excerpt of those other paragraphs, published in that order: the excerpt
// links to the longer version, which links to the story, as in publication
// order, in every arrival order, one at a time and in one batch: also when
// the excerpt is stored before the longer version, and when both are
// stored before the story — the excerpt moves with the longer version
// into the story's cluster and is placed again by the drift rule
// (replaceMoved), heading its own as in publication order; in a batch a
// group whose article may have a later copy in it is stored one by one.
func TestPartialCopyOfACopyBeforeIt(t *testing.T) {
	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 5))
	texts := nv.Originals(rng, 2, 1500, 2500)
	story, other := texts[0], texts[1]
	sentences := strings.SplitAfter(other.Body, "。")
	if len(sentences) < 20 {
		t.Fatalf("the fixture: a text of %d sentences, want 20 or more", len(sentences))
	}
	t0 := time.Date(2026, 3, 1, 19, 30, 0, 0, time.UTC)
	items := []lineageItem{
		{"cctv", story, t0},
		{"portal-longer", corpus.Article{Title: story.Title, Body: story.Body + "\n" + other.Body}, t0.Add(10 * time.Minute)},
		{"portal-excerpt", corpus.Article{Title: "节选", Body: strings.Join(sentences[:len(sentences)/2], "")}, t0.Add(20 * time.Minute)},
	}
	want := storeLineage(t, items, []int{0, 1, 2}, false)
	for _, w := range []string{"portal-longer partial_duplicate of cctv ", "portal-excerpt partial_duplicate of portal-longer "} {
		if !slices.ContainsFunc(want, func(l string) bool { return strings.HasPrefix(l, w) }) {
			t.Fatalf("in publication order, no %q:\n%s", w, strings.Join(want, "\n"))
		}
	}
	checkEveryOrder(t, items, [][]int{{2, 0, 1}, {0, 2, 1}, {1, 0, 2}, {0, 1, 2}, {2, 1, 0}, {1, 2, 0}}, want)
}

// TestNoPartialLinkToALaterArticle: two bulletins a day apart share about
// two thirds of the earlier one's text — enough for it to be a partial
// duplicate of the later one — but not most of the later one's, which
// holds a third article whole. In publication order the later one is a
// partial duplicate of that third one, and the earlier one of none: the
// later one, judged from its side, copies too little of it. So it must be
// whatever the arrival order, one at a time and in a batch: the earlier
// one, arriving after the later one that is in another's cluster, is no
// partial duplicate of an article published after it.
func TestNoPartialLinkToALaterArticle(t *testing.T) {
	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 6))
	texts := nv.Originals(rng, 2, 1500, 2500)
	x, y := strings.SplitAfter(texts[0].Body, "。"), strings.SplitAfter(texts[1].Body, "。")
	if len(x) < 20 || len(y) < 20 {
		t.Fatalf("the fixture: texts of %d and %d sentences, want 20 or more", len(x), len(y))
	}
	first := x[:20]
	runes := func(ss []string) int { return utf8.RuneCountInString(strings.Join(ss, "")) }
	k := 1
	for float64(runes(first[:k])) < 0.65*float64(runes(first)) {
		k++
	}
	t0 := time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC)
	items := []lineageItem{
		{"xinhua", corpus.Article{Title: texts[1].Title, Body: strings.Join(y[:20], "")}, t0.Add(-time.Hour)},
		{"cctv-sun", corpus.Article{Title: "新闻联播 周日", Body: strings.Join(first, "")}, t0},
		{"cctv-mon", corpus.Article{Title: "新闻联播 周一", Body: strings.Join(first[:k], "") + strings.Join(y[:20], "")}, t0.Add(24 * time.Hour)},
	}
	want := storeLineage(t, items, []int{0, 1, 2}, false)
	for _, w := range []string{"cctv-mon partial_duplicate of xinhua ", "cctv-sun unique of - "} {
		if !slices.ContainsFunc(want, func(l string) bool { return strings.HasPrefix(l, w) }) {
			t.Fatalf("in publication order, no %q:\n%s", w, strings.Join(want, "\n"))
		}
	}
	checkEveryOrder(t, items, [][]int{{0, 2, 1}, {2, 1, 0}, {2, 0, 1}}, want)
}

// TestOriginalHeadsLaterCopiesInTwoClusters: two bulletins of one title,
// each keeping 11 of an earlier one's 20 sentences (6 of them shared with
// each other) and adding 9 of their own, arrive before it: they are not
// near each other, so each is stored heading its own cluster, and neither
// keeps enough of it to be its partial copy. The earlier bulletin, near
// both, arrives last. Each links to it, as in publication order, not only
// the one in its best match's cluster (a real case: docs/reporting.md,
// cctv-xwlb-20230720-4232).
func TestOriginalHeadsLaterCopiesInTwoClusters(t *testing.T) {
	x, y, z, _ := bulletinTexts(t, 9, 9)
	j := func(a, b []string) string { return strings.Join(a, "") + strings.Join(b, "") }
	t0 := time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC)
	items := []lineageItem{
		{"cctv-mon", corpus.Article{Title: bulletinTitle, Body: strings.Join(x[:20], "")}, t0},
		{"cctv-tue", corpus.Article{Title: bulletinTitle, Body: j(x[1:12], y[:9])}, t0.Add(24 * time.Hour)},
		{"cctv-wed", corpus.Article{Title: bulletinTitle, Body: j(x[6:17], z[:9])}, t0.Add(48 * time.Hour)},
	}
	want := storeLineage(t, items, []int{0, 1, 2}, false)
	for _, w := range []string{"cctv-tue near_duplicate of cctv-mon ", "cctv-wed near_duplicate of cctv-mon "} {
		if !slices.ContainsFunc(want, func(l string) bool { return strings.HasPrefix(l, w) }) {
			t.Fatalf("in publication order, no %q:\n%s", w, strings.Join(want, "\n"))
		}
	}
	for _, o := range [][]int{{2, 1, 0}, {1, 2, 0}} {
		if got := storeLineage(t, items, o, false); !slices.Equal(got, want) {
			t.Errorf("arrival order %v:\n%s\nwant (publication order):\n%s", o, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// runTogether turns a text's sentence ends into commas, as a bulletin runs
// a story's sentences together: its sentences are none of the story's.
var runTogether = strings.NewReplacer("。", "，", "！", "，", "？", "，", "；", "，", "\n", "，")

// byIndex reports how the article index measures x and y: a match (within
// 3 bits, sharing half the shorter text), and a near one (half of both,
// neither holding the other plus much more).
func byIndex(t *testing.T, x, y corpus.Article) (match, near bool) {
	fx, fy := mustFingerprint(t, x), mustFingerprint(t, y)
	xInY, yInX := fingerprint.Coverage(fx.Shingles, fy.Shingles)
	overlap, longer := max(xInY, yInX), min(xInY, yInX)
	match = fingerprint.Distance(fx.Simhash, fy.Simhash) <= 3 && overlap >= 0.5
	return match, match && longer >= 0.5 && !(overlap >= service.HoldShare && longer < service.HoldShare)
}

// bulletinTitle is the title every bulletin of the bulletin tests bears.
const bulletinTitle = "新闻联播 今日要闻"

// bulletinTexts are the sentences of three stories the bulletin tests cut
// their bulletins from — x of 20 sentences or more, y of ny, z of nz — and
// a fourth story, unrelated.
func bulletinTexts(t *testing.T, ny, nz int) (x, y, z []string, other corpus.Article) {
	t.Helper()
	texts := novel(t).Originals(rand.New(rand.NewPCG(47, 7)), 8, 1500, 2500)
	x, y, z = strings.SplitAfter(texts[0].Body, "。"), strings.SplitAfter(texts[1].Body, "。"), strings.SplitAfter(texts[3].Body, "。")
	if len(x) < 20 || len(y) < ny || len(z) < nz {
		t.Fatalf("the fixture: texts of %d, %d and %d sentences, want 20, %d and %d or more", len(x), len(y), len(z), ny, nz)
	}
	return x, y, z, texts[5]
}

// TestLaterPartialMatchesByTheIndex: three bulletins of one title. Tuesday's
// keeps 11 of Monday's 20 sentences and adds 9: a near duplicate.
// Wednesday's runs 8 others of Monday's together in one sentence and adds 4
// of its own: Monday's partial match by the article index alone (it shares
// no sentence with it), and no match of Tuesday's. In publication order
// Tuesday's is a near duplicate of Monday's and Wednesday's a partial one.
// So it must be whatever the arrival order, one at a time and in a batch:
// when Monday's arrives last it heads Tuesday's cluster and Wednesday's
// too, which heads its own (left unique beside the near one before,
// cctv-xwlb-20221128-951 in docs/reporting.md); and in a batch where
// Wednesday's arrives just before Monday's, Monday's partial step keeps
// Wednesday's left out as a later match, so that the batch is stored one
// by one and Monday's heads it (cctv-xwlb-20260717-19424).
func TestLaterPartialMatchesByTheIndex(t *testing.T) {
	x, y, z, other := bulletinTexts(t, 9, 4)
	mon := corpus.Article{Title: bulletinTitle, Body: strings.Join(x[:20], "")}
	tue := corpus.Article{Title: bulletinTitle, Body: strings.Join(x[1:12], "") + strings.Join(y[:9], "")}
	wed := corpus.Article{Title: bulletinTitle, Body: runTogether.Replace(strings.Join(x[12:20], "")) + "\n" + strings.Join(z[:4], "")}
	if _, near := byIndex(t, mon, tue); !near {
		t.Fatal("the fixture: Tuesday's is no near match of Monday's")
	}
	if match, near := byIndex(t, mon, wed); !match || near {
		t.Fatalf("the fixture: Wednesday's is a match of Monday's %v, near %v; want a partial match", match, near)
	}
	if match, _ := byIndex(t, tue, wed); match {
		t.Fatal("the fixture: Wednesday's is a match of Tuesday's")
	}
	t0 := time.Date(2022, 11, 28, 19, 0, 0, 0, time.UTC)
	// An unrelated story arrives first, so that a batch's groups (1, 2, 4
	// articles) hold Wednesday's and Monday's together.
	items := []lineageItem{{"cctv-mon", mon, t0}, {"cctv-tue", tue, t0.Add(24 * time.Hour)}, {"cctv-wed", wed, t0.Add(48 * time.Hour)},
		{"xinhua", other, t0.Add(-time.Hour)}}
	want := storeLineage(t, items, []int{3, 0, 1, 2}, false)
	for _, w := range []string{"cctv-tue near_duplicate of cctv-mon ", "cctv-wed partial_duplicate of cctv-mon "} {
		if !slices.ContainsFunc(want, func(l string) bool { return strings.HasPrefix(l, w) }) {
			t.Fatalf("in publication order, no %q:\n%s", w, strings.Join(want, "\n"))
		}
	}
	checkEveryOrder(t, items, [][]int{{3, 2, 1, 0}, {3, 1, 2, 0}, {3, 2, 0, 1}}, want)
}

// byIndexCloseness is how the article index ranks y as x's match: its
// differing bits, shared text (of the shorter) and shared words.
func byIndexCloseness(t *testing.T, x, y corpus.Article) (bits int, overlap, words float64) {
	fx, fy := mustFingerprint(t, x), mustFingerprint(t, y)
	xInY, yInX := fingerprint.Coverage(fx.Shingles, fy.Shingles)
	return fingerprint.Distance(fx.Simhash, fy.Simhash), max(xInY, yInX), fingerprint.Ratio(fx.Words, fy.Words)
}

// TestPartialMovesToACloserEarlierHead: Monday's bulletin, Thursday's
// keeping most of it (a near duplicate) and Saturday's running 8 of
// Monday's sentences together with 2 of its own: a partial match by the
// article index of Monday's and of Thursday's, Monday's as close or closer.
// In publication order Saturday's links to Monday's, the earliest of the
// closest. Reversed, Thursday's arrives after Saturday's and heads it;
// Monday's, arriving last, heads Thursday's cluster and moves Saturday's
// to itself, as the partial rule would have chosen had it been stored
// (cctv-xwlb-20221029-498 in docs/reporting.md).
func TestPartialMovesToACloserEarlierHead(t *testing.T) {
	x, y, z, _ := bulletinTexts(t, 5, 2)
	mon := corpus.Article{Title: bulletinTitle, Body: strings.Join(x[:20], "")}
	thu := corpus.Article{Title: bulletinTitle, Body: strings.Join(x[4:18], "") + strings.Join(y[:5], "")}
	sat := corpus.Article{Title: bulletinTitle, Body: runTogether.Replace(strings.Join(x[12:20], "")) + "\n" + strings.Join(z[:2], "")}
	if _, near := byIndex(t, mon, thu); !near {
		t.Fatal("the fixture: Thursday's is no near match of Monday's")
	}
	for _, o := range []corpus.Article{mon, thu} {
		if match, near := byIndex(t, o, sat); !match || near {
			t.Fatalf("the fixture: Saturday's is a match %v, near %v; want a partial match of Monday's and Thursday's", match, near)
		}
	}
	mb, mo, mw := byIndexCloseness(t, sat, mon)
	tb, to, tw := byIndexCloseness(t, sat, thu)
	t.Logf("Saturday's to Monday's: %d bits, %.3f, %.3f; to Thursday's: %d bits, %.3f, %.3f", mb, mo, mw, tb, to, tw)
	if cmp.Or(cmp.Compare(mb, tb), -cmp.Compare(mo, to), -cmp.Compare(mw, tw)) > 0 {
		t.Fatal("the fixture: Thursday's is Saturday's closer match")
	}
	t0 := time.Date(2022, 10, 26, 19, 0, 0, 0, time.UTC)
	items := []lineageItem{{"cctv-mon", mon, t0}, {"cctv-thu", thu, t0.Add(72 * time.Hour)}, {"cctv-sat", sat, t0.Add(120 * time.Hour)}}
	want := storeLineage(t, items, []int{0, 1, 2}, false)
	for _, w := range []string{"cctv-thu near_duplicate of cctv-mon ", "cctv-sat partial_duplicate of cctv-mon "} {
		if !slices.ContainsFunc(want, func(l string) bool { return strings.HasPrefix(l, w) }) {
			t.Fatalf("in publication order, no %q:\n%s", w, strings.Join(want, "\n"))
		}
	}
	checkEveryOrder(t, items, [][]int{{2, 1, 0}, {1, 2, 0}}, want)
}
