package handlers_test

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// verdict is the verdict the API returns.
type verdict struct {
	ID          *int64 `json:"id"`
	ExternalID  string `json:"external_id"`
	Source      string `json:"source"`
	Status      string `json:"status"`
	DuplicateOf *struct {
		ID         int64   `json:"id"`
		ExternalID string  `json:"external_id"`
		Distance   int     `json:"distance"`
		WordRatio  float64 `json:"word_ratio"`
		Overlap    float64 `json:"overlap"`
	} `json:"duplicate_of"`
	Matches []struct {
		ID          int64   `json:"id"`
		ExternalID  string  `json:"external_id"`
		Source      string  `json:"source"`
		Title       string  `json:"title"`
		PublishedAt string  `json:"published_at"`
		Distance    int     `json:"distance"`
		WordRatio   float64 `json:"word_ratio"`
	} `json:"matches"`
	Simhash string `json:"simhash"`
	Created *bool  `json:"created"`
}

// storedArticle is a stored article as the API returns it.
type storedArticle struct {
	ID          int64    `json:"id"`
	ExternalID  string   `json:"external_id"`
	Source      string   `json:"source"`
	Title       string   `json:"title"`
	URL         string   `json:"url"`
	PublishedAt string   `json:"published_at"`
	IngestedAt  string   `json:"ingested_at"`
	Simhash     string   `json:"simhash"`
	Status      string   `json:"status"`
	DuplicateOf *int64   `json:"duplicate_of"`
	ClusterID   int64    `json:"cluster_id"`
	Distance    *int     `json:"distance"`
	WordRatio   *float64 `json:"word_ratio"`
}

type duplicates struct {
	ID         int64           `json:"id"`
	ClusterID  int64           `json:"cluster_id"`
	Duplicates []storedArticle `json:"duplicates"`
}

var hex16 = regexp.MustCompile(`^[0-9a-f]{16}$`)

// article is an ingest request.
func article(externalID, title, body string) map[string]any {
	return map[string]any{
		"external_id":  externalID,
		"source":       "xinhua",
		"title":        title,
		"body":         body,
		"url":          "https://news.example.com/" + externalID,
		"published_at": "2024-05-11T09:30:00+08:00",
	}
}

// ingest posts an article and checks the status and the verdict's shape.
func (s *server) ingest(tb testing.TB, a map[string]any, wantStatus int) verdict {
	tb.Helper()
	r := s.post(tb, "/v1/articles", a)
	if r.status != wantStatus {
		tb.Fatalf("POST /v1/articles %v: got %v, want %d", a["external_id"], r, wantStatus)
	}
	checkVerdictShape(tb, r, true)
	return decode[verdict](tb, r)
}

// checkVerdictShape checks the keys of a verdict: id only when withID,
// matches a list (never null), duplicate_of present (null or an object), a
// 16-hex-digit simhash, and no created outside a batch.
func checkVerdictShape(tb testing.TB, r response, withID bool) {
	tb.Helper()
	o := decode[object](tb, r)
	if _, ok := o["id"]; ok != withID {
		tb.Errorf("verdict %v: has id = %v, want %v", r, ok, withID)
	}
	if _, ok := o["created"]; ok {
		tb.Errorf("verdict %v: has created outside a batch", r)
	}
	if _, ok := o["duplicate_of"]; !ok {
		tb.Errorf("verdict %v: no duplicate_of key", r)
	}
	if m, ok := o["matches"].([]any); !ok || m == nil {
		tb.Errorf("verdict %v: matches = %#v, want a list", r, o["matches"])
	}
	if h, _ := o["simhash"].(string); !hex16.MatchString(h) {
		tb.Errorf("verdict %v: simhash = %q, want 16 lower-case hex digits", r, h)
	}
}

// wantFourDecimals fails unless x has at most 4 decimals.
func wantFourDecimals(tb testing.TB, what string, x float64) {
	tb.Helper()
	if math.Abs(x*1e4-math.Round(x*1e4)) > 1e-6 {
		tb.Errorf("%s = %v, want at most 4 decimals", what, x)
	}
}

