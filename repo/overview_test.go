package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
)

// TestOverviewCutsDaysInTheZone: the day at a glance counts what was
// published on each day of the editors' zone — a story published at
// 07:09 Beijing time on 5 November is 5 November's, though it is
// 4 November's in UTC — and the last 24 hours from the clock.
func TestOverviewCutsDaysInTheZone(t *testing.T) {
	t.Parallel()
	st := newStore(t, 4)
	now := time.Date(2026, 11, 5, 4, 0, 0, 0, time.UTC) // 12:00 in Beijing
	svc, err := service.New(st, algorithm(t), service.DefaultOptions, service.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(35, 2))
	at := func(s string) time.Time {
		ts, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	cluster := func(members ...[3]string) []int64 { // source, published, status
		rows := make([]repo.CopyRow, len(members))
		for i, m := range members {
			rows[i] = repo.CopyRow{Body: "正文", Article: fixtureArticle(fmt.Sprintf("%s-%d-%s", m[0], i, m[1]), m[0], at(m[1]), service.ContentText, rng)}
		}
		ids := copyCluster(t, st, rows)
		for i, m := range members {
			if i > 0 {
				if _, err := st.Pool().Exec(ctx, `UPDATE articles SET status = $2 WHERE id = $1`, ids[i], m[2]); err != nil {
					t.Fatal(err)
				}
			}
		}
		return ids
	}
	cluster([3]string{"xinhua", "2026-11-05T00:30:00Z"}, [3]string{"sina", "2026-11-04T23:09:00Z", "near_duplicate"},
		[3]string{"qq", "2026-11-05T01:00:00Z", "partial_duplicate"})
	cluster([3]string{"xinhua", "2026-11-04T10:00:00Z"}, [3]string{"qq", "2026-11-04T15:59:00Z", "exact_duplicate"})
	cluster([3]string{"xinhua", "2026-10-06T16:30:00Z"}, [3]string{"sina", "2026-10-06T17:00:00Z", "near_duplicate"},
		[3]string{"sina", "2026-10-06T15:00:00Z", "near_duplicate"})

	beijing, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	o, err := svc.Overview(ctx, beijing, 30)
	if err != nil {
		t.Fatal(err)
	}
	dc := func(near, exact, partial int) service.DuplicateCounts {
		return service.DuplicateCounts{Near: near, Exact: exact, Partial: partial}
	}
	if len(o.Days) != 30 || !o.Days[29].Day.Equal(at("2026-11-04T16:00:00Z")) || !o.Days[0].Day.Equal(at("2026-10-06T16:00:00Z")) {
		t.Fatalf("days from %v to %v (%d), want 30 Beijing days to 5 November", o.Days[0].Day, o.Days[len(o.Days)-1].Day, len(o.Days))
	}
	for i, want := range map[int]service.DuplicateCounts{29: dc(1, 0, 1), 28: dc(0, 1, 0), 0: dc(1, 0, 0), 1: dc(0, 0, 0)} {
		if got := o.Days[i].DuplicateCounts; got != want {
			t.Errorf("day %s: %+v, want %+v", o.Days[i].Day.Format(time.DateOnly), got, want)
		}
	}
	wantToday := service.Period{From: at("2026-11-04T16:00:00Z"), To: at("2026-11-05T16:00:00Z"), Articles: 3, Clusters: 1, DuplicateCounts: dc(1, 0, 1),
		TopSources: []service.SourceCount{{Source: "qq", DuplicateCounts: dc(0, 0, 1)}, {Source: "sina", DuplicateCounts: dc(1, 0, 0)}}}
	if !samePeriod(o.Today, wantToday) {
		t.Errorf("today = %+v, want %+v", o.Today, wantToday)
	}
	want24 := service.Period{From: at("2026-11-04T04:00:00Z"), To: now, Articles: 5, Clusters: 2, DuplicateCounts: dc(1, 1, 1)}
	if o.Last24h.Articles != want24.Articles || o.Last24h.Clusters != want24.Clusters || o.Last24h.DuplicateCounts != want24.DuplicateCounts ||
		!o.Last24h.From.Equal(want24.From) || !o.Last24h.To.Equal(want24.To) {
		t.Errorf("last 24 hours = %+v, want %+v", o.Last24h, want24)
	}
	if want := []service.SourceCount{{Source: "qq", DuplicateCounts: dc(0, 1, 1)}, {Source: "sina", DuplicateCounts: dc(2, 0, 0)}}; !slices.Equal(o.Sources, want) {
		t.Errorf("sources = %+v, want %+v", o.Sources, want)
	}

	// In UTC the 07:09 story is 4 November's.
	u, err := svc.Overview(ctx, time.UTC, 30)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := u.Days[28].DuplicateCounts, dc(1, 1, 0); got != want {
		t.Errorf("4 November in UTC: %+v, want %+v", got, want)
	}
	for _, days := range []int{0, 91} {
		if _, err := svc.Overview(ctx, beijing, days); err == nil {
			t.Errorf("Overview(%d days) = nil error, want invalid", days)
		}
	}
}

func samePeriod(a, b service.Period) bool {
	return a.From.Equal(b.From) && a.To.Equal(b.To) && a.Articles == b.Articles && a.Clusters == b.Clusters &&
		a.DuplicateCounts == b.DuplicateCounts && slices.Equal(a.TopSources, b.TopSources)
}

// TestListClustersOrders pages through the list largest first and by
// latest member, counts it, and filters by a source's prefix.
func TestListClustersOrders(t *testing.T) {
	t.Parallel()
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(35, 3))
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	type made struct {
		head int64
		size int
		src  string
	}
	var clusters []made
	for c := range 9 {
		size := 2 + (c*5)%4
		src := []string{"sina-sports", "qq", "Sina-testEdu"}[c%3]
		rows := make([]repo.CopyRow, size)
		for i := range rows {
			rows[i] = repo.CopyRow{Body: "正文", Article: fixtureArticle(fmt.Sprintf("o%d-%d", c, i), src, day.Add(time.Duration(c)*time.Hour), service.ContentText, rng)}
		}
		clusters = append(clusters, made{copyCluster(t, st, rows)[0], size, src})
	}
	list := func(q service.ClusterQuery) []int64 {
		t.Helper()
		var ids []int64
		for range 20 {
			page, err := svc.Clusters(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range page.Clusters {
				ids = append(ids, c.ID)
			}
			if page.Next == nil {
				break
			}
			q.After = page.Next
		}
		return ids
	}
	bySize := slices.Clone(clusters)
	slices.SortFunc(bySize, func(a, b made) int {
		if a.size != b.size {
			return b.size - a.size
		}
		return int(b.head - a.head)
	})
	var wantSize, wantLatest, wantSina []int64
	for _, c := range bySize {
		wantSize = append(wantSize, c.head)
	}
	for i := len(clusters) - 1; i >= 0; i-- {
		wantLatest = append(wantLatest, clusters[i].head)
		if clusters[i].src != "qq" {
			wantSina = append(wantSina, clusters[i].head)
		}
	}
	if got := list(service.ClusterQuery{Limit: 2, Sort: service.SortSize}); !slices.Equal(got, wantSize) {
		t.Errorf("largest first: %v, want %v", got, wantSize)
	}
	if got := list(service.ClusterQuery{Limit: 2, Sort: service.SortLatest}); !slices.Equal(got, wantLatest) {
		t.Errorf("latest member first: %v, want %v", got, wantLatest)
	}
	if got := list(service.ClusterQuery{Limit: 4, SourcePrefix: "SINA"}); !slices.Equal(got, wantSina) {
		t.Errorf("sources beginning with SINA: %v, want %v", got, wantSina)
	}
	if got := list(service.ClusterQuery{Limit: 4, SourcePrefix: "nobody"}); len(got) != 0 {
		t.Errorf("a prefix no source has: %v, want none", got)
	}
	total, err := svc.CountClusters(ctx, service.ClusterQuery{Limit: 1, SourcePrefix: "sina", MinSize: 3})
	wantTotal := service.ClusterTotal{}
	for _, c := range clusters {
		if c.src != "qq" && c.size >= 3 {
			wantTotal.Clusters++
			wantTotal.Articles += c.size
		}
	}
	if err != nil || total != wantTotal {
		t.Errorf("CountClusters = %+v, %v; want %+v", total, err, wantTotal)
	}
	// Counted up to a bound: the bound and More when more match, the exact
	// count when not.
	if wantTotal.Clusters < 2 {
		t.Fatalf("the test needs two clusters of sina of size 3 or more, has %d", wantTotal.Clusters)
	}
	q := service.ClusterQuery{Limit: 1, SourcePrefix: "sina", MinSize: 3}
	if got, err := svc.CountClustersUpTo(ctx, q, wantTotal.Clusters-1); err != nil || got != (service.ClusterTotal{Clusters: wantTotal.Clusters - 1, More: true}) {
		t.Errorf("CountClustersUpTo(%d) = %+v, %v; want %d and more", wantTotal.Clusters-1, got, err, wantTotal.Clusters-1)
	}
	if got, err := svc.CountClustersUpTo(ctx, q, wantTotal.Clusters); err != nil || got != wantTotal {
		t.Errorf("CountClustersUpTo(%d) = %+v, %v; want %+v", wantTotal.Clusters, got, err, wantTotal)
	}
	// A cursor of one order is refused in another.
	page, err := svc.Clusters(ctx, service.ClusterQuery{Limit: 2, Sort: service.SortSize})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Clusters(ctx, service.ClusterQuery{Limit: 2, After: page.Next}); err == nil {
		t.Error("a size cursor in the default order = nil error, want invalid")
	}
	for _, q := range []service.ClusterQuery{{Limit: 2, Sort: "random"}, {Limit: 2, Source: "qq", SourcePrefix: "q"}} {
		if _, err := svc.Clusters(ctx, q); err == nil {
			t.Errorf("Clusters(%+v) = nil error, want invalid", q)
		}
	}
	checkListing(t, st)
}
