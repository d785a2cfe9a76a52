package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// auditFixture is a store of the tests' own articles: every one carries a
// slogan, which makes it boilerplate, and article 0 shares with article 1
// a real sentence, a slogan, and a "link" between two different sentences.
func auditFixture(tb testing.TB) (*newsSet, *stored, []sentenceLinkJSON) {
	tb.Helper()
	const slogan = "欢迎下载本站客户端阅读更多新闻。"
	shared := "市里新建的图书馆今天向读者开放。"
	var articles []newsArticle
	st := &stored{byID: make(map[int64]int)}
	for i := range boilerplateFrom + 2 {
		body := fmt.Sprintf("第%d篇文章的第一句话写的是本地新闻。%s", i, slogan)
		if i < 2 {
			body = shared + body
		}
		articles = append(articles, newsArticle{Corpus: corpusSina, ID: fmt.Sprint(i), Title: fmt.Sprintf("标题%d", i), Body: body})
		st.Articles = append(st.Articles, storedArticle{ID: int64(100 + i), Status: statusUnique, ClusterID: int64(100 + i)})
		st.byID[int64(100+i)] = i
	}
	s := &newsSet{Articles: articles}
	links := []sentenceLinkJSON{
		{Position: 0, Text: shared, OtherPosition: 0, OtherText: shared, Distance: 0},
		{Position: 2, Text: slogan, OtherPosition: 2, OtherText: slogan, Distance: 0},
		{Position: 1, Text: "第0篇文章的第一句话写的是本地新闻。", OtherPosition: 1, OtherText: "山区的果农这几天忙着采摘苹果。", Distance: 3},
	}
	return s, st, links
}

// fakeSentenceServer answers the shared-sentences route as the contract
// says: article 100 shares links with 101 (and 101 the same links back).
func fakeSentenceServer(tb testing.TB, links []sentenceLinkJSON) *httptest.Server {
	tb.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/articles/{id}/shared-sentences", func(w http.ResponseWriter, r *http.Request) {
		var ans sharedSentencesJSON
		fmt.Sscan(r.PathValue("id"), &ans.ID)
		if ans.ID == 100 || ans.ID == 101 {
			other := int64(201 - ans.ID)
			ls := links
			if ans.ID == 101 { // the same links, seen from the other side
				ls = nil
				for _, l := range links {
					ls = append(ls, sentenceLinkJSON{Position: l.OtherPosition, Text: l.OtherText, OtherPosition: l.Position, OtherText: l.Text, Distance: l.Distance})
				}
			}
			ans.Sentences = 3
			ans.Articles = append(ans.Articles, sharedArticleJSON{ID: other, Title: "另一篇", Status: statusUnique, Shared: len(ls), Sentences: ls})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(ans)
	})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv
}

func TestAuditSentences(t *testing.T) {
	t.Parallel()
	s, st, links := auditFixture(t)
	srv := fakeSentenceServer(t, links)
	got, err := auditSentences(t.Context(), newClient(srv.URL), s, st, 10)
	if err != nil {
		t.Fatalf("auditSentences() = %v", err)
	}
	// Three distinct links (each seen from both sides), one a reader keeps.
	if got.Skipped != "" || got.Links != 3 || got.Sampled != 3 || got.Rejected != 2 || got.Different != 1 || got.Boilerplate != 1 {
		t.Errorf("auditSentences() = %+v, want 3 links, 2 rejected (1 different, 1 boilerplate)", got)
	}
	if len(got.Examples) != 2 || got.Examples[0].Reason != reasonDifferent {
		t.Errorf("examples = %+v, want the different sentences first", got.Examples)
	}
	for _, e := range got.Examples {
		if strings.Contains(e.Title+e.OtherTitle, "图书馆") {
			t.Errorf("an example quotes a sentence: %+v", e)
		}
	}
	if row := got.goal(); row.Met == nil || *row.Met {
		t.Errorf("goal() = %+v, want not met (2 of 3 rejected)", row)
	}
}

// A server without the route yet: the audit is skipped with a note, not
// failed.
func TestAuditSentencesWithoutTheRoute(t *testing.T) {
	t.Parallel()
	s, st, _ := auditFixture(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":{"code":"not_found","message":"no such route"}}`))
	}))
	t.Cleanup(srv.Close)
	got, err := auditSentences(t.Context(), newClient(srv.URL), s, st, 10)
	if err != nil || got.Skipped == "" {
		t.Errorf("auditSentences() = %+v, %v; want skipped, no error", got, err)
	}
	if row := got.goal(); row.Met != nil || !strings.Contains(row.Figure, "not measured") {
		t.Errorf("goal() = %+v, want not measured", row)
	}
}
