package repo_test

import (
	"context"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/service"
)

// TestCompilationNeverKeptByCompleteness: a page that strings two stories
// together (the cluster's and another cluster's) is marked a compilation
// and, of the two members from the preferred source that both hold the
// story plus much more, the other one — an expansion of the story with
// text of no other stored article — is kept, by the service and by the
// view cluster_kept alike; unmarked, the compilation, published earlier,
// would be.
func TestCompilationNeverKeptByCompleteness(t *testing.T) {
	ctx := context.Background()
	st := newStore(t, 4)
	svc := newService(t, st)
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	ingest := func(source, id, title, body string, at time.Duration) service.Verdict {
		t.Helper()
		v, err := svc.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: title, Body: body},
			ExternalID: id, Source: source, PublishedAt: day.Add(at)}, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	story, other, unstored := samples.Stories[0], samples.Stories[1], samples.Stories[2]
	head := ingest("xinhua", "x-1", story.Title, story.Body, 0)
	elsewhere := ingest("people", "p-1", other.Title, other.Body, 0)
	compilation := ingest("portal", "w-1", story.Title, story.Body+"\n"+other.Body, time.Hour)
	expansion := ingest("portal", "w-2", story.Title, story.Body+"\n"+unstored.Body, 2*time.Hour)
	for _, v := range []service.Verdict{compilation, expansion} {
		if v.ClusterID != head.ID || v.Status != service.StatusPartialDuplicate {
			t.Fatalf("%s: %s in cluster %d, want a partial duplicate in %d (the fixture)", v.ExternalID, v.Status, v.ClusterID, head.ID)
		}
	}
	if elsewhere.ClusterID == head.ID {
		t.Fatal("the other story joined the cluster (the fixture)")
	}

	if err := svc.SetKeepPolicy(service.KeepPolicy{Sources: []string{"portal"}}); err != nil {
		t.Fatal(err)
	}
	if err := svc.RecordKeepPolicy(ctx); err != nil {
		t.Fatal(err)
	}
	view, err := svc.Cluster(ctx, head.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !view.Compilations[compilation.ID] || view.Compilations[expansion.ID] || len(view.Compilations) != 1 {
		t.Errorf("compilations %v, want only %d", view.Compilations, compilation.ID)
	}
	if view.Kept.ID != expansion.ID || view.Kept.Rule != service.KeepByLength {
		t.Errorf("kept %d by %s (%s), want %d by %s", view.Kept.ID, view.Kept.Rule, view.Kept.Reason, expansion.ID, service.KeepByLength)
	}
	var keptID int64
	var rule string
	if err := st.Pool().QueryRow(ctx, `SELECT kept_id, rule FROM cluster_kept WHERE cluster_id = $1`, head.ID).Scan(&keptID, &rule); err != nil {
		t.Fatal(err)
	}
	if keptID != view.Kept.ID || rule != string(view.Kept.Rule) {
		t.Errorf("the view keeps %d by %s, the service %d by %s", keptID, rule, view.Kept.ID, view.Kept.Rule)
	}
}