func TestArticleLifecycle(t *testing.T) {
	t.Parallel()
	s := newServer(t)

	// A new article: 201, unique, and a Location.
	a := s.ingest(t, article("cms-a", cpiTitle, cpiBody), http.StatusCreated)
	if a.ID == nil || *a.ID <= 0 || a.Status != "unique" || a.DuplicateOf != nil || len(a.Matches) != 0 {
		t.Fatalf("first ingest = %+v, want a unique article with an id and no matches", a)
	}
	if a.ExternalID != "cms-a" || a.Source != "xinhua" {
		t.Errorf("first ingest key = %q/%q, want xinhua/cms-a", a.Source, a.ExternalID)
	}
	aID := *a.ID
	loc := s.post(t, "/v1/articles", article("cms-loc", chipTitle, chipBody))
	if id := *decode[verdict](t, loc).ID; loc.header.Get("Location") != fmt.Sprintf("/v1/articles/%d", id) {
		t.Errorf("Location = %q, want /v1/articles/%d", loc.header.Get("Location"), id)
	}

	// The same key and content again: 200 and the same verdict.
	again := s.ingest(t, article("cms-a", cpiTitle, cpiBody), http.StatusOK)
	if *again.ID != aID || again.Status != "unique" || again.Simhash != a.Simhash {
		t.Errorf("retry = %+v, want the stored verdict of %d", again, aID)
	}

	// A repost under another key: a near duplicate of A.
	b := s.ingest(t, article("cms-b", cpiTitle, cpiRepost), http.StatusCreated)
	if b.Status != "near_duplicate" || b.DuplicateOf == nil || b.DuplicateOf.ID != aID || b.DuplicateOf.ExternalID != "cms-a" {
		t.Fatalf("repost = %+v, want a near duplicate of %d", b, aID)
	}
	if d := b.DuplicateOf.Distance; d < 0 || d > 3 {
		t.Errorf("repost distance = %d, want 0–3", d)
	}
	if o := b.DuplicateOf.Overlap; o < 0.5 || o >= 1 {
		t.Errorf("repost overlap = %v, want at least the default 0.5, and below 1 (two words changed)", o)
	}
	wantFourDecimals(t, "repost word_ratio", b.DuplicateOf.WordRatio)
	wantFourDecimals(t, "repost overlap", b.DuplicateOf.Overlap)
	if len(b.Matches) != 1 || b.Matches[0].ID != aID || b.Matches[0].Title != cpiTitle || b.Matches[0].Source != "xinhua" {
		t.Fatalf("repost matches = %+v, want A", b.Matches)
	}
	if _, err := time.Parse(time.RFC3339, b.Matches[0].PublishedAt); err != nil {
		t.Errorf("match published_at = %q: %v", b.Matches[0].PublishedAt, err)
	}
	bID := *b.ID

	// The same text with other punctuation: an exact duplicate of A.
	exactBody := strings.NewReplacer("。", ".", "，", ",").Replace(cpiBody)
	c := s.ingest(t, article("cms-c", cpiTitle, exactBody), http.StatusCreated)
	if c.Status != "exact_duplicate" || c.DuplicateOf == nil || c.DuplicateOf.ID != aID || c.DuplicateOf.Distance != 0 {
		t.Fatalf("exact copy = %+v, want an exact duplicate of %d at distance 0", c, aID)
	}
	if len(c.Matches) != 2 || c.Matches[0].ID != aID || c.Matches[0].Distance != 0 {
		t.Errorf("exact copy matches = %+v, want A (distance 0) then B", c.Matches)
	}
	cID := *c.ID

	// An unrelated article, then new content under its key: 201 again, the
	// same id, judged again.
	d := s.ingest(t, article("cms-d", trainTitle, trainBody), http.StatusCreated)
	if d.Status != "unique" {
		t.Errorf("unrelated = %+v, want unique", d)
	}
	replaced := s.ingest(t, article("cms-d", rainTitle, rainBody), http.StatusCreated)
	if *replaced.ID != *d.ID || replaced.Simhash == d.Simhash || replaced.Status != "unique" {
		t.Errorf("replaced = %+v, want id %d with a new simhash", replaced, *d.ID)
	}
	s.ingest(t, article("cms-d", rainTitle, rainBody), http.StatusOK)

	// A check stores nothing and has no id.
	chk := s.post(t, "/v1/check", map[string]any{"external_id": "cms-check", "source": "xinhua", "title": cpiTitle,
		"body": cpiBody, "published_at": "2024-05-11T12:00:00+08:00"})
	wantStatus(t, "check", chk, http.StatusOK)
	checkVerdictShape(t, chk, false)
	cv := decode[verdict](t, chk)
	if cv.Status != "exact_duplicate" || cv.DuplicateOf == nil || cv.DuplicateOf.ID != aID || len(cv.Matches) != 3 {
		t.Errorf("check = %+v, want an exact duplicate of %d with 3 matches", cv, aID)
	}
	// Published now, far from the others: exact copies are found at any
	// time, near ones only within the window; window_hours 0 lifts it.
	now := decode[verdict](t, s.post(t, "/v1/check", map[string]any{"title": cpiTitle, "body": cpiBody}))
	if now.Status != "exact_duplicate" || len(now.Matches) != 2 {
		t.Errorf("check published now = %+v, want the 2 exact copies only", now)
	}
	noWindow := decode[verdict](t, s.post(t, "/v1/check", map[string]any{"title": cpiTitle, "body": cpiBody, "window_hours": 0}))
	if len(noWindow.Matches) != 3 {
		t.Errorf("check with window_hours 0 = %+v, want 3 matches", noWindow)
	}
	limited := decode[verdict](t, s.post(t, "/v1/check", map[string]any{"body": cpiBody, "title": cpiTitle, "limit": 1}))
	if len(limited.Matches) != 1 {
		t.Errorf("check with limit 1: %d matches, want 1", len(limited.Matches))
	}
	// Ingest takes limit too.
	lim := article("cms-e", cpiTitle, cpiBody)
	lim["limit"] = 2
	if e := s.ingest(t, lim, http.StatusCreated); len(e.Matches) != 2 {
		t.Errorf("ingest with limit 2: %d matches, want 2", len(e.Matches))
	}
	wantError(t, "check was stored", s.get(t, "/v1/articles?source=xinhua&external_id=cms-check"), http.StatusNotFound, "not_found")

	// The stored articles.
	ga := decode[storedArticle](t, s.get(t, fmt.Sprintf("/v1/articles/%d", aID)))
	if ga.ID != aID || ga.ExternalID != "cms-a" || ga.Source != "xinhua" || ga.Title != cpiTitle ||
		ga.URL != "https://news.example.com/cms-a" || ga.Status != "unique" || ga.Simhash != a.Simhash ||
		ga.DuplicateOf != nil || ga.ClusterID != aID || ga.Distance != nil || ga.WordRatio != nil {
		t.Errorf("GET A = %+v, want the canonical article %d", ga, aID)
	}
	if p, err := time.Parse(time.RFC3339, ga.PublishedAt); err != nil || !p.Equal(time.Date(2024, 5, 11, 1, 30, 0, 0, time.UTC)) {
		t.Errorf("GET A published_at = %q (%v), want 2024-05-11T01:30:00Z", ga.PublishedAt, err)
	}
	if _, err := time.Parse(time.RFC3339, ga.IngestedAt); err != nil {
		t.Errorf("GET A ingested_at = %q: %v", ga.IngestedAt, err)
	}
	rawA := decode[object](t, s.get(t, fmt.Sprintf("/v1/articles/%d", aID)))
	for _, k := range []string{"id", "external_id", "source", "title", "url", "published_at", "ingested_at", "simhash",
		"status", "duplicate_of", "cluster_id", "distance", "word_ratio"} {
		if _, ok := rawA[k]; !ok {
			t.Errorf("GET A has no %q key: %v", k, rawA)
		}
	}
	gb := decode[storedArticle](t, s.get(t, "/v1/articles?source=xinhua&external_id=cms-b"))
	if gb.ID != bID || gb.Status != "near_duplicate" || gb.DuplicateOf == nil || *gb.DuplicateOf != aID ||
		gb.ClusterID != aID || gb.Distance == nil || *gb.Distance != b.DuplicateOf.Distance ||
		gb.WordRatio == nil || *gb.WordRatio != b.DuplicateOf.WordRatio {
		t.Errorf("GET B by key = %+v, want the near duplicate %d of %d", gb, bID, aID)
	}
	wantError(t, "by key, unknown", s.get(t, "/v1/articles?source=xinhua&external_id=nope"), http.StatusNotFound, "not_found")
	wantError(t, "by key, other source", s.get(t, "/v1/articles?external_id=cms-b"), http.StatusNotFound, "not_found")
	e := wantError(t, "by key, no external_id", s.get(t, "/v1/articles?source=xinhua"), http.StatusUnprocessableEntity, "invalid_argument")
	if e.Error.Field != "external_id" {
		t.Errorf("by key without external_id: field = %q, want external_id", e.Error.Field)
	}

	// Duplicates: the other members, earliest ingested first.
	dupsOf := func(id int64) duplicates {
		t.Helper()
		r := s.get(t, fmt.Sprintf("/v1/articles/%d/duplicates", id))
		wantStatus(t, "duplicates", r, http.StatusOK)
		return decode[duplicates](t, r)
	}
	ids := func(ds duplicates) []int64 {
		var out []int64
		for _, d := range ds.Duplicates {
			out = append(out, d.ID)
		}
		return out
	}
	eID := decode[storedArticle](t, s.get(t, "/v1/articles?source=xinhua&external_id=cms-e")).ID
	if got := dupsOf(aID); got.ID != aID || got.ClusterID != aID || fmt.Sprint(ids(got)) != fmt.Sprint([]int64{bID, cID, eID}) {
		t.Errorf("duplicates of A = %+v, want cluster %d: %d, %d, %d", got, aID, bID, cID, eID)
	}
	if got := dupsOf(bID); got.ClusterID != aID || fmt.Sprint(ids(got)) != fmt.Sprint([]int64{aID, cID, eID}) {
		t.Errorf("duplicates of B = %+v, want cluster %d: %d, %d, %d", got, aID, aID, cID, eID)
	}
	if got := dupsOf(*d.ID); got.ClusterID != *d.ID || got.Duplicates == nil || len(got.Duplicates) != 0 {
		t.Errorf("duplicates of D = %+v, want its own cluster, empty list", got)
	}
	wantError(t, "duplicates of unknown", s.get(t, "/v1/articles/999999/duplicates"), http.StatusNotFound, "not_found")

	// Delete A: 204, then 404, and B takes the cluster over.
	del := s.do(t, request{method: http.MethodDelete, path: fmt.Sprintf("/v1/articles/%d", aID)})
	if del.status != http.StatusNoContent || len(del.body) != 0 {
		t.Fatalf("DELETE A = %v, want 204 and no body", del)
	}
	wantError(t, "GET deleted", s.get(t, fmt.Sprintf("/v1/articles/%d", aID)), http.StatusNotFound, "not_found")
	wantError(t, "DELETE deleted", s.do(t, request{method: http.MethodDelete, path: fmt.Sprintf("/v1/articles/%d", aID)}),
		http.StatusNotFound, "not_found")
	wantError(t, "duplicates of deleted", s.get(t, fmt.Sprintf("/v1/articles/%d/duplicates", aID)), http.StatusNotFound, "not_found")
	if got := dupsOf(bID); got.ClusterID != bID || fmt.Sprint(ids(got)) != fmt.Sprint([]int64{cID, eID}) {
		t.Errorf("duplicates of B after deleting A = %+v, want cluster %d: %d, %d", got, bID, cID, eID)
	}

	// A is never matched again.
	after := decode[verdict](t, s.post(t, "/v1/check", map[string]any{"title": cpiTitle, "body": cpiBody, "limit": 1000}))
	for _, m := range after.Matches {
		if m.ID == aID {
			t.Errorf("check after delete matched the deleted article: %+v", after)
		}
	}
	f := s.ingest(t, article("cms-f", cpiTitle, cpiBody), http.StatusCreated)
	if f.DuplicateOf == nil || f.DuplicateOf.ID == aID {
		t.Errorf("ingest after delete = %+v, want a duplicate of a remaining article", f)
	}
	for _, m := range f.Matches {
		if m.ID == aID {
			t.Errorf("ingest after delete matched the deleted article: %+v", f)
		}
	}
}

