package repo_test

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/service"
)

// TestOtherCoverageCountedInTheList: the list of clusters counts, for each
// cluster of the page, the articles outside it that share sentences with it
// — as many as the cluster's other-coverage panel lists — and the search of
// many articles' sentences in one statement finds what the search of each
// finds.
func TestOtherCoverageCountedInTheList(t *testing.T) {
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
	quoted, other := samples.Stories[0], samples.Stories[1]
	sentence := strings.SplitAfter(quoted.Body, "。")[1]
	story := ingest("xinhua", "x-1", quoted.Title, quoted.Body, 0)
	ingest("portal", "w-1", quoted.Title, "【搜狐新闻】"+quoted.Body, time.Hour)
	alone := ingest("people", "p-1", other.Title, other.Body, 0)
	ingest("portal", "w-2", other.Title, "【搜狐新闻】"+other.Body, time.Hour)
	quoting := []service.Verdict{
		ingest("jiangxi", "jx-1", "江西多地转移受灾群众",
			"江西省应急管理厅介绍，全省已转移安置受灾群众一万二千余人，开放避灾安置点三百多个。"+sentence+
				"九江、上饶等地组织党员干部挨家挨户排查隐患，确保不漏一户、不落一人。", 2*time.Hour),
		ingest("hunan", "hn-1", "湖南洞庭湖区加强堤防巡查",
			"湖南省水利厅今天召开防汛调度会，部署洞庭湖区堤防巡查和涵闸管护工作。"+sentence+
				"岳阳、常德两市已调集抢险队员八百余人，对重点堤段实行二十四小时值守。", 3*time.Hour),
	}
	for _, v := range quoting {
		if v.ClusterID == story.ID {
			t.Fatalf("%s, a story of its own, joined the cluster (%s)", v.ExternalID, v.Status)
		}
	}

	page, err := svc.Clusters(ctx, service.ClusterQuery{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	counted := map[int64]service.OtherCoverageCount{}
	for _, c := range page.Clusters {
		counted[c.ID] = c.OtherCoverage
	}
	if len(counted) != 2 {
		t.Fatalf("the list has clusters %v, want %d and %d", counted, story.ID, alone.ID)
	}
	for id, want := range map[int64]int{story.ID: 2, alone.ID: 0} {
		v, err := svc.Cluster(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		listed, err := svc.OtherCoverage(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		if got := counted[id]; got.Articles != want || got.More || len(listed) != want {
			t.Errorf("cluster %d: the list counts %+v other articles, its panel lists %d; want %d", id, got, len(listed), want)
		}
	}

	// The batched search against one search a query.
	var qs []service.SentenceQuery
	for _, id := range []int64{story.ID, alone.ID, quoting[0].ID} {
		texts, err := st.ArticleTexts(ctx, []int64{id}, false)
		if err != nil {
			t.Fatal(err)
		}
		qs = append(qs, service.SentenceQuery{Sentences: texts[id].Sentences, MaxDistance: 3, ExcludeID: id, PerSentence: 20})
	}
	batched, err := st.SentenceMatchesOf(ctx, qs, 0)
	if err != nil {
		t.Fatal(err)
	}
	order := func(a, b service.SentenceMatch) int {
		return cmp.Or(cmp.Compare(a.Query, b.Query), cmp.Compare(a.ArticleID, b.ArticleID), cmp.Compare(a.Position, b.Position))
	}
	matched := 0
	for n, q := range qs {
		one, err := st.SentenceMatches(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(one, order)
		slices.SortFunc(batched[n], order)
		if !slices.Equal(one, batched[n]) {
			t.Errorf("query %d: the batched search found\n%+v\nwant what its own search finds\n%+v", n, batched[n], one)
		}
		matched += len(one)
	}
	if matched == 0 {
		t.Fatal("the fixture: no sentence matched")
	}
}
