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

// TestSearch stores headlines, keys and URLs, and searches them as an
// editor would: a Chinese word inside a headline however a segmenter would
// cut it, full-width Latin letters, two words apart, a CMS key with and
// without its source, a URL as pasted, an article id. Editing a headline
// and deleting an article change what is found.
func TestSearch(t *testing.T) {
	t.Parallel()
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(35, 1))
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	headlines := []struct{ key, source, title, url string }{
		{"xwlb-20250715-14481", "cctv", "长江中下游启动洪水防御四级应急响应", "https://news.example.com/cctv/2025/07/15/14481.html"},
		{"s-2", "sina-testEdu", "洪水过后重建家园", "http://www.Example.org/a/b/"},
		{"s-3", "sina-sports", "抗洪水利工程全面开工", ""},
		{"s-4", "qq", "ＮＢＡ总决赛第七场", ""},
		{"s-5", "qq", "Floods hit the Yangtze basin", ""},
		{"s-6", "people", "洪 水 分开写", ""},
		{"s-7", "people", "2026年数字经济博览会闭幕", ""},
	}
	rows := make([]repo.CopyRow, len(headlines))
	for i, h := range headlines {
		a := fixtureArticle(h.key, h.source, day.Add(time.Duration(i)*time.Hour), service.ContentText, rng)
		a.Title, a.URL = h.title, h.url
		rows[i] = repo.CopyRow{Body: "正文", Article: a}
	}
	ids := copyArticles(t, st, rows)

	search := func(q string, limit int) service.SearchResult {
		t.Helper()
		r, err := svc.Search(ctx, q, limit)
		if err != nil {
			t.Fatalf("Search(%q) = %v", q, err)
		}
		return r
	}
	found := func(r service.SearchResult) []string {
		var out []string
		for _, h := range r.Hits {
			out = append(out, fmt.Sprintf("%s:%s", h.ExternalID, h.Match))
		}
		return out
	}
	for _, tt := range []struct {
		q    string
		want []string // newest first, exact matches before
	}{
		{"洪水", []string{"s-3:words", "s-2:words", "xwlb-20250715-14481:words"}},
		{"洪水防御", []string{"xwlb-20250715-14481:words"}},
		{"防御 长江", []string{"xwlb-20250715-14481:words"}},
		{"防御长江", nil},
		{"长江 洪水 防御", []string{"xwlb-20250715-14481:words"}}, // words alone: no key, no id
		{"nba", []string{"s-4:words"}},
		{"NBA总决赛", []string{"s-4:words"}},
		{"floods YANGTZE", []string{"s-5:words"}},
		{"flood", nil}, // Latin words are found whole
		{"2026年", []string{"s-7:words"}},
		{"xwlb-20250715-14481", []string{"xwlb-20250715-14481:external_id"}},
		{"cctv xwlb-20250715-14481", []string{"xwlb-20250715-14481:key"}},
		{"https://news.example.com/cctv/2025/07/15/14481.html", []string{"xwlb-20250715-14481:url"}},
		{"news.example.com/cctv/2025/07/15/14481.html", []string{"xwlb-20250715-14481:url"}},
		{"https://example.org/a/b#top", []string{"s-2:url"}},
		{"http://www.example.org/a/b", []string{"s-2:url"}},
		{fmt.Sprint(ids[3]), []string{"s-4:id"}},
	} {
		if got := found(search(tt.q, 50)); !slices.Equal(got, tt.want) {
			t.Errorf("Search(%q) = %v, want %v", tt.q, got, tt.want)
		}
	}
	if r := search("洪", 50); r.Terms.Words || len(r.Hits) != 0 {
		t.Errorf("Search(洪) = %v (words %v), want nothing: a lone character is no key", found(r), r.Terms.Words)
	}
	r := search("洪水", 2)
	if !r.More || len(r.Hits) != 2 {
		t.Errorf("Search(洪水, limit 2) = %v, more %v; want two and more", found(r), r.More)
	}
	if h := search("xwlb-20250715-14481", 50).Hits[0]; h.ClusterID != ids[0] || h.ClusterSize != 1 || h.Title != headlines[0].title {
		t.Errorf("a hit: %+v", h)
	}

	sources, err := svc.Sources(ctx, "SINA")
	if err != nil || !slices.Equal(sources, []string{"sina-sports", "sina-testEdu"}) {
		t.Errorf("Sources(SINA) = %v, %v; want the two sina sources", sources, err)
	}
	all, err := svc.Sources(ctx, "")
	if err != nil || len(all) != 5 {
		t.Errorf("Sources() = %v, %v; want 5", all, err)
	}

	// A new headline is found by its new words only; a deleted article not
	// at all.
	if _, err := st.Pool().Exec(ctx, `UPDATE articles SET title = '暴雨预警升级' WHERE id = $1`, ids[1]); err != nil {
		t.Fatal(err)
	}
	if err := st.InTx(ctx, func(tx service.Tx) error { return tx.Delete(ctx, ids[2]) }); err != nil {
		t.Fatal(err)
	}
	if got, want := found(search("洪水", 50)), []string{"xwlb-20250715-14481:words"}; !slices.Equal(got, want) {
		t.Errorf("after an edit and a deletion, Search(洪水) = %v, want %v", got, want)
	}
	if got, want := found(search("预警", 50)), []string{"s-2:words"}; !slices.Equal(got, want) {
		t.Errorf("the edited headline: Search(预警) = %v, want %v", got, want)
	}

	for _, q := range []string{"", "   ", string(make([]rune, service.MaxSearchLength+1)), "a\x00b"} {
		if _, err := svc.Search(ctx, q, 10); err == nil {
			t.Errorf("Search(%q) = nil error, want invalid", q)
		}
	}

}

// TestSearchIndexIsTrueToTheTable: article_search holds one row per
// article with the keys of its headline, through inserts, COPY, updates
// and deletes (the triggers of migration 00021).
func TestSearchIndexIsTrueToTheTable(t *testing.T) {
	t.Parallel()
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	for i, p := range nearPairs(t, 3) {
		for j, a := range p {
			if _, err := svc.Ingest(ctx, input(fmt.Sprintf("k%d-%d", i, j), a), svc.Defaults()); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := st.Pool().Exec(ctx, `UPDATE articles SET title = title || ' 更新', published_at = published_at + interval '1 hour' WHERE external_id LIKE 'k0-%'`); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `DELETE FROM articles WHERE external_id = 'k2-1'`); err != nil {
		t.Fatal(err)
	}
	var wrong int
	if err := st.Pool().QueryRow(ctx, `
		SELECT count(*) FROM articles a FULL JOIN article_search s ON s.article_id = a.id
		WHERE a.id IS NULL OR s.article_id IS NULL
		   OR (s.published_at, s.title_text, s.keys) IS DISTINCT FROM (a.published_at, search_text(a.title), search_keys(a.title))`).Scan(&wrong); err != nil {
		t.Fatal(err)
	}
	if wrong != 0 {
		t.Errorf("%d rows of article_search disagree with articles", wrong)
	}
}