type fingerprintResult struct {
	Simhash string `json:"simhash"`
	Version int    `json:"version"`
	Blocks  struct {
		A []int `json:"a"`
		B []int `json:"b"`
	} `json:"blocks"`
	Keywords []struct {
		Word   string  `json:"word"`
		Weight float64 `json:"weight"`
	} `json:"keywords"`
}

func TestFingerprint(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	r := s.post(t, "/v1/fingerprint", map[string]string{"title": cpiTitle, "body": cpiBody, "content_type": "text"})
	wantStatus(t, "fingerprint", r, http.StatusOK)
	got := decode[fingerprintResult](t, r)
	if !hex16.MatchString(got.Simhash) || got.Version != int(fingerprint.VersionOneScript) {
		t.Fatalf("fingerprint = %v, want 16 hex digits and version %d", r, fingerprint.VersionOneScript)
	}
	h, _ := strconv.ParseUint(got.Simhash, 16, 64)
	want := fingerprint.BlocksOf(h)
	for j := range 4 {
		if got.Blocks.A[j] != int(want.A[j]) || got.Blocks.B[j] != int(want.B[j]) {
			t.Errorf("blocks = %v, want the blocks of %s: %v", got.Blocks, got.Simhash, want)
			break
		}
	}
	if len(got.Blocks.A) != 4 || len(got.Blocks.B) != 4 {
		t.Errorf("blocks = %+v, want 4 and 4", got.Blocks)
	}
	if n := len(got.Keywords); n == 0 || n > 20 {
		t.Errorf("%d keywords, want 1–20", n)
	}
	for _, k := range got.Keywords {
		wantFourDecimals(t, "weight of "+k.Word, k.Weight)
	}
	// The ingest of the same text has the same simhash.
	v := s.ingest(t, article("fp-1", cpiTitle, cpiBody), http.StatusCreated)
	if v.Simhash != got.Simhash {
		t.Errorf("ingest simhash = %s, fingerprint simhash = %s", v.Simhash, got.Simhash)
	}
	// HTML: the markup does not count.
	html := s.post(t, "/v1/fingerprint", map[string]string{"title": cpiTitle,
		"body": "<p>" + cpiBody + "</p><script>var x = 1;</script>", "content_type": "html"})
	if hv := decode[fingerprintResult](t, html); hv.Simhash != got.Simhash {
		t.Errorf("fingerprint of the HTML = %s, want the text's %s", hv.Simhash, got.Simhash)
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	type comparison struct {
		Distance       int      `json:"distance"`
		WordRatio      float64  `json:"word_ratio"`
		NearDuplicate  bool     `json:"near_duplicate"`
		SharedKeywords []string `json:"shared_keywords"`
	}
	text := func(title, body string) map[string]string { return map[string]string{"title": title, "body": body} }

	near := decode[comparison](t, s.post(t, "/v1/compare", map[string]any{"a": text(cpiTitle, cpiBody), "b": text(cpiTitle, cpiRepost)}))
	if !near.NearDuplicate || near.Distance > 3 || len(near.SharedKeywords) == 0 {
		t.Errorf("compare repost = %+v, want a near duplicate sharing keywords", near)
	}
	wantFourDecimals(t, "word_ratio", near.WordRatio)

	far := s.post(t, "/v1/compare", map[string]any{"a": text(cpiTitle, cpiBody), "b": text(chipTitle, chipBody)})
	wantStatus(t, "compare", far, http.StatusOK)
	if fc := decode[comparison](t, far); fc.NearDuplicate || fc.Distance < 10 || fc.SharedKeywords == nil {
		t.Errorf("compare unrelated = %+v, want far apart with a shared_keywords list", fc)
	}

	tests := []struct {
		name  string
		body  any
		field string
	}{
		{"missing a", map[string]any{"b": text(cpiTitle, cpiBody)}, "a"},
		{"missing b", map[string]any{"a": text(cpiTitle, cpiBody)}, "b"},
		{"null b", `{"a":{"body":"国家统计局发布数据"},"b":null}`, "b"},
		{"blank a.body", map[string]any{"a": text("", "  "), "b": text(cpiTitle, cpiBody)}, "a.body"},
		{"bad b.content_type", map[string]any{"a": text("", cpiBody), "b": map[string]string{"body": cpiBody, "content_type": "pdf"}}, "b.content_type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := wantError(t, tt.name, s.post(t, "/v1/compare", tt.body), http.StatusUnprocessableEntity, "invalid_argument")
			if e.Error.Field != tt.field {
				t.Errorf("field = %q, want %q", e.Error.Field, tt.field)
			}
		})
	}
}

