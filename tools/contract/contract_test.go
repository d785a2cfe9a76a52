// Package contract holds the HTTP API to its contract. Outside clients
// generate code from handlers/openapi.json and validate traffic against it,
// so every response the server sends must match the document exactly: this
// test sends a script of requests that reaches every route and every kind of
// answer, success and error alike, to the real stack on a real database, and
// validates each response against the document with kin-openapi.
//
// It lives with the tools so that the service's go.mod does not list
// kin-openapi.
package contract_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// A story of many sentences, written for this test, and the copies the
// script sends of it.
var story = strings.Join([]string{
	"国家统计局今天上午发布了十月份全国居民消费价格的最新数据。",
	"数据显示，十月份全国居民消费价格同比上涨百分之二点一，涨幅比上月有所回落。",
	"其中，城市居民消费价格上涨百分之二点零，农村居民消费价格上涨百分之二点三。",
	"食品价格同比上涨百分之四点五，非食品价格上涨百分之一点六。",
	"国家统计局城市司首席统计师在解读数据时表示，受季节性因素影响，鲜菜价格有所下降。",
	"与此同时，猪肉价格继续高位运行，对居民消费价格指数的拉动作用较为明显。",
	"专家认为，随着生猪产能逐步恢复，猪肉价格有望在明年上半年回落。",
	"从环比看，十月份居民消费价格上涨百分之零点三，主要受到节日因素的带动。",
	"交通和通信价格下降，教育文化和娱乐价格上涨，医疗保健价格基本持平。",
	"分析人士指出，当前物价总体保持温和上涨态势，全年物价调控目标有望顺利实现。",
}, "\n")

// correctedStory is the story corrected: one figure changed.
var correctedStory = strings.Replace(story, "百分之四点五", "百分之四点六", 1)

func firstLines(text string, n int) string {
	return strings.Join(strings.Split(text, "\n")[:n], "\n")
}

const unrelated = "中国科学技术大学研究团队近日在国际学术期刊发表论文，宣布成功研制出包含504个超导量子比特的新型量子计算芯片。" +
	"该芯片在多项性能指标上达到国际先进水平，为构建实用化量子计算机奠定了基础。" +
	"研究人员表示，下一步将继续提升量子比特的相干时间和操控精度。"

type step struct {
	name        string
	method      string
	path        string
	body        any // marshalled to JSON; a string is sent as it is
	contentType string
	bearer      string
	want        int
}

