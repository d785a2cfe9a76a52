package handlers_test

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/handlers"
)

// TestHEAD checks that every GET route answers HEAD, with the GET's status
// and headers and no body.
func TestHEAD(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	r := s.post(t, "/v1/articles", articleJSON(t, map[string]any{"external_id": "head-1"}))
	wantStatus(t, "ingest", r, http.StatusCreated)
	id := decode[struct {
		ID int64 `json:"id"`
	}](t, r).ID

	for _, tt := range []struct {
		path   string
		status int
	}{
		{"/healthz", http.StatusOK},
		{"/readyz", http.StatusOK},
		{"/metrics", http.StatusOK},
		{"/openapi.json", http.StatusOK},
		{"/v1/articles/" + strconv.FormatInt(id, 10), http.StatusOK},
		{"/v1/articles/" + strconv.FormatInt(id, 10) + "/duplicates", http.StatusOK},
		{"/v1/articles?source=xinhua&external_id=head-1", http.StatusOK},
		{"/v1/articles/999999", http.StatusNotFound},
	} {
		r := s.do(t, request{method: http.MethodHead, path: tt.path})
		if r.status != tt.status || len(r.body) != 0 {
			t.Errorf("HEAD %s = %d with %d bytes of body, want %d and none", tt.path, r.status, len(r.body), tt.status)
		}
		if get := s.get(t, tt.path); get.header.Get("Content-Type") != r.header.Get("Content-Type") {
			t.Errorf("HEAD %s: Content-Type %q, GET's %q", tt.path, r.header.Get("Content-Type"), get.header.Get("Content-Type"))
		}
	}
}

// TestRequestEncodings checks the bodies a client may send besides plain
// JSON: gzip-compressed (the limit counts the decompressed bytes) and with
// a UTF-8 byte order mark.
func TestRequestEncodings(t *testing.T) {
	t.Parallel()
	s := newServer(t, withConfig(func(c *handlers.Config) { c.MaxBodyBytes = 64 << 10 }))

	zipped := func(b []byte) *bytes.Reader {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return bytes.NewReader(buf.Bytes())
	}
	gz := http.Header{"Content-Encoding": {"gzip"}}

	r := s.do(t, request{method: http.MethodPost, path: "/v1/articles", header: gz,
		body: zipped(articleJSON(t, map[string]any{"external_id": "gzip-1"}))})
	wantStatus(t, "gzip ingest", r, http.StatusCreated)

	r = s.do(t, request{method: http.MethodPost, path: "/v1/articles",
		body: bytes.NewReader(append([]byte("\xef\xbb\xbf"), articleJSON(t, map[string]any{"external_id": "bom-1"})...))})
	wantStatus(t, "ingest with a byte order mark", r, http.StatusCreated)

	// 100 KiB of JSON compresses to far less than the 64 KiB limit, and is
	// refused for what it decompresses to.
	long := articleJSON(t, map[string]any{"external_id": "gzip-2", "body": strings.Repeat("国家统计局发布数据。", 4000)})
	r = s.do(t, request{method: http.MethodPost, path: "/v1/articles", header: gz, body: zipped(long)})
	wantError(t, "gzip of 100 KiB", r, http.StatusRequestEntityTooLarge, "too_large")
}

// TestBatchItemLimit checks that each article of a batch is bounded as a
// single article's request is: the one too large gets its own error, the
// others are stored.
func TestBatchItemLimit(t *testing.T) {
	t.Parallel()
	s := newServer(t, withConfig(func(c *handlers.Config) { c.MaxBodyBytes = 64 << 10 }))
	small := string(articleJSON(t, map[string]any{"external_id": "small"}))
	large := string(articleJSON(t, map[string]any{"external_id": "large", "body": strings.Repeat("国家统计局发布数据。", 4000)}))
	r := s.post(t, "/v1/articles/batch", `{"articles":[`+small+`,`+large+`]}`)
	wantStatus(t, "batch", r, http.StatusOK)
	results := decode[struct {
		Results []struct {
			Status string `json:"status"`
			Error  struct {
				Code string `json:"code"`
			} `json:"error"`
		} `json:"results"`
	}](t, r).Results
	if len(results) != 2 || results[0].Status != "unique" {
		t.Fatalf("results = %+v, want the small article stored", results)
	}
	if results[1].Error.Code != "too_large" {
		t.Errorf("large article: %+v, want the error too_large", results[1])
	}
}