func TestBatch(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	good1 := article("batch-1", cpiTitle, cpiBody)
	badShape := map[string]any{"external_id": "batch-2", "body": 42}
	invalid := map[string]any{"external_id": "batch-3", "body": cpiBody, "max_distance": 9}
	good2 := article("batch-4", cpiTitle, cpiRepost)
	unknown := map[string]any{"external_id": "batch-5", "body": cpiBody, "colour": "red"}
	noWords := map[string]any{"external_id": "batch-6", "body": "。。！！"}
	badTime := map[string]any{"external_id": "batch-7", "body": trainBody, "published_at": "yesterday"}
	body := map[string]any{"articles": []any{good1, badShape, invalid, good2, unknown, noWords, badTime, "not an object"}}

	r := s.post(t, "/v1/articles/batch", body)
	wantStatus(t, "batch", r, http.StatusOK)
	raw := decode[struct {
		Results []object `json:"results"`
	}](t, r)
	got := decode[struct {
		Results []struct {
			verdict
			Error *struct {
				Code, Message, Field string
			} `json:"error"`
		} `json:"results"`
	}](t, r)
	if len(got.Results) != 8 {
		t.Fatalf("batch: %d results, want 8: %v", len(got.Results), r)
	}
	wantErr := map[int]struct{ code, field string }{
		1: {"invalid_json", "body"},
		2: {"invalid_argument", "max_distance"},
		4: {"invalid_json", "colour"},
		5: {"invalid_argument", "body"},
		6: {"invalid_argument", "published_at"},
		7: {"invalid_json", ""},
	}
	for i, res := range got.Results {
		want, isErr := wantErr[i]
		switch {
		case isErr && (res.Error == nil || res.Error.Code != want.code || res.Error.Field != want.field):
			t.Errorf("result %d = %v, want error %s on %q", i, raw.Results[i], want.code, want.field)
		case isErr && len(raw.Results[i]) != 1:
			t.Errorf("result %d = %v, want only an error", i, raw.Results[i])
		case !isErr && (res.Error != nil || res.ID == nil || res.Created == nil || !*res.Created):
			t.Errorf("result %d = %v, want a created verdict", i, raw.Results[i])
		}
	}
	first, second := got.Results[0], got.Results[3]
	if first.Status != "unique" || second.Status != "near_duplicate" || second.DuplicateOf == nil || second.DuplicateOf.ID != *first.ID {
		t.Errorf("batch verdicts = %v, %v; want the repost a near duplicate of the first", raw.Results[0], raw.Results[3])
	}
	if _, ok := raw.Results[0]["matches"].([]any); !ok {
		t.Errorf("batch verdict matches = %#v, want a list", raw.Results[0]["matches"])
	}
	// The good ones are stored, the bad ones not.
	for _, id := range []string{"batch-1", "batch-4"} {
		wantStatus(t, "GET "+id, s.get(t, "/v1/articles?source=xinhua&external_id="+id), http.StatusOK)
	}
	for _, id := range []string{"batch-2", "batch-3", "batch-5", "batch-6", "batch-7"} {
		wantError(t, "GET "+id, s.get(t, "/v1/articles?external_id="+id), http.StatusNotFound, "not_found")
	}

	// A retry: the same verdicts, created false.
	retry := decode[struct {
		Results []verdict `json:"results"`
	}](t, s.post(t, "/v1/articles/batch", map[string]any{"articles": []any{good1, good2}}))
	if len(retry.Results) != 2 || retry.Results[0].Created == nil || *retry.Results[0].Created ||
		*retry.Results[0].ID != *first.ID || *retry.Results[1].ID != *second.ID || retry.Results[1].Status != "near_duplicate" {
		t.Errorf("batch retry = %+v, want the stored verdicts with created false", retry.Results)
	}
}

