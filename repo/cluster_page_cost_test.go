package repo_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestClusterPageCostsTheSameWithLongMembers: what a cluster's page and GET
// /v1/clusters/{id} read — the view, each member's difference from the
// original, the corrections, the diff of two members, the other coverage
// and the side by side — costs the database the same when the original is
// 2 MB long as when it is 600 KB (issue 44: a 2 MB head made the page read
// it whole some ten times and fingerprint it again), and at most the
// start a page reads (service.MaxReadRunes) a read more than when it is
// 2 KB: no statement returns or reads a whole text, or what grows with it.
func TestClusterPageCostsTheSameWithLongMembers(t *testing.T) {
	ctx := context.Background()
	cost := func(runes int) listCost {
		t.Helper()
		url := dbtest.URL(t)
		log := &statementLog{}
		st, err := repo.Open(ctx, url, repo.Options{MaxConns: 4, Tracer: log})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		svc := newService(t, st)
		rng := rand.New(rand.NewPCG(46, uint64(runes)))
		day := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
		text := randomText(rng, runes)
		half := strings.LastIndex(text[:len(text)/2], "。") + len("。")
		var ids []int64
		for i, body := range []string{text, "【搜狐新闻】" + text, text[:half]} {
			v, err := svc.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: "标题", Body: body},
				ExternalID: string(rune('a' + i)), Source: []string{"xinhua", "portal", "sina"}[i],
				PublishedAt: day.Add(time.Duration(i) * time.Hour)}, svc.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, v.ID)
		}
		log.on = true
		v, err := svc.Cluster(ctx, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		corr, err := svc.Corrections(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		diffs, err := svc.Differences(ctx, v, corr)
		if err != nil {
			t.Fatal(err)
		}
		d, err := svc.DiffMembers(ctx, v.ID, ids[0], ids[2])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.OtherCoverage(ctx, v); err != nil {
			t.Fatal(err)
		}
		side, err := svc.SideBySide(ctx, v.ID, ids[0], ids[1])
		log.on = false
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Members) != 3 || len(diffs) != 2 {
			t.Fatalf("a cluster of %d characters: %d members, %d differences; want 3 and 2", runes, len(v.Members), len(diffs))
		}
		long := runes > service.MaxReadRunes
		if d.Difference.Truncated != long || side.Left.Cut != long || diffs[ids[1]].Truncated != long {
			t.Errorf("a cluster of %d characters: diff truncated %v, side cut %v, difference truncated %v; want %v",
				runes, d.Difference.Truncated, side.Left.Cut, diffs[ids[1]].Truncated, long)
		}
		if !diffs[ids[1]].BylineAdded || diffs[ids[1]].OtherEdits != 0 {
			t.Errorf("a cluster of %d characters: the copy with a byline differs by %+v", runes, diffs[ids[1]])
		}
		if want := 1 + len([]rune(text)); v.Members[1].TextLength != want && v.Members[1].TextLength != want+5 {
			t.Errorf("the copy of %d characters is %d long", runes, v.Members[1].TextLength)
		}
		c := replayCost(t, url, log.statements)
		t.Logf("an original of %d characters: the page's %d statements return %d bytes and touch %d buffers", runes, len(log.statements), c.bytes, c.buffers)
		return c
	}
	short, middle, long := cost(700), cost(200_000), cost(700_000)
	// All the page's reads of the starts of its three texts return less
	// than the long original alone.
	if limit := len(randomText(rand.New(rand.NewPCG(46, 700_000)), 700_000)); long.bytes > limit {
		t.Errorf("the page returns %d bytes with an original of 2 MB, %d with one of 2 KB; want less than the original's %d", long.bytes, short.bytes, limit)
	}
	if long.bytes > middle.bytes+middle.bytes/10 || long.buffers > middle.buffers+middle.buffers/4 {
		t.Errorf("the page costs %+v with an original of 2 MB, %+v with one of 600 KB; want the same", long, middle)
	}
}