func TestResponsesMatchTheContract(t *testing.T) {
	ctx := context.Background()
	doc, router := loadContract(t)
	srv := newStack(t, "contract-key")

	art := func(id, title, body string) map[string]any {
		return map[string]any{"external_id": id, "source": "test", "title": title, "body": body, "published_at": "2026-05-01T08:00:00+08:00"}
	}
	steps := []step{
		{name: "ingest", method: "POST", path: "/v1/articles", body: art("a", "十月份居民消费价格同比上涨", story), want: 201},
		{name: "retry", method: "POST", path: "/v1/articles", body: art("a", "十月份居民消费价格同比上涨", story), want: 200},
		{name: "exact copy", method: "POST", path: "/v1/articles", body: art("b", "十月份居民消费价格同比上涨", story), want: 201},
		{name: "retitled", method: "POST", path: "/v1/articles", body: art("c", "物价温和上涨", story), want: 201},
		{name: "excerpt", method: "POST", path: "/v1/articles", body: art("d", "摘编", firstLines(story, 4)), want: 201},
		{name: "batch", method: "POST", path: "/v1/articles/batch", body: map[string]any{"articles": []any{
			art("e", "量子芯片", unrelated), map[string]any{"external_id": "f"}, art("g", "物价", firstLines(story, 8))}}, want: 200},
		{name: "check", method: "POST", path: "/v1/check", body: map[string]any{"body": firstLines(story, 7), "shared_sentences": true}, want: 200},
		{name: "check unique", method: "POST", path: "/v1/check", body: map[string]any{"body": unrelated + "另外一段全新的内容，讲述天气。"}, want: 200},
		{name: "article", method: "GET", path: "/v1/articles/1", want: 200},
		{name: "partial article", method: "GET", path: "/v1/articles/4", want: 200},
		{name: "by key", method: "GET", path: "/v1/articles?source=test&external_id=c", want: 200},
		{name: "duplicates", method: "GET", path: "/v1/articles/1/duplicates", want: 200},
		{name: "shared sentences", method: "GET", path: "/v1/articles/1/shared-sentences?limit=10", want: 200},
		{name: "versions", method: "GET", path: "/v1/articles/1/versions", want: 200},
		{name: "correction", method: "POST", path: "/v1/articles", body: art("a", "十月份居民消费价格同比上涨", correctedStory), want: 201},
		{name: "corrected versions", method: "GET", path: "/v1/articles/1/versions", want: 200},
		{name: "versions of none", method: "GET", path: "/v1/articles/999999/versions", want: 404},
		{name: "cluster", method: "GET", path: "/v1/clusters/1", want: 200},
		{name: "other coverage", method: "GET", path: "/v1/clusters/1/other-coverage", want: 200},
		{name: "other coverage of no cluster", method: "GET", path: "/v1/clusters/999999/other-coverage", want: 404},
		{name: "fingerprint", method: "POST", path: "/v1/fingerprint", body: map[string]any{"title": "物价", "body": story}, want: 200},
		{name: "compare", method: "POST", path: "/v1/compare", body: map[string]any{"a": map[string]any{"body": story}, "b": map[string]any{"body": firstLines(story, 9)}}, want: 200},
		{name: "search words", method: "GET", path: "/v1/search?q=%E4%B8%8A%E6%B6%A8", want: 200},
		{name: "search key", method: "GET", path: "/v1/search?q=test+c", want: 200},
		{name: "search url", method: "GET", path: "/v1/search?q=https%3A%2F%2Fnews.example.com%2Fa&limit=5", want: 200},
		{name: "search nothing", method: "GET", path: "/v1/search?q=zzz", want: 200},
		{name: "sources", method: "GET", path: "/v1/sources?prefix=te", want: 200},
		{name: "overview", method: "GET", path: "/v1/overview?days=7", want: 200},
		{name: "clusters by size, counted", method: "GET", path: "/v1/clusters?sort=size&total=true&source_prefix=T", want: 200},
		{name: "clusters by latest", method: "GET", path: "/v1/clusters?sort=latest&limit=1", want: 200},
		{name: "delete", method: "DELETE", path: "/v1/articles/2", want: 204},
		{name: "healthz", method: "GET", path: "/healthz", want: 200},
		{name: "readyz", method: "GET", path: "/readyz", want: 200},
		{name: "metrics", method: "GET", path: "/metrics", want: 200},
		{name: "openapi.json", method: "GET", path: "/openapi.json", want: 200},

		{name: "no key", method: "POST", path: "/v1/check", body: map[string]any{"body": story}, bearer: "-", want: 401},
		{name: "malformed JSON", method: "POST", path: "/v1/articles", body: `{"body":`, want: 400},
		{name: "unknown field", method: "POST", path: "/v1/articles", body: map[string]any{"external_id": "x", "body": story, "colour": 1}, want: 400},
		{name: "out of range", method: "POST", path: "/v1/check", body: map[string]any{"body": story, "max_distance": 9}, want: 422},
		{name: "no words", method: "POST", path: "/v1/fingerprint", body: map[string]any{"body": "。。。"}, want: 422},
		{name: "not JSON", method: "POST", path: "/v1/check", body: "x", contentType: "text/plain", want: 415},
		{name: "too large", method: "POST", path: "/v1/check", body: map[string]any{"body": strings.Repeat("新闻", 1<<20)}, want: 413},
		{name: "empty batch", method: "POST", path: "/v1/articles/batch", body: map[string]any{"articles": []any{}}, want: 422},
		{name: "no article", method: "GET", path: "/v1/articles/999999", want: 404},
		{name: "no key found", method: "GET", path: "/v1/articles?source=test&external_id=none", want: 404},
		{name: "deleted", method: "DELETE", path: "/v1/articles/2", want: 404},
		{name: "bad limit", method: "GET", path: "/v1/articles/1/shared-sentences?limit=0", want: 422},
		{name: "empty search", method: "GET", path: "/v1/search?q=", want: 422},
		{name: "bad days", method: "GET", path: "/v1/overview?days=0", want: 422},
		{name: "bad sort", method: "GET", path: "/v1/clusters?sort=random", want: 422},
		{name: "wrong method", method: "PUT", path: "/v1/articles/1", body: map[string]any{}, want: 405},
	}
	statuses := map[string]bool{}
	for _, s := range steps {
		req, res, body := send(t, srv, s)
		if res.StatusCode != s.want {
			t.Errorf("%s: %s %s = %d %s, want %d", s.name, s.method, s.path, res.StatusCode, clip(body), s.want)
			continue
		}
		route, params, err := router.FindRoute(req)
		if err != nil {
			if s.want == http.StatusMethodNotAllowed {
				continue // a method the document has no operation for: nothing to hold it to
			}
			t.Errorf("%s: %s %s is not in the contract: %v", s.name, s.method, s.path, err)
			continue
		}
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
				Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
			Status:  res.StatusCode,
			Header:  res.Header,
			Options: &openapi3filter.Options{IncludeResponseStatus: true},
		}
		in.SetBodyBytes(body)
		if err := openapi3filter.ValidateResponse(ctx, in); err != nil {
			t.Errorf("%s: %s %s = %d: the response does not match the contract: %v\n%s", s.name, s.method, s.path, res.StatusCode, err, clip(body))
		}
		statuses[fmt.Sprintf("%d", res.StatusCode)] = true
		if s.name == "excerpt" && !strings.Contains(string(body), `"partial_duplicate"`) {
			t.Errorf("the excerpt is not a partial duplicate: %s", clip(body))
		}
	}
	_ = doc
	t.Logf("%d requests, statuses %v", len(steps), statuses)
}

func loadContract(t *testing.T) (*openapi3.T, routers.Router) {
	t.Helper()
	raw, err := os.ReadFile("../../handlers/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		t.Fatalf("load openapi.json: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI document: %v", err)
	}
	doc.Servers = nil // the test server's address is its own
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return doc, router
}

// newStack serves the real stack — PostgreSQL, repo, service, handlers —
// over a fresh database, requiring key.
func newStack(t *testing.T, key string) *httptest.Server {
	t.Helper()
	ctx := context.Background()
	dict, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dict.Close)
	store, err := repo.Open(ctx, dbtest.URL(t), repo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	svc, err := service.New(store, fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams), service.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	h, err := handlers.New(svc, handlers.Config{
		APIKeys:  []string{key},
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
		Registry: prometheus.NewRegistry(),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func send(t *testing.T, srv *httptest.Server, s step) (*http.Request, *http.Response, []byte) {
	t.Helper()
	var body io.Reader
	switch b := s.body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(s.method, srv.URL+s.path, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		ct := s.contentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	if s.bearer != "-" {
		req.Header.Set("Authorization", "Bearer contract-key")
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	// The request as the router reads it: with a body it can read again.
	req.Body = nil
	return req, res, raw
}

func clip(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}