func TestHealthAndReady(t *testing.T) {
	t.Parallel()
	up := newServer(t)
	down := newServerOn(t, unreachableURL(t))
	tests := []struct {
		name   string
		s      *server
		path   string
		status int
	}{
		{"healthz up", up, "/healthz", http.StatusOK},
		{"readyz up", up, "/readyz", http.StatusOK},
		{"healthz with the database down", down, "/healthz", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := tt.s.get(t, tt.path)
			wantStatus(t, tt.name, r, tt.status)
			if got := decode[object](t, r); got["status"] != "ok" {
				t.Errorf("%s = %v, want {\"status\":\"ok\"}", tt.path, r)
			}
		})
	}
	t.Run("database down", func(t *testing.T) {
		t.Parallel()
		wantError(t, "readyz", down.get(t, "/readyz"), http.StatusServiceUnavailable, "unavailable")
		wantError(t, "ingest", down.post(t, "/v1/articles", article("x", cpiTitle, cpiBody)), http.StatusServiceUnavailable, "unavailable")
		wantError(t, "batch", down.post(t, "/v1/articles/batch", map[string]any{"articles": []any{article("x", cpiTitle, cpiBody)}}),
			http.StatusServiceUnavailable, "unavailable")
		wantError(t, "check", down.post(t, "/v1/check", map[string]any{"body": cpiBody}), http.StatusServiceUnavailable, "unavailable")
		wantError(t, "GET", down.get(t, "/v1/articles/1"), http.StatusServiceUnavailable, "unavailable")
		wantError(t, "by key", down.get(t, "/v1/articles?external_id=x"), http.StatusServiceUnavailable, "unavailable")
		wantError(t, "duplicates", down.get(t, "/v1/articles/1/duplicates"), http.StatusServiceUnavailable, "unavailable")
		wantError(t, "DELETE", down.do(t, request{method: http.MethodDelete, path: "/v1/articles/1"}), http.StatusServiceUnavailable, "unavailable")
		// What needs no database still works.
		wantStatus(t, "fingerprint", down.post(t, "/v1/fingerprint", map[string]string{"body": cpiBody}), http.StatusOK)
		// The causes are logged, without the body.
		if logs := down.logs.String(); !strings.Contains(logs, `"status":503`) || strings.Contains(logs, "国家统计局") {
			t.Errorf("logs of the failed requests = %s, want the 503s logged without bodies", logs)
		}
	})
}

