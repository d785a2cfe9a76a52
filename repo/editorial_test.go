package repo_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
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

var editor = service.DecisionInput{Editor: "王芳", Note: "不是同一篇报道"}

// splitFixture is a cluster of four: head (the original), exact (an exact
// copy of it), x (a repost linking to the head) and y (an exact copy of
// x, linking to x).
type splitFixture struct {
	st                   *repo.Store
	svc                  *service.Service
	original, repost     corpus.Article
	head, exact, x, y    service.Verdict
	xInput, editedXInput service.ArticleInput
}

func newSplitFixture(t *testing.T) *splitFixture {
	t.Helper()
	f := &splitFixture{st: newStore(t, 4)}
	f.svc = newService(t, f.st)
	p := nearPairs(t, 1)[0]
	f.original, f.repost = p[0], p[1]
	f.head = f.ingest(t, "xinhua", "x-1", f.original)
	f.exact = f.ingest(t, "sina", "s-1", f.original)
	f.x = f.ingest(t, "163", "n-1", f.repost)
	f.y = f.ingest(t, "qq", "q-1", f.repost)
	if f.exact.DuplicateOf.ID != f.head.ID || f.x.DuplicateOf.ID != f.head.ID || f.y.DuplicateOf.ID != f.x.ID {
		t.Fatalf("fixture: links %d→%d, %d→%d, %d→%d; want the copy and the repost on the head, its copy on the repost",
			f.exact.ID, f.exact.DuplicateOf.ID, f.x.ID, f.x.DuplicateOf.ID, f.y.ID, f.y.DuplicateOf.ID)
	}
	f.xInput = keyed("163", "n-1", f.repost)
	// A slightly edited repost: a line of its own more, still near the head.
	edited := f.repost
	edited.Body += "\n（本文转载自合作媒体，编辑：李明）"
	f.editedXInput = keyed("163", "n-1", edited)
	return f
}

func keyed(source, id string, a corpus.Article) service.ArticleInput {
	in := input(id, a)
	in.Source = source
	return in
}

