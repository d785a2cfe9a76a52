package repo_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
)

// TestCreditAtIngest stores a 北京晚报 story with its byline and copies of
// it, one at a time and in one batch: each copy's credit is stored, read
// back with the cluster and counted by copy_credits; the sources table
// and source_owner() answer as the sources file says.
func TestCreditAtIngest(t *testing.T) {
	st := newStore(t, 4)
	ctx := context.Background()
	sources := []service.SourceInfo{
		{Source: "bjwb", Owner: "bjd", Names: []string{"北京晚报", "北晚新视觉"}},
		{Source: "xinhua", Owner: "xinhua", Names: []string{"新华社", "新华网"}},
	}
	if err := st.ReplaceSources(ctx, sources); err != nil {
		t.Fatal(err)
	}
	known, err := st.KnownSources(ctx)
	if err != nil || len(known) != 2 || known[0].Source != "bjwb" || known[0].Owner != "bjd" || len(known[0].Names) != 2 {
		t.Fatalf("KnownSources = %+v, %v; want what ReplaceSources wrote", known, err)
	}
	for src, want := range map[string]string{"bjwb": "bjd", "cctv-news": "cctv", "sohu": "sohu"} {
		var got string
		if err := st.Pool().QueryRow(ctx, `SELECT source_owner($1)`, src).Scan(&got); err != nil || got != want {
			t.Errorf("source_owner(%q) = %q, %v; want %q", src, got, err, want)
		}
	}
	svc, err := service.New(st, algorithm(t), service.DefaultOptions, service.WithSources(known))
	if err != nil {
		t.Fatal(err)
	}

	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 1))
	stories := nv.Originals(rng, 2, 1500, 2500)
	for round, batch := range []bool{false, true} {
		story := stories[round]
		orig := corpus.Article{Title: story.Title, Body: "本报记者 李立\n" + story.Body}
		o, err := svc.Ingest(ctx, keyed("bjwb", story.Title, orig), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		copies := []struct {
			source, body string
			want         service.Credit
		}{
			{"sohu", story.Body + "\n来源：北京晚报", service.CreditCredited},
			{"qq", "记者 李立\n" + story.Body, service.CreditCredited},
			{"ifeng", story.Body + "\n来源：新京报", service.CreditCreditsOther},
			{"toutiao", story.Body + "\n关注我们，获取更多精彩资讯", service.CreditUncredited},
		}
		var ids []int64
		if batch {
			items := make([]service.BatchItem, len(copies))
			for i, c := range copies {
				items[i] = service.BatchItem{Article: keyed(c.source, story.Title, corpus.Article{Title: story.Title, Body: c.body}), Options: svc.Defaults()}
			}
			rs, err := svc.IngestBatch(ctx, items)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if r.Err != nil {
					t.Fatal(r.Err)
				}
				ids = append(ids, r.Verdict.ID)
			}
		} else {
			for _, c := range copies {
				v, err := svc.Ingest(ctx, keyed(c.source, story.Title, corpus.Article{Title: story.Title, Body: c.body}), svc.Defaults())
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, v.ID)
			}
		}
		if a := mustFind(t, svc, o.ID); a.Credit != "" {
			t.Errorf("batch %v: the original's credit = %q, want none", batch, a.Credit)
		}
		view, err := svc.Cluster(ctx, o.ClusterID)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range copies {
			a := mustFind(t, svc, ids[i])
			if a.DuplicateOf == 0 || a.ClusterID != o.ClusterID {
				t.Fatalf("batch %v: %s's copy links to %d in cluster %d, want a link in the original's %d", batch, c.source, a.DuplicateOf, a.ClusterID, o.ClusterID)
			}
			if a.Credit != c.want {
				t.Errorf("batch %v: %s's copy's credit = %q, want %q", batch, c.source, a.Credit, c.want)
			}
			if m, ok := view.Member(ids[i]); !ok || m.Credit != c.want {
				t.Errorf("batch %v: the cluster's member %s: credit %q (listed %v), want %q", batch, c.source, m.Credit, ok, c.want)
			}
		}
		var credited, other, uncredited int
		err = st.Pool().QueryRow(ctx, `
			SELECT count(*) FILTER (WHERE credit = 'credited'), count(*) FILTER (WHERE credit = 'credits_other'),
			       count(*) FILTER (WHERE credit = 'uncredited')
			FROM copy_credits WHERE cluster_id = $1 AND article_owner <> 'bjd'`, o.ClusterID).Scan(&credited, &other, &uncredited)
		if err != nil || credited != 2 || other != 1 || uncredited != 1 {
			t.Errorf("batch %v: copy_credits counts %d credited, %d credits_other, %d uncredited (%v); want 2, 1, 1", batch, credited, other, uncredited, err)
		}
	}
}