func TestRequestID(t *testing.T) {
	t.Parallel()
	s := newServerOn(t, unreachableURL(t))
	tests := []struct {
		name, sent string
		echoed     bool
	}{
		{"none sent", "", false},
		{"a token", "req-1234.abc_DEF:9", true},
		{"too long", strings.Repeat("a", 200), false},
		{"bad characters", "id with spaces", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			if tt.sent != "" {
				h.Set("X-Request-Id", tt.sent)
			}
			r := s.do(t, request{method: http.MethodGet, path: "/healthz", header: h})
			got := r.header.Get("X-Request-Id")
			switch {
			case tt.echoed && got != tt.sent:
				t.Errorf("X-Request-Id = %q, want %q echoed", got, tt.sent)
			case !tt.echoed && (got == "" || got == tt.sent):
				t.Errorf("X-Request-Id = %q, want a fresh id", got)
			}
		})
	}
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	v := s.ingest(t, article("m-1", cpiTitle, cpiBody), http.StatusCreated)
	s.get(t, fmt.Sprintf("/v1/articles/%d", *v.ID))
	s.post(t, "/v1/check", map[string]any{"title": cpiTitle, "body": cpiBody})
	s.get(t, "/no/such/route/42")

	r := s.get(t, "/metrics")
	wantStatus(t, "metrics", r, http.StatusOK)
	text := string(r.body)
	for _, want := range []string{
		"newsdedup_http_requests_total",
		"newsdedup_http_request_duration_seconds_bucket",
		`newsdedup_verdicts_total{endpoint="ingest",status="unique"} 1`,
		`newsdedup_verdicts_total{endpoint="check",status="exact_duplicate"} 1`,
		`newsdedup_verdicts_total{endpoint="batch",status="unique"} 0`,
		`newsdedup_index_candidates_bucket{le="1000"} 2`,
		`newsdedup_http_requests_total{method="POST",route="/v1/articles",status="201"} 1`,
		`newsdedup_http_requests_total{method="GET",route="/v1/articles/:id",status="200"} 1`,
		`route="unmatched",status="404"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics have no %s:\n%s", want, text)
		}
	}
	for _, raw := range []string{fmt.Sprintf("/v1/articles/%d", *v.ID), "/no/such/route"} {
		if strings.Contains(text, `route="`+raw) {
			t.Errorf("metrics label a raw path %s", raw)
		}
	}
}