// mustIngest ingests a under source and key with the service's defaults.
func mustIngest(t *testing.T, svc *service.Service, source, key string, a corpus.Article) service.Verdict {
	t.Helper()
	v, err := svc.Ingest(context.Background(), keyed(source, key, a), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (f *splitFixture) ingest(t *testing.T, source, id string, a corpus.Article) service.Verdict {
	t.Helper()
	v, err := f.svc.Ingest(context.Background(), keyed(source, id, a), f.svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSplitKeepsApartOnReingest splits the repost out of its cluster and
// re-ingests it, with the same and with an edited text: it never links to
// the cluster it left, though it would without the split.
func TestSplitKeepsApartOnReingest(t *testing.T) {
	f := newSplitFixture(t)
	ctx := context.Background()
	svc := f.svc

	// Without a split, the edited repost is a near duplicate of the head.
	if v, err := svc.Check(ctx, keyed("other", "", f.editedXInputArticle()), svc.Defaults()); err != nil || v.DuplicateOf == nil || v.ClusterID != f.head.ID {
		t.Fatalf("check of the edited repost: %+v, %v; want a duplicate in cluster %d", v, err, f.head.ID)
	}

	res, err := svc.Split(ctx, f.head.ID, f.x.ID, editor)
	if err != nil {
		t.Fatal(err)
	}
	if res.ClusterID != f.x.ID || !slices.Equal(res.Moved, []int64{f.x.ID, f.y.ID}) || res.Separated != 4 {
		t.Errorf("split: %+v; want cluster %d, moved [%d %d], 4 pairs separated", res, f.x.ID, f.x.ID, f.y.ID)
	}
	if d := res.Decision; d.Action != service.ActionSplit || d.Editor != "王芳" || d.ArticleExternalID != "n-1" || d.ClusterID != f.head.ID {
		t.Errorf("split decision: %+v", d)
	}
	x, y := mustFind(t, svc, f.x.ID), mustFind(t, svc, f.y.ID)
	if !x.IsCanonical() || x.Status != service.StatusUnique || x.ClusterID != f.x.ID || y.ClusterID != f.x.ID || y.DuplicateOf != f.x.ID {
		t.Errorf("after the split: x %+v, y %+v; want x heading a cluster with y linking to it", x, y)
	}
	for _, id := range []int64{f.head.ID, f.exact.ID} {
		if a := mustFind(t, svc, id); a.ClusterID != f.head.ID {
			t.Errorf("article %d left cluster %d: %+v", id, f.head.ID, a)
		}
	}
	checkLinks(t, f.st)
	checkSeparations(t, f.st)

	// The same text again: the stored verdict, still apart.
	v, err := svc.Ingest(ctx, f.xInput, svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if v.Created || v.ClusterID != f.x.ID || v.Status != service.StatusUnique {
		t.Errorf("re-ingest with the same text: %+v; want the stored verdict, unique in cluster %d", v, f.x.ID)
	}
	for _, m := range v.Matches {
		if m.ID == f.head.ID || m.ID == f.exact.ID {
			t.Errorf("re-ingest with the same text matched %d, which it was separated from", m.ID)
		}
	}

	// An edited text: judged again, and never linked to what it was split
	// from (it may link to its own copy, y, which went with it).
	v, err = svc.Ingest(ctx, f.editedXInput, svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if !v.Created || v.ID != f.x.ID || v.ClusterID == f.head.ID || (v.DuplicateOf != nil && v.DuplicateOf.ID != f.y.ID) {
		t.Errorf("re-ingest with an edited text: %+v; want it kept apart from cluster %d", v, f.head.ID)
	}
	// So is a check of its key; a new key, which no editor separated, is not.
	c, err := svc.Check(ctx, f.editedXInput, svc.Defaults())
	if err != nil || c.ClusterID == f.head.ID {
		t.Errorf("check of the split key: cluster %d, %v; want apart from %d", c.ClusterID, err, f.head.ID)
	}
	checkLinks(t, f.st)
	checkSeparations(t, f.st)

	// The copy that went with it, re-ingested with new text, stays apart too.
	other := f.original
	other.Body += "\n（来源：本台）"
	v, err = svc.Ingest(ctx, keyed("qq", "q-1", other), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if v.ClusterID == f.head.ID {
		t.Errorf("the split-out copy re-ingested with the original's text joined cluster %d: %+v", f.head.ID, v)
	}
	checkLinks(t, f.st)
	checkSeparations(t, f.st)

	// The decision is in the log of both clusters.
	view, err := svc.Cluster(ctx, f.head.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Decisions) != 1 || view.Decisions[0].ID != res.Decision.ID || view.Size != 2 {
		t.Errorf("cluster %d after the split: size %d, decisions %+v", f.head.ID, view.Size, view.Decisions)
	}
}

func (f *splitFixture) editedXInputArticle() corpus.Article {
	return corpus.Article{Title: f.editedXInput.Title, Body: f.editedXInput.Body}
}

// TestSplitHead splits the head out: it stays, alone, and the articles that
// linked to it are judged again without it.
func TestSplitHead(t *testing.T) {
	f := newSplitFixture(t)
	ctx := context.Background()
	res, err := f.svc.Split(ctx, f.head.ID, f.head.ID, editor)
	if err != nil {
		t.Fatal(err)
	}
	if res.ClusterID != f.head.ID || res.Separated != 3 || !slices.Equal(res.Moved, []int64{f.head.ID}) {
		t.Errorf("split of the head: %+v; want it alone, 3 pairs separated", res)
	}
	view, err := f.svc.Cluster(ctx, f.head.ID)
	if err != nil || view.Size != 1 {
		t.Errorf("the head's cluster after the split: size %d, %v; want 1", view.Size, err)
	}
	// The exact copy heads the rest now: the repost links to it.
	if a := mustFind(t, f.svc, f.exact.ID); !a.IsCanonical() {
		t.Errorf("the exact copy after the head split out: %+v, want a head", a)
	}
	for _, id := range []int64{f.x.ID, f.y.ID} {
		if a := mustFind(t, f.svc, id); a.ClusterID != f.exact.ID {
			t.Errorf("article %d is in cluster %d, want %d", id, a.ClusterID, f.exact.ID)
		}
	}
	// Re-ingesting the original's text under the copy's key keeps it away
	// from the head it was split from.
	v, err := f.svc.Ingest(ctx, keyed("sina", "s-1", corpus.Article{Title: f.original.Title, Body: f.original.Body + "\n（编辑：张三）"}), f.svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if v.ClusterID == f.head.ID {
		t.Errorf("the copy, re-ingested, joined the head it was split from: %+v", v)
	}
	if _, err := f.svc.Split(ctx, f.head.ID, f.head.ID, editor); !errors.Is(err, service.ErrInvalid) {
		t.Errorf("split of an article alone: %v, want invalid", err)
	}
	checkLinks(t, f.st)
	checkSeparations(t, f.st)
}

// TestKeepAndReset keeps a member against the rule, then returns the
// cluster to the rule; the decisions are logged.
func TestKeepAndReset(t *testing.T) {
	f := newSplitFixture(t)
	ctx := context.Background()
	svc := f.svc
	if err := svc.SetKeepPolicy(service.KeepPolicy{Sources: []string{"xinhua"}}); err != nil {
		t.Fatal(err)
	}
	view, err := svc.Cluster(ctx, f.head.ID)
	if err != nil {
		t.Fatal(err)
	}
	if view.Kept.ID != f.head.ID || view.Kept.Rule != service.KeepBySource || view.Size != 4 || len(view.Members) != 4 {
		t.Fatalf("cluster: kept %+v, size %d; want the xinhua head by source, 4 members", view.Kept, view.Size)
	}
	if l, ok := view.Likeness[f.y.ID]; !ok || l.Distance != f.x.DuplicateOf.Distance || l.Coverage <= 0 {
		t.Errorf("likeness of the repost's copy with the kept head: %+v, %v", l, ok)
	}

	d, err := svc.Keep(ctx, f.head.ID, f.x.ID, editor)
	if err != nil {
		t.Fatal(err)
	}
	view, err = svc.Cluster(ctx, f.head.ID)
	if err != nil {
		t.Fatal(err)
	}
	if view.Kept.ID != f.x.ID || view.Kept.Rule != service.KeepByEditor || view.Kept.By.ID != d.ID || view.Kept.By.Editor != "王芳" {
		t.Errorf("after keep: %+v, want %d kept by 王芳", view.Kept, f.x.ID)
	}
	page, err := svc.Clusters(ctx, service.ClusterQuery{Limit: 10})
	if err != nil || len(page.Clusters) != 1 || page.Clusters[0].Kept.ID != f.x.ID || page.Clusters[0].KeptMember.ExternalID != "n-1" {
		t.Errorf("list after keep: %+v, %v", page, err)
	}

	// Keeping another withdraws the first choice.
	if _, err := svc.Keep(ctx, f.head.ID, f.exact.ID, service.DecisionInput{Editor: "李明"}); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, f.st, `SELECT count(*) FROM kept_articles`); n != 1 {
		t.Errorf("%d choices in force, want 1", n)
	}
	if _, err := svc.ResetKept(ctx, f.head.ID, editor); err != nil {
		t.Fatal(err)
	}
	view, err = svc.Cluster(ctx, f.head.ID)
	if err != nil {
		t.Fatal(err)
	}
	if view.Kept.Rule != service.KeepBySource || len(view.Decisions) != 3 || view.Decisions[0].Action != service.ActionReset {
		t.Errorf("after reset: kept %+v, decisions %+v; want the rule again and 3 decisions, reset first", view.Kept, view.Decisions)
	}

	// Errors.
	other := f.ingest(t, "people", "p-1", nearPairs(t, 2)[1][0])
	for _, tt := range []struct {
		name             string
		cluster, article int64
		want             error
	}{
		{"an article of another cluster", f.head.ID, other.ID, service.ErrInvalid},
		{"no such cluster", 999_999, f.x.ID, service.ErrNotFound},
		{"a member is not a cluster", f.x.ID, f.x.ID, service.ErrNotFound},
		{"no such article", f.head.ID, 999_999, service.ErrNotFound},
	} {
		if _, err := svc.Keep(ctx, tt.cluster, tt.article, editor); !errors.Is(err, tt.want) {
			t.Errorf("keep, %s: %v, want %v", tt.name, err, tt.want)
		}
		if _, err := svc.Split(ctx, tt.cluster, tt.article, editor); !errors.Is(err, tt.want) {
			t.Errorf("split, %s: %v, want %v", tt.name, err, tt.want)
		}
	}
	if _, err := svc.Keep(ctx, f.head.ID, f.x.ID, service.DecisionInput{}); !errors.Is(err, service.ErrInvalid) {
		t.Errorf("keep without an editor: %v, want invalid", err)
	}

	// A deleted article leaves its key in the log, and its choice goes.
	if _, err := svc.Keep(ctx, f.head.ID, f.y.ID, editor); err != nil {
		t.Fatal(err)
	}
	if err := svc.DeleteArticle(ctx, f.y.ID); err != nil {
		t.Fatal(err)
	}
	var key string
	var article *int64
	if err := f.st.Pool().QueryRow(ctx, `SELECT article_external_id, article_id FROM editor_decisions ORDER BY id DESC LIMIT 1`).Scan(&key, &article); err != nil {
		t.Fatal(err)
	}
	if key != "q-1" || article != nil || countRows(t, f.st, `SELECT count(*) FROM kept_articles`) != 0 {
		t.Errorf("after deleting the kept article: key %q, article %v, choices %d", key, article, countRows(t, f.st, `SELECT count(*) FROM kept_articles`))
	}
}

// TestClusterKeptViewAgrees loads clusters of varied sources, lengths,
// times and partial duplicates straight into the table and holds the
// analysts' view cluster_kept to the service's keep rule, with and without
// preferred sources and editors' choices.
func TestClusterKeptViewAgrees(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(14, 6))
	sources := []string{"xinhua", "people", "sina", "163", "qq"}
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

	var heads []int64
	for c := range 60 {
		size := 2 + rng.IntN(5)
		rows := make([]repo.CopyRow, size)
		for i := range rows {
			length := 200 + rng.IntN(4)*5 // lengths near each other: the 5% tolerance matters
			if rng.IntN(3) == 0 {
				length = 100 + rng.IntN(400)
			}
			if c%3 == 0 && i == size-1 { // the partial duplicate below, often the longest
				length = 150 + rng.IntN(500)
			}
			body := make([]rune, length)
			for j := range body {
				body[j] = rune('一' + rng.IntN(500))
			}
			contentType := service.ContentText
			text := string(body)
			if rng.IntN(4) == 0 { // markup does not count
				contentType = service.ContentHTML
				text = "<p>" + string(body[:length/2]) + "</p><script>var x = 1;</script><!-- note --><p>" + string(body[length/2:]) + "</p>"
			}
			rows[i] = repo.CopyRow{Body: text, Article: fixtureArticle(fmt.Sprintf("c%d-%d", c, i), sources[rng.IntN(len(sources))],
				day.Add(time.Duration(rng.IntN(6))*time.Hour), contentType, rng)}
		}
		ids := copyCluster(t, st, rows)
		heads = append(heads, ids[0])
		// In half the clusters the members share text (ranges of one set of
		// 5-grams, a footer some of them share), so that how much of the
		// story each holds decides, as in the service.
		if c%2 == 0 {
			for i, id := range ids {
				from, to := int32(rng.IntN(60)), int32(150+rng.IntN(200))
				var sh []int32
				for g := from; g < to; g++ {
					sh = append(sh, g)
				}
				if i%3 == 1 {
					for g := int32(1000); g < 1080; g++ {
						sh = append(sh, g)
					}
				}
				if _, err := st.Pool().Exec(ctx, `UPDATE articles SET shingles = $2 WHERE id = $1`, id, sh); err != nil {
					t.Fatal(err)
				}
			}
		}
		// In a third of the clusters, the last member is a partial
		// duplicate, at and around the coverages that make it hold the
		// head plus much more (a digest: not counted as complete).
		if c%3 == 0 {
			cov := [][2]float32{{0.3, 1}, {0.79, 0.8}, {0.8, 0.9}, {0.2, 0.79}, {0.7, 0.7}, {0.1, 1}}[c/3%6]
			if _, err := st.Pool().Exec(ctx, `UPDATE articles SET status = 'partial_duplicate', coverage_this = $2, coverage_that = $3 WHERE id = $1`,
				ids[len(ids)-1], cov[0], cov[1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Editors decide in some clusters.
	for _, h := range heads[:10] {
		view, err := svc.Cluster(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Keep(ctx, h, view.Members[len(view.Members)-1].ID, editor); err != nil {
			t.Fatal(err)
		}
	}

	for _, policy := range []service.KeepPolicy{{}, {Sources: []string{"people", "xinhua"}}, {Sources: []string{"qq"}}} {
		if err := svc.SetKeepPolicy(policy); err != nil {
			t.Fatal(err)
		}
		if err := svc.RecordKeepPolicy(ctx); err != nil {
			t.Fatal(err)
		}
		rules := map[service.KeepRule]int{}
		for _, h := range heads {
			view, err := svc.Cluster(ctx, h)
			if err != nil {
				t.Fatal(err)
			}
			var keptID int64
			var rule string
			if err := st.Pool().QueryRow(ctx, `SELECT kept_id, rule FROM cluster_kept WHERE cluster_id = $1`, h).Scan(&keptID, &rule); err != nil {
				t.Fatal(err)
			}
			if keptID != view.Kept.ID || rule != string(view.Kept.Rule) {
				t.Errorf("policy %v, cluster %d: the view keeps %d by %s, the service %d by %s (%s)",
					policy.Sources, h, keptID, rule, view.Kept.ID, view.Kept.Rule, view.Kept.Reason)
			}
			rules[view.Kept.Rule]++
		}
		t.Logf("policy %v: %v", policy.Sources, rules)
	}
	if n := countRows(t, st, `SELECT count(*) FROM cluster_kept`); n != int64(len(heads)) {
		t.Errorf("cluster_kept has %d rows, want one per cluster of two or more, %d", n, len(heads))
	}
	// The view cluster_original names the service's original.
	for _, h := range heads {
		view, err := svc.Cluster(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		var originalID int64
		var copies int
		if err := st.Pool().QueryRow(ctx, `SELECT original_id, copies FROM cluster_original WHERE cluster_id = $1`, h).Scan(&originalID, &copies); err != nil {
			t.Fatal(err)
		}
		if originalID != view.Original.ID || copies != view.Original.Copies {
			t.Errorf("cluster %d: the view's original is %d with %d copies, the service's %d with %d", h, originalID, copies, view.Original.ID, view.Original.Copies)
		}
	}
	checkListing(t, st)
}

// fixtureArticle is an article with a random fingerprint, for loading
// straight into the table.
func fixtureArticle(key, source string, published time.Time, contentType service.ContentType, rng *rand.Rand) service.Article {
	return service.Article{
		ExternalID: key, Source: source, Title: "标题 " + key, ContentType: contentType, PublishedAt: published,
		Simhash: rng.Uint64(), FingerprintVersion: fingerprint.VersionOneScript,
		Words: fingerprint.NewWordSet([]uint64{rng.Uint64(), rng.Uint64()}), ContentHash: sha256.Sum256([]byte(key)),
		Shingles: fingerprint.ShingleSet{1, 2, 3},
	}
}

// copyCluster loads rows and links every one after the first to the first:
// a cluster headed by the first. It returns their ids, in order.
func copyCluster(t *testing.T, st *repo.Store, rows []repo.CopyRow) []int64 {
	t.Helper()
	ctx := context.Background()
	ids := copyArticles(t, st, rows)
	if _, err := st.Pool().Exec(ctx, `
		UPDATE articles SET duplicate_of = $1, cluster_head = $1, status = 'near_duplicate', distance = 1, word_ratio = 0.9, overlap = 0.9
		WHERE id = ANY ($2)`, ids[0], ids[1:]); err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestListClusters pages through the list with each filter.
func TestListClusters(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(14, 7))
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	type made struct {
		head      int64
		published time.Time
		size      int
		sources   []string
	}
	var clusters []made
	for c := range 45 {
		size := 2 + c%4
		published := day.Add(time.Duration(c) * 3 * time.Hour)
		rows := make([]repo.CopyRow, size)
		var srcs []string
		for i := range rows {
			src := []string{"xinhua", "sina", "qq"}[(c+i)%3]
			if c == 7 && i == 1 {
				src = "rare"
			}
			srcs = append(srcs, src)
			rows[i] = repo.CopyRow{Body: "正文内容", Article: fixtureArticle(fmt.Sprintf("l%d-%d", c, i), src, published.Add(time.Duration(i)*time.Minute), service.ContentText, rng)}
		}
		ids := copyCluster(t, st, rows)
		clusters = append(clusters, made{ids[0], published, size, srcs})
	}
	// A singleton is not listed.
	if _, err := st.CopyArticles(ctx, []repo.CopyRow{{Body: "孤立", Article: fixtureArticle("alone", "xinhua", day, service.ContentText, rng)}}); err != nil {
		t.Fatal(err)
	}
	// One exact duplicate, for the status filter.
	if _, err := st.Pool().Exec(ctx, `UPDATE articles SET status = 'exact_duplicate' WHERE external_id = 'l3-1'`); err != nil {
		t.Fatal(err)
	}

	list := func(q service.ClusterQuery) []int64 {
		t.Helper()
		var ids []int64
		for pages := 0; ; pages++ {
			page, err := svc.Clusters(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range page.Clusters {
				ids = append(ids, c.ID)
			}
			if page.Next == nil {
				return ids
			}
			if pages > 100 {
				t.Fatal("too many pages")
			}
			q.After = page.Next
		}
	}
	want := func(keep func(m made) bool) []int64 {
		var ids []int64
		for i := len(clusters) - 1; i >= 0; i-- {
			if keep(clusters[i]) {
				ids = append(ids, clusters[i].head)
			}
		}
		return ids
	}
	for _, tt := range []struct {
		name string
		q    service.ClusterQuery
		keep func(m made) bool
	}{
		{"all, newest first", service.ClusterQuery{Limit: 7}, func(made) bool { return true }},
		{"a source", service.ClusterQuery{Limit: 5, Source: "rare"}, func(m made) bool { return slices.Contains(m.sources, "rare") }},
		{"a date range", service.ClusterQuery{Limit: 4, From: day.Add(24 * time.Hour), To: day.Add(48 * time.Hour)},
			func(m made) bool {
				return !m.published.Before(day.Add(24*time.Hour)) && m.published.Before(day.Add(48*time.Hour))
			}},
		{"a size", service.ClusterQuery{Limit: 3, MinSize: 4, MaxSize: 4}, func(m made) bool { return m.size == 4 }},
		{"a status", service.ClusterQuery{Limit: 3, Status: service.StatusExactDuplicate}, func(m made) bool { return m.head == clusters[3].head }},
	} {
		if got, want := list(tt.q), want(tt.keep); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tt.name, got, want)
		}
	}
	for _, q := range []service.ClusterQuery{{Limit: 0}, {Limit: 201}, {Limit: 5, MinSize: 5, MaxSize: 3}, {Limit: 5, Status: "NOPE"},
		{Limit: 5, From: day, To: day}} {
		if _, err := svc.Clusters(ctx, q); !errors.Is(err, service.ErrInvalid) {
			t.Errorf("Clusters(%+v) = %v, want invalid", q, err)
		}
	}
	checkListing(t, st)
}

// TestEditorsUnderStress runs editors' splits and keeps among concurrent
// ingests, re-ingests and deletions: every link stays real, no separated
// pair is linked, and the list stays true to the table.
func TestEditorsUnderStress(t *testing.T) {
	const writers, operations = 12, 40
	st := newStore(t, writers+4)
	svc := newService(t, st)
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(14, 14))
	var texts []corpus.Article
	for _, a := range nv.Originals(rng, 6, 500, 1500) {
		texts = append(texts, a)
		for _, e := range []corpus.Edit{corpus.Light, corpus.SentenceDropped, corpus.Boilerplate} {
			texts = append(texts, nv.Apply(rng, a, e))
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers*operations)
	var mu sync.Mutex
	counts := map[string]int{}
	for w := range writers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 14))
			for range operations {
				var err error
				op := "ingest"
				switch n := r.IntN(10); {
				case n < 2:
					op = "split"
					var cluster, member int64
					err = st.Pool().QueryRow(ctx, `SELECT cluster_id, id FROM articles WHERE cluster_id IN (SELECT cluster_id FROM cluster_listing) ORDER BY random() LIMIT 1`).Scan(&cluster, &member)
					if err == nil {
						_, err = svc.Split(ctx, cluster, member, editor)
					}
				case n < 3:
					op = "keep"
					var cluster, member int64
					err = st.Pool().QueryRow(ctx, `SELECT cluster_id, id FROM articles ORDER BY random() LIMIT 1`).Scan(&cluster, &member)
					if err == nil {
						_, err = svc.Keep(ctx, cluster, member, editor)
					}
				case n < 4:
					op = "delete"
					var id int64
					err = st.Pool().QueryRow(ctx, `SELECT id FROM articles ORDER BY random() LIMIT 1`).Scan(&id)
					if err == nil {
						err = svc.DeleteArticle(ctx, id)
					}
				default:
					_, err = svc.Ingest(ctx, input(fmt.Sprintf("key-%d", r.IntN(25)), texts[r.IntN(len(texts))]), svc.Defaults())
				}
				switch {
				case errors.Is(err, pgx.ErrNoRows), errors.Is(err, service.ErrConflict), errors.Is(err, service.ErrNotFound), errors.Is(err, service.ErrInvalid):
					op += " refused"
				case err != nil:
					errs <- fmt.Errorf("%s: %w", op, err)
				}
				mu.Lock()
				counts[op]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("operations: %v; %d pairs separated", counts, countRows(t, st, `SELECT count(*) FROM separations`))
	checkLinks(t, st)
	checkSeparations(t, st)
}

// checkSeparations asserts that no article links to one it is separated
// from.
func checkSeparations(t *testing.T, st *repo.Store) {
	t.Helper()
	if n := countRows(t, st, `
		SELECT count(*) FROM articles d
		JOIN separations s ON (s.a, s.b) = (least(d.id, d.duplicate_of), greatest(d.id, d.duplicate_of))`); n != 0 {
		t.Errorf("%d articles link to an article they are separated from", n)
	}
}

// checkListing asserts that cluster_listing says what the table says
// (dbtest.CheckListing).
func checkListing(t *testing.T, st *repo.Store) {
	t.Helper()
	dbtest.CheckListing(t, st.Pool())
}

// TestArticleTextLength holds the keep rule's length to what a reader
// sees: markup, comments, script and style do not count.
func TestArticleTextLength(t *testing.T) {
	st := newStore(t, 2)
	for _, tt := range []struct {
		contentType, body string
		want              int
	}{
		{"text", "长江洪水 ab", 7},
		{"text", "<p>长江</p>", 9}, // plain text: the brackets are text
		{"html", "<p>长江</p><script type=\"x\">var a = '<p>';</script><!-- 注释 --><STYLE>p{}</STYLE><br/>洪水", 4},
		{"html", "<p class=\"a\">长江</p>\n<!-- a --><p>洪水</p><!-- b -->", 5},
	} {
		var got int
		if err := st.Pool().QueryRow(context.Background(), `SELECT article_text_length($1, $2)`, tt.contentType, tt.body).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("article_text_length(%s, %q) = %d, want %d", tt.contentType, tt.body, got, tt.want)
		}
	}
}
