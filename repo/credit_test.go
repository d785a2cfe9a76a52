package repo_test

import (
	"context"
	"math/rand/v2"
	"regexp"
	"testing"
	"time"

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

// TestCreditJudgedAgainOnRelinks: a copy's credit is how it credits the
// article it links to, so a relink judges it anew. A 北京晚报 story leaves
// (deleted, or its key sent with another story): sohu's copy, which
// credited it, heads the copies and credits no one; toutiao's, which
// credited sohu (another source while it linked to the story), now links
// to sohu's and credits it. A copy sent again with a credit line added (a
// correction of the copy) is credited; one of the copies split off by an
// editor links to none and has no credit.
func TestCreditJudgedAgainOnRelinks(t *testing.T) {
	st := newStore(t, 4)
	ctx := context.Background()
	sources := []service.SourceInfo{
		{Source: "bjwb", Owner: "bjd", Names: []string{"北京晚报"}},
		{Source: "sohu", Owner: "sohu", Names: []string{"搜狐"}},
	}
	if err := st.ReplaceSources(ctx, sources); err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(st, algorithm(t), service.DefaultOptions, service.WithSources(sources))
	if err != nil {
		t.Fatal(err)
	}
	nv := novel(t)
	rng := rand.New(rand.NewPCG(47, 7))
	// Stories whose text names no source itself, as a credit line would.
	var stories []corpus.Article
	for _, st := range nv.Originals(rng, 40, 1500, 2500) {
		if !regexp.MustCompile(`来源|稿源|出处|转载|转自|来自|据|电`).MatchString(st.Body) && len(stories) < 4 {
			stories = append(stories, st)
		}
	}
	if len(stories) < 4 {
		t.Fatalf("%d stories that name no source, want 4", len(stories))
	}
	t0 := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	ingest := func(source, key, title, body string, at time.Time) int64 {
		t.Helper()
		in := keyed(source, key, corpus.Article{Title: title, Body: body})
		in.PublishedAt = at
		v, err := svc.Ingest(ctx, in, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		return v.ID
	}
	wantCredit := func(what string, id, linksTo int64, want service.Credit) {
		t.Helper()
		a := mustFind(t, svc, id)
		if a.DuplicateOf != linksTo || a.Credit != want {
			t.Errorf("%s: article %d links to %d with credit %q, want %d and %q", what, id, a.DuplicateOf, a.Credit, linksTo, want)
		}
	}

	for _, departure := range []string{"deleted", "another story"} {
		st := stories[0]
		if departure != "deleted" {
			st = stories[1]
		}
		key := "bj-" + departure
		orig := ingest("bjwb", key, st.Title, "本报记者 李立\n"+st.Body, t0)
		sohu := ingest("sohu", key, st.Title, st.Body+"\n来源：北京晚报", t0.Add(time.Hour))
		toutiao := ingest("toutiao", key, st.Title, st.Body+"\n来源：搜狐", t0.Add(2*time.Hour))
		wantCredit(departure+", before", sohu, orig, service.CreditCredited)
		wantCredit(departure+", before", toutiao, orig, service.CreditCreditsOther)
		if departure == "deleted" {
			if err := svc.DeleteArticle(ctx, orig); err != nil {
				t.Fatal(err)
			}
		} else {
			other := stories[3]
			ingest("bjwb", key, other.Title, other.Body, t0)
		}
		wantCredit(departure+", after", sohu, 0, "")
		wantCredit(departure+", after", toutiao, sohu, service.CreditCredited)
	}

	// A copy corrected by its source with a credit line added.
	st2 := stories[2]
	orig := ingest("bjwb", "bj-2", st2.Title+"（二）", "本报记者 李立\n"+st2.Body+"\n本报讯。", t0.Add(24*time.Hour))
	qq := ingest("qq", "q-2", st2.Title+"（二）", st2.Body+"\n本报讯。", t0.Add(25*time.Hour))
	wantCredit("copy before its correction", qq, orig, service.CreditUncredited)
	if id := ingest("qq", "q-2", st2.Title+"（二）", st2.Body+"\n本报讯。\n来源：北京晚报", t0.Add(25*time.Hour)); id != qq {
		t.Fatalf("the copy's correction is article %d, want %d", id, qq)
	}
	wantCredit("copy after its correction", qq, orig, service.CreditCredited)

	// Split off by an editor: it links to none, and credits none.
	view, err := svc.Cluster(ctx, orig)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Split(ctx, view.ID, qq, service.DecisionInput{Editor: "王芳"}); err != nil {
		t.Fatal(err)
	}
	wantCredit("copy split off", qq, 0, "")
}