func TestQueryKeyEscapes(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	a := article("键/with space&amp", cpiTitle, cpiBody)
	a["source"] = "人民网"
	v := s.ingest(t, a, http.StatusCreated)
	q := url.Values{"source": {"人民网"}, "external_id": {"键/with space&amp"}}
	got := decode[storedArticle](t, s.get(t, "/v1/articles?"+q.Encode()))
	if got.ID != *v.ID {
		t.Errorf("GET by escaped key = %+v, want %d", got, *v.ID)
	}
}

// TestSharedSentencesRoute checks the multi-viewpoint query over HTTP, and
// a check that asks for the same.
func TestSharedSentencesRoute(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	a := s.ingest(t, article("cms-a", cpiTitle, cpiBody), http.StatusCreated)
	// Another story that quotes two of the report's sentences.
	quote := chipBody + "\n" + strings.Join(strings.SplitAfter(cpiBody, "。")[1:3], "")
	b := s.ingest(t, article("cms-b", chipTitle, quote), http.StatusCreated)
	if b.Status != "unique" {
		t.Fatalf("the story quoting two sentences is %s, want unique", b.Status)
	}

	r := s.get(t, fmt.Sprintf("/v1/articles/%d/shared-sentences", *b.ID))
	wantStatus(t, "shared sentences", r, http.StatusOK)
	got := decode[struct {
		ID        int64 `json:"id"`
		Sentences int   `json:"sentences"`
		Articles  []struct {
			ID        int64 `json:"id"`
			Shared    int   `json:"shared"`
			Coverage  struct{ This, That float64 }
			Sentences []struct {
				Text      string `json:"text"`
				OtherText string `json:"other_text"`
			} `json:"sentences"`
		} `json:"articles"`
	}](t, r)
	if got.ID != *b.ID || got.Sentences == 0 || len(got.Articles) != 1 || got.Articles[0].ID != *a.ID || got.Articles[0].Shared < 2 {
		t.Fatalf("shared sentences = %v, want article %d sharing the quoted sentences", r, *a.ID)
	}
	for _, p := range got.Articles[0].Sentences {
		if !strings.Contains(cpiBody, strings.TrimSpace(p.OtherText)) {
			t.Errorf("shared sentence %q is not the report's", p.OtherText)
		}
	}

	check := s.post(t, "/v1/check", map[string]any{"body": quote, "shared_sentences": true})
	wantStatus(t, "check with shared sentences", check, http.StatusOK)
	if v := decode[object](t, check); v["shared_sentences"] == nil {
		t.Errorf("check with shared_sentences = %v, want the shared sentences", check)
	}
	plain := s.post(t, "/v1/check", map[string]any{"body": quote})
	if v := decode[object](t, plain); v["shared_sentences"] != nil {
		t.Errorf("check without shared_sentences lists them: %v", plain)
	}

	for _, tc := range []struct {
		path, code string
	}{
		{fmt.Sprintf("/v1/articles/%d/shared-sentences?limit=0", *b.ID), "invalid_argument"},
		{fmt.Sprintf("/v1/articles/%d/shared-sentences?window_hours=-1", *b.ID), "invalid_argument"},
		{"/v1/articles/999999/shared-sentences", "not_found"},
	} {
		r := s.get(t, tc.path)
		if e := decode[errorBody](t, r); e.Error.Code != tc.code {
			t.Errorf("GET %s = %v, want %s", tc.path, r, tc.code)
		}
	}
	r = s.post(t, "/v1/articles", map[string]any{"external_id": "x", "body": quote, "shared_sentences": true})
	wantError(t, "ingest asking for shared sentences", r, http.StatusUnprocessableEntity, "invalid_argument")
	r = s.post(t, "/v1/articles", map[string]any{"external_id": "x", "body": quote, "allow_incomplete": true})
	wantError(t, "ingest allowing an incomplete verdict", r, http.StatusUnprocessableEntity, "invalid_argument")
	// Without partitions a check allowing it is complete, and says nothing.
	if v := decode[object](t, s.post(t, "/v1/check", map[string]any{"body": quote, "allow_incomplete": true})); v["incomplete"] != nil || v["missing_partitions"] != nil {
		t.Errorf("complete check allowing an incomplete answer: %v", v)
	}
}
