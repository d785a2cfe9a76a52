package repo_test

import (
	"context"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestCopyOriginalsFollowEveryRelink walks a cluster through every path
// that rewrites a link — a split and its undo, a correction, the sources
// file giving a source another owner, an earlier original arriving (a
// promotion), its deletion (its copies relinked) — and after each asserts
// that every row's original_source and original_owner are its original's
// (dbtest.CheckOriginals), and that the desk's report finds the copies by
// them.
func TestCopyOriginalsFollowEveryRelink(t *testing.T) {
	f := newSplitFixture(t)
	ctx := context.Background()
	original := func(id int64) (src, owner string) {
		t.Helper()
		var s, o *string
		if err := f.st.Pool().QueryRow(ctx, `SELECT original_source, original_owner FROM articles WHERE id = $1`, id).Scan(&s, &o); err != nil {
			t.Fatal(err)
		}
		if s != nil {
			src = *s
		}
		if o != nil {
			owner = *o
		}
		return src, owner
	}
	want := func(step string, id int64, wantSource, wantOwner string) {
		t.Helper()
		if s, o := original(id); s != wantSource || o != wantOwner {
			t.Errorf("%s: article %d stores original %q of %q, want %q of %q", step, id, s, o, wantSource, wantOwner)
		}
		dbtest.CheckOriginals(t, f.st.Pool())
	}
	want("ingest", f.head.ID, "", "")
	want("ingest", f.exact.ID, "xinhua", "xinhua")
	want("ingest", f.y.ID, "163", "163")

	// A split moves the repost and its copy out: the repost heads, its
	// copy still links to it; the undo puts the repost back on the head.
	res, err := f.svc.Split(ctx, f.head.ID, f.x.ID, editor)
	if err != nil {
		t.Fatal(err)
	}
	want("split", f.x.ID, "", "")
	want("split", f.y.ID, "163", "163")
	if _, err := f.svc.UndoSplit(ctx, res.Decision.ID, editor); err != nil {
		t.Fatal(err)
	}
	want("undo", f.x.ID, "xinhua", "xinhua")

	// A correction of the repost stores it again under its key.
	if _, err := f.svc.Ingest(ctx, f.editedXInput, f.svc.Defaults()); err != nil {
		t.Fatal(err)
	}
	x := mustFind(t, f.svc, f.x.ID)
	var xOriginal string
	if err := f.st.Pool().QueryRow(ctx, `SELECT source FROM articles WHERE id = $1`, x.DuplicateOf).Scan(&xOriginal); err != nil {
		t.Fatal(err)
	}
	want("correction", f.x.ID, xOriginal, xOriginal)

	// The sources file names 163's owner, and qq's the same: the copies'
	// owner follows, the report by owner finds them, qq's copy counts as
	// the owner's own; back to the default.
	if err := f.st.ReplaceSources(ctx, []service.SourceInfo{{Source: "163", Owner: "netease"}, {Source: "qq", Owner: "netease"}}); err != nil {
		t.Fatal(err)
	}
	want("owner named", f.y.ID, "163", "netease")
	r, err := f.svc.Copies(ctx, service.CopiesQuery{Owners: []string{"netease"}, From: time.Now().Add(-24 * time.Hour), To: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Copies)+len(r.OwnCopies) != 1 || len(r.BySource) != 1 || r.BySource[0].Source != "qq" {
		t.Errorf("report of owner netease: %+v, want the one copy of 163's repost by qq", r)
	}
	if n := countRows(t, f.st, `SELECT count(*) FROM desk_copies WHERE original_owner = 'netease' AND copy_source = 'qq' AND same_owner`); n != 1 {
		t.Errorf("desk_copies holds %d copies of netease's by qq, its own, want 1", n)
	}
	if own, err := f.st.CountOwnCopies(ctx, time.Now().Add(-24*time.Hour), time.Now().Add(time.Hour)); err != nil || len(own) != 1 || own["qq"] != 1 {
		t.Errorf("own copies %v, %v; want qq's one", own, err)
	}
	if err := f.st.ReplaceSources(ctx, nil); err != nil {
		t.Fatal(err)
	}
	want("owner dropped", f.y.ID, "163", "163")

	// No statement can store another original than the link's.
	if _, err := f.st.Pool().Exec(ctx, `UPDATE articles SET original_source = 'forged', original_owner = 'forged' WHERE id = $1`, f.y.ID); err != nil {
		t.Fatal(err)
	}
	want("forged", f.y.ID, "163", "163")

	// An earlier original arrives: it heads the cluster, the copies that
	// linked to the old head are relinked to it.
	early := keyed("people", "p-1", f.original)
	early.PublishedAt = time.Now().Add(-3 * time.Hour)
	v, err := f.svc.Ingest(ctx, early, f.svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if v.ClusterID != v.ID {
		t.Fatalf("the earlier original is in cluster %d, want it heading", v.ClusterID)
	}
	want("promotion", f.head.ID, "people", "people")
	want("promotion", v.ID, "", "")

	// It is deleted: its copies link elsewhere, and say so.
	if err := f.svc.DeleteArticle(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	want("departure", f.head.ID, "", "")
	want("departure", f.exact.ID, "xinhua", "xinhua")
	checkLinks(t, f.st)
}
