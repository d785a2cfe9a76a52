package repo_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
)

// compilationOf returns a cut of the novel and a page holding it after
// four other cuts, so that the story is less than service.DriftShare of the
// page's sampled 5-grams: a partial duplicate of the story that shares too
// little with it to be of its story (issue 36).
func compilationOf(t *testing.T, seed uint64) (story, page corpus.Article) {
	t.Helper()
	rng := rand.New(rand.NewPCG(36, seed))
	nv := novel(t)
	for range 200 {
		cuts := nv.Originals(rng, 5, 300, 900)
		story = cuts[0]
		parts := []string{}
		for _, c := range cuts[1:] {
			parts = append(parts, c.Title+"\n"+c.Body)
		}
		page = corpus.Article{Title: "今日要闻", Body: strings.Join(append(parts, story.Title+"\n"+story.Body), "\n\n")}
		own, of := mustFingerprint(t, page).Shingles, mustFingerprint(t, story).Shingles
		if share := float64(own.Shared(of)) / float64(len(own)); share < service.DriftShare-0.05 && share > 0.05 {
			return story, page
		}
	}
	t.Fatal("no page holding a cut at less than the drift share")
	return corpus.Article{}, corpus.Article{}
}

// TestDriftingPartialHeadsItsOwnCluster stores a story, a near copy of it,
// then a page holding the story amid four others: the page is a partial
// duplicate of the story, linked to it, but heads a cluster of its own; an
// exact copy of the page joins the page's cluster. Deleting the story
// relinks its dependants: the page keeps heading its cluster, with its copy.
// Every link stays real and every cluster well formed.
func TestDriftingPartialHeadsItsOwnCluster(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	story, page := compilationOf(t, 1)

	o, err := svc.Ingest(ctx, input("story", story), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	n, err := svc.Ingest(ctx, input("story-again", corpus.Article{Title: story.Title, Body: story.Body + "\n（完）"}), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if n.ClusterID != o.ClusterID {
		t.Fatalf("the story's copy is %s in cluster %d, want in the story's %d", n.Status, n.ClusterID, o.ClusterID)
	}
	// A check places the page as its ingest will: in no stored cluster.
	chk, err := svc.Check(ctx, input("page", page), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if chk.Status != service.StatusPartialDuplicate || chk.ClusterID != 0 {
		t.Errorf("the page checked is %s in cluster %d, want a partial duplicate heading a cluster of its own (0: not stored)", chk.Status, chk.ClusterID)
	}
	p, err := svc.Ingest(ctx, input("page", page), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != service.StatusPartialDuplicate || p.DuplicateOf == nil {
		t.Fatalf("the page is %s of %+v, want a partial duplicate of the story", p.Status, p.DuplicateOf)
	}
	if p.ClusterID != p.ID {
		t.Errorf("the page, linked to %d, is in cluster %d; want a cluster of its own (%d)", p.DuplicateOf.ID, p.ClusterID, p.ID)
	}
	c, err := svc.Ingest(ctx, input("page-copy", page), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != service.StatusExactDuplicate || c.ClusterID != p.ID {
		t.Errorf("the page's copy is %s in cluster %d, want an exact duplicate in the page's cluster %d", c.Status, c.ClusterID, p.ID)
	}
	checkLinks(t, st)

	if err := svc.DeleteArticle(ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	var cluster, copyCluster int64
	var linked *int64
	if err := st.Pool().QueryRow(ctx, `SELECT cluster_id, duplicate_of FROM articles WHERE id = $1`, p.ID).Scan(&cluster, &linked); err != nil {
		t.Fatal(err)
	}
	if err := st.Pool().QueryRow(ctx, `SELECT cluster_id FROM articles WHERE id = $1`, c.ID).Scan(&copyCluster); err != nil {
		t.Fatal(err)
	}
	if cluster != p.ID || copyCluster != p.ID {
		t.Errorf("after the story left, the page is in cluster %d (linked to %v) and its copy in %d; want both in the page's %d",
			cluster, linked, copyCluster, p.ID)
	}
	checkLinks(t, st)
	if n := countRows(t, st, `SELECT count(*) FROM (`+storedLinksCheck(t)+`) bad`); n != 0 {
		t.Errorf("the stored-links check of docs/reporting.md finds %d rows", n)
	}
}

// TestDriftingPartialInABatch: the same in one batch, the story stored
// before it: the page heads its own cluster, its copy later in the batch
// joins it, and the story's copy in the batch joins the story's.
func TestDriftingPartialInABatch(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	story, page := compilationOf(t, 2)
	o, err := svc.Ingest(ctx, input("story", story), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	results, err := svc.IngestBatch(ctx, batchOf(svc, []string{"page", "story-again", "page-copy"},
		[]corpus.Article{page, {Title: story.Title, Body: story.Body + "\n（完）"}, page}))
	if err != nil {
		t.Fatal(err)
	}
	var v [3]service.Verdict
	for i, r := range results {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		v[i] = r.Verdict
	}
	if v[0].Status != service.StatusPartialDuplicate || v[0].DuplicateOf == nil || v[0].DuplicateOf.ID != o.ID || v[0].ClusterID != v[0].ID {
		t.Errorf("the page is %s of %+v in cluster %d; want a partial duplicate of the story (%d) heading its own cluster (%d)",
			v[0].Status, v[0].DuplicateOf, v[0].ClusterID, o.ID, v[0].ID)
	}
	if v[1].ClusterID != o.ClusterID {
		t.Errorf("the story's copy is %s in cluster %d, want the story's %d", v[1].Status, v[1].ClusterID, o.ClusterID)
	}
	if v[2].ClusterID != v[0].ID {
		t.Errorf("the page's copy is %s in cluster %d, want the page's %d", v[2].Status, v[2].ClusterID, v[0].ID)
	}
	checkLinks(t, st)
}

// TestDriftHeadsMigrationDown: migrating below 00024 puts every head that
// links to an article back, with its cluster, into its link's cluster, as
// the older check wants, and up again works.
func TestDriftHeadsMigrationDown(t *testing.T) {
	ctx := context.Background()
	m, url := newMigrator(t)
	st := openStore(t, url, 2)
	svc := newService(t, st)
	story, page := compilationOf(t, 3)
	o, err := svc.Ingest(ctx, input("story", story), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Ingest(ctx, input("page", page), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Ingest(ctx, input("page-copy", page), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if p.ClusterID != p.ID || c.ClusterID != p.ID {
		t.Fatalf("the page is in cluster %d and its copy in %d, want both in the page's own %d", p.ClusterID, c.ClusterID, p.ID)
	}
	if _, err := m.DownTo(ctx, 22); err != nil { // the schema before 00024
		t.Fatal(err)
	}
	if n := countRows(t, st, `SELECT count(*) FROM articles WHERE cluster_id <> `+strconv.FormatInt(o.ClusterID, 10)); n != 0 {
		t.Errorf("after migrating down, %d articles are outside the story's cluster %d", n, o.ClusterID)
	}
	checkLinks(t, st)
	if _, err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
}
