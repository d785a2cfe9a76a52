package handlers_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// articleJSON is a valid article with fields changed: a value of nil
// removes the field.
func articleJSON(tb testing.TB, changes map[string]any) []byte {
	tb.Helper()
	a := map[string]any{"external_id": "hostile-1", "source": "xinhua", "title": trainTitle, "body": trainBody}
	for k, v := range changes {
		if v == nil {
			delete(a, k)
		} else {
			a[k] = v
		}
	}
	return jsonBytes(tb, a)
}

// gzipped compresses what body makes.
func gzipped(body func(testing.TB) []byte) func(testing.TB) []byte {
	return func(tb testing.TB) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(body(tb)); err != nil {
			tb.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			tb.Fatal(err)
		}
		return b.Bytes()
	}
}

// nested is n levels of JSON arrays around a 1.
func nested(n int) string {
	return strings.Repeat("[", n) + "1" + strings.Repeat("]", n)
}

// hidingLength hides a reader's length from net/http, so that the body is
// sent chunked, without Content-Length.
type hidingLength struct{ r io.Reader }

func (h hidingLength) Read(p []byte) (int, error) { return h.r.Read(p) }

// TestHostileInput sends what a careless or hostile client might, and
// checks each gets a 4xx with a JSON error of the expected code, never a
// 5xx; then that the server still answers a normal request normally.
// expectContinue asks the server whether it takes a body before sending it.
var expectContinue = map[string]string{"Expect": "100-continue"}

func TestHostileInput(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	valid := func(changes map[string]any) func(testing.TB) []byte {
		return func(tb testing.TB) []byte { return articleJSON(tb, changes) }
	}
	raw := func(body string) func(testing.TB) []byte {
		return func(testing.TB) []byte { return []byte(body) }
	}
	big := func(n int) func(testing.TB) []byte {
		return func(tb testing.TB) []byte {
			return articleJSON(tb, map[string]any{"body": strings.Repeat("新闻", n/6)})
		}
	}
	manyArticles := func(n int) func(testing.TB) []byte {
		return func(tb testing.TB) []byte {
			var b bytes.Buffer
			b.WriteString(`{"articles":[`)
			for i := range n {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"external_id":"bulk-%d","body":"国家统计局发布数据"}`, i)
			}
			b.WriteString(`]}`)
			return b.Bytes()
		}
	}

	tests := []struct {
		name        string
		method      string // POST when empty
		path        string // /v1/articles when empty
		contentType string // application/json when empty
		body        func(testing.TB) []byte
		header      map[string]string
		chunked     bool
		status      int
		code        string
		field       string // the error's field, when one is expected
	}{
		// Not JSON, or not the right JSON.
		{name: "malformed JSON", body: raw(`{"external_id": "x", "body": }`), status: 400, code: "invalid_json"},
		{name: "truncated JSON", body: raw(`{"external_id": "x", "body": "国家`), status: 400, code: "invalid_json"},
		{name: "single quotes", body: raw(`{'external_id': 'x'}`), status: 400, code: "invalid_json"},
		{name: "empty request body", body: raw(``), status: 400, code: "invalid_json"},
		{name: "whitespace request body", body: raw(" \n\t "), status: 400, code: "invalid_json"},
		{name: "array instead of object", body: raw(`[{"external_id":"x","body":"国家统计局发布数据"}]`), status: 400, code: "invalid_json"},
		{name: "string instead of object", body: raw(`"国家统计局"`), status: 400, code: "invalid_json"},
		{name: "body as number", body: valid(map[string]any{"body": 42}), status: 400, code: "invalid_json", field: "body"},
		{name: "body as object", body: valid(map[string]any{"body": map[string]any{"text": "x"}}), status: 400, code: "invalid_json", field: "body"},
		{name: "external_id as number", body: valid(map[string]any{"external_id": 7}), status: 400, code: "invalid_json", field: "external_id"},
		{name: "published_at as number", body: valid(map[string]any{"published_at": 1715391000}), status: 400, code: "invalid_json", field: "published_at"},
		{name: "max_distance as string", body: valid(map[string]any{"max_distance": "2"}), status: 400, code: "invalid_json", field: "max_distance"},
		{name: "max_distance not an integer", body: raw(`{"external_id":"x","body":"国家统计局发布数据","max_distance":2.5}`), status: 400, code: "invalid_json", field: "max_distance"},
		{name: "limit overflowing", body: raw(`{"external_id":"x","body":"国家统计局发布数据","limit":99999999999999999999999}`), status: 400, code: "invalid_json", field: "limit"},
		{name: "unknown field", body: valid(map[string]any{"colour": "red"}), status: 400, code: "invalid_json", field: "colour"},
		{name: "trailing second value", body: raw(`{"external_id":"x","body":"国家统计局发布数据"} {"external_id":"y"}`), status: 400, code: "invalid_json"},
		{name: "trailing garbage", body: raw(`{"external_id":"x","body":"国家统计局发布数据"}xyz`), status: 400, code: "invalid_json"},
		{name: "100,000 levels of nesting", body: raw(nested(100_000)), status: 400, code: "invalid_json"},
		{name: "100,000 levels in a field", body: raw(`{"external_id":"x","body":` + nested(100_000) + `}`), status: 400, code: "invalid_json"},
		{name: "100,000 levels of objects", body: raw(strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000)), status: 400, code: "invalid_json"},
		{name: "a field's name in upper case", body: raw(`{"external_id":"x","BODY":"国家统计局发布数据"}`), status: 400, code: "invalid_json", field: "BODY"},
		{name: "an option's name in upper case", body: raw(`{"external_id":"x","body":"国家统计局发布数据","MAX_DISTANCE":0}`), status: 400, code: "invalid_json", field: "MAX_DISTANCE"},
		{name: "a field given twice", body: raw(`{"external_id":"x","body":"国家统计局发布数据","body":"另一篇"}`), status: 400, code: "invalid_json", field: "body"},
		{name: "a nested field given twice", path: "/v1/compare", body: raw(`{"a":{"body":"国家统计局","body":"x"},"b":{"body":"国家统计局"}}`), status: 400, code: "invalid_json", field: "body"},

		// JSON of the right shape, values out of range.
		{name: "empty body", body: valid(map[string]any{"body": ""}), status: 422, code: "invalid_argument", field: "body"},
		{name: "missing body", body: valid(map[string]any{"body": nil}), status: 422, code: "invalid_argument", field: "body"},
		{name: "blank body", body: valid(map[string]any{"body": " \n\t\u3000 "}), status: 422, code: "invalid_argument", field: "body"},
		{name: "punctuation-only body", body: valid(map[string]any{"body": "。，！？……——《》"}), status: 422, code: "invalid_argument", field: "body"},
		{name: "stop words only", body: valid(map[string]any{"body": "的了是在 the and of"}), status: 422, code: "invalid_argument", field: "body"},
		{name: "missing external_id", body: valid(map[string]any{"external_id": nil}), status: 422, code: "invalid_argument", field: "external_id"},
		{name: "100 KB external_id", body: valid(map[string]any{"external_id": strings.Repeat("x", 100_000)}), status: 422, code: "invalid_argument", field: "external_id"},
		{name: "3,000-character source", body: valid(map[string]any{"source": strings.Repeat("新", 3000)}), status: 422, code: "invalid_argument", field: "source"},
		{name: "1,001-character title", body: valid(map[string]any{"title": strings.Repeat("t", 1001)}), status: 422, code: "invalid_argument", field: "title"},
		{name: "4,097-character url", body: valid(map[string]any{"url": "https://x.cn/" + strings.Repeat("a", 4084)}), status: 422, code: "invalid_argument", field: "url"},
		{name: "by key with a 3,000-character source", method: "GET", path: "/v1/articles?external_id=x&source=" + strings.Repeat("s", 3000), status: 422, code: "invalid_argument", field: "source"},
		{name: "published_at in the year 10000 in UTC", body: valid(map[string]any{"published_at": "9999-12-31T23:59:59-14:00"}), status: 422, code: "invalid_argument", field: "published_at"},
		{name: "published_at in the year 0 in UTC", body: valid(map[string]any{"published_at": "0001-01-01T00:00:00+14:00"}), status: 422, code: "invalid_argument", field: "published_at"},
		{name: "2 MB of a character NFKC expands 18-fold", body: valid(map[string]any{"body": strings.Repeat("\ufdfa", 600_000)}), status: 413, code: "too_large", field: "body"},
		{name: "check: 2 MB that NFKC expands", path: "/v1/check", body: valid(map[string]any{"body": strings.Repeat("\ufdfa", 600_000)}), status: 413, code: "too_large", field: "body"},
		{name: "fingerprint: a title of 600,000 characters", path: "/v1/fingerprint", body: raw(`{"title":"` + strings.Repeat("\ufdfa", 600_000) + `","body":"国家统计局"}`), status: 422, code: "invalid_argument", field: "title"},
		{name: "bad published_at", body: valid(map[string]any{"published_at": "yesterday"}), status: 422, code: "invalid_argument", field: "published_at"},
		{name: "published_at without zone", body: valid(map[string]any{"published_at": "2024-05-11 09:30:00"}), status: 422, code: "invalid_argument", field: "published_at"},
		{name: "published_at month 13", body: valid(map[string]any{"published_at": "2024-13-01T00:00:00Z"}), status: 422, code: "invalid_argument", field: "published_at"},
		{name: "max_distance 9", body: valid(map[string]any{"max_distance": 9}), status: 422, code: "invalid_argument", field: "max_distance"},
		{name: "max_distance -1", body: valid(map[string]any{"max_distance": -1}), status: 422, code: "invalid_argument", field: "max_distance"},
		{name: "min_word_ratio 2", body: valid(map[string]any{"min_word_ratio": 2}), status: 422, code: "invalid_argument", field: "min_word_ratio"},
		{name: "min_word_ratio -0.1", body: valid(map[string]any{"min_word_ratio": -0.1}), status: 422, code: "invalid_argument", field: "min_word_ratio"},
		{name: "limit 0", body: valid(map[string]any{"limit": 0}), status: 422, code: "invalid_argument", field: "limit"},
		{name: "limit 1001", body: valid(map[string]any{"limit": 1001}), status: 422, code: "invalid_argument", field: "limit"},
		{name: "window_hours -1", body: valid(map[string]any{"window_hours": -1}), status: 422, code: "invalid_argument", field: "window_hours"},
		{name: "window_hours 1e300", body: raw(`{"external_id":"x","body":"国家统计局发布数据","window_hours":1e300}`), status: 422, code: "invalid_argument", field: "window_hours"},
		{name: "unknown content_type", body: valid(map[string]any{"content_type": "pdf"}), status: 422, code: "invalid_argument", field: "content_type"},
		{name: "NUL in the body", body: valid(map[string]any{"body": "国家统计局\u0000发布数据"}), status: 422, code: "invalid_argument", field: "body"},
		{name: "NUL in the external_id", body: valid(map[string]any{"external_id": "a\u0000b"}), status: 422, code: "invalid_argument", field: "external_id"},
		{name: "invalid UTF-8 bytes", body: raw("{\"external_id\":\"x\",\"body\":\"\xff\xfe\xe4\xb8\"}"), status: 422, code: "invalid_argument"},
		{name: "lone high surrogate escape", body: raw(`{"external_id":"x","body":"国家统计局\ud800发布"}`), status: 422, code: "invalid_argument"},
		{name: "lone low surrogate escape", body: raw(`{"external_id":"x","body":"国家统计局\udc00发布"}`), status: 422, code: "invalid_argument"},
		{name: "high surrogate then letter", body: raw(`{"external_id":"x\ud83d\u0041","body":"国家统计局发布数据"}`), status: 422, code: "invalid_argument"},

		// The transport.
		{name: "text/plain", contentType: "text/plain", body: valid(nil), status: 415, code: "unsupported_media_type"},
		{name: "no Content-Type", contentType: "-", body: valid(nil), status: 415, code: "unsupported_media_type"},
		{name: "form", contentType: "application/x-www-form-urlencoded", body: raw("external_id=x&body=y"), status: 415, code: "unsupported_media_type"},
		{name: "JSON in Latin-1", contentType: "application/json; charset=iso-8859-1", body: valid(nil), status: 415, code: "unsupported_media_type"},
		{name: "deflate-encoded", body: valid(nil), header: map[string]string{"Content-Encoding": "deflate"}, status: 415, code: "unsupported_media_type"},
		{name: "gzip that is not gzip", body: valid(nil), header: map[string]string{"Content-Encoding": "gzip"}, status: 400, code: "invalid_json"},
		{name: "gzip of 8 MiB", body: gzipped(big(8 << 20)), header: map[string]string{"Content-Encoding": "gzip"}, status: 413, code: "too_large"},
		// A body whose declared length is over the limit is refused before it
		// is read; the client asks first, as curl does for a large body, or the
		// early 413 races the client's writes into a connection being reset.
		{name: "8 MiB body", body: big(8 << 20), header: expectContinue, status: 413, code: "too_large"},
		{name: "8 MiB body, chunked", body: big(8 << 20), chunked: true, status: 413, code: "too_large"},
		{name: "8 MiB check", path: "/v1/check", body: big(8 << 20), header: expectContinue, status: 413, code: "too_large"},
		{name: "3 MiB fingerprint", path: "/v1/fingerprint", body: big(3 << 20), chunked: true, status: 413, code: "too_large"},

		// Batches.
		{name: "batch not a list", path: "/v1/articles/batch", body: raw(`{"articles":{"external_id":"x"}}`), status: 400, code: "invalid_json", field: "articles"},
		{name: "batch a string", path: "/v1/articles/batch", body: raw(`{"articles":"x"}`), status: 400, code: "invalid_json", field: "articles"},
		{name: "batch a bare list", path: "/v1/articles/batch", body: raw(`[{"external_id":"x"}]`), status: 400, code: "invalid_json"},
		{name: "empty batch", path: "/v1/articles/batch", body: raw(`{"articles":[]}`), status: 422, code: "invalid_argument", field: "articles"},
		{name: "batch without articles", path: "/v1/articles/batch", body: raw(`{}`), status: 422, code: "invalid_argument", field: "articles"},
		{name: "batch of 20,000 articles", path: "/v1/articles/batch", body: manyArticles(20_000), status: 413, code: "too_large", field: "articles"},
		{name: "batch of 1,001 articles", path: "/v1/articles/batch", body: manyArticles(1001), status: 413, code: "too_large", field: "articles"},
		{name: "batch over 32 MiB", path: "/v1/articles/batch", body: big(40 << 20), chunked: true, status: 413, code: "too_large"},
		{name: "batch with unknown field", path: "/v1/articles/batch", body: raw(`{"articles":[],"dry_run":true}`), status: 400, code: "invalid_json", field: "dry_run"},

		// Check, fingerprint and compare.
		{name: "check max_distance 4", path: "/v1/check", body: valid(map[string]any{"max_distance": 4}), status: 422, code: "invalid_argument", field: "max_distance"},
		{name: "check blank body", path: "/v1/check", body: valid(map[string]any{"body": "  "}), status: 422, code: "invalid_argument", field: "body"},
		{name: "fingerprint empty", path: "/v1/fingerprint", body: raw(`{}`), status: 422, code: "invalid_argument", field: "body"},
		{name: "fingerprint with external_id", path: "/v1/fingerprint", body: valid(nil), status: 400, code: "invalid_json", field: "external_id"},
		{name: "compare empty", path: "/v1/compare", body: raw(`{}`), status: 422, code: "invalid_argument", field: "a"},
		{name: "compare a as list", path: "/v1/compare", body: raw(`{"a":[],"b":{}}`), status: 400, code: "invalid_json", field: "a"},
		{name: "compare unknown nested field", path: "/v1/compare", body: raw(`{"a":{"body":"国家统计局","lang":"zh"},"b":{"body":"国家统计局"}}`), status: 400, code: "invalid_json", field: "lang"},

		// Ids, routes and methods.
		{name: "non-numeric id", method: "GET", path: "/v1/articles/abc", status: 404, code: "not_found"},
		{name: "overflowing id", method: "GET", path: "/v1/articles/99999999999999999999", status: 404, code: "not_found"},
		{name: "id 0", method: "GET", path: "/v1/articles/0", status: 404, code: "not_found"},
		{name: "negative id", method: "GET", path: "/v1/articles/-5", status: 404, code: "not_found"},
		{name: "id with a sign", method: "GET", path: "/v1/articles/+5", status: 404, code: "not_found"},
		{name: "id as a float", method: "GET", path: "/v1/articles/1.5", status: 404, code: "not_found"},
		{name: "id of nothing", method: "GET", path: "/v1/articles/9223372036854775807", status: 404, code: "not_found"},
		{name: "duplicates of a non-numeric id", method: "GET", path: "/v1/articles/abc/duplicates", status: 404, code: "not_found"},
		{name: "DELETE an overflowing id", method: "DELETE", path: "/v1/articles/18446744073709551616", status: 404, code: "not_found"},
		{name: "by key with invalid UTF-8", method: "GET", path: "/v1/articles?external_id=%ff%fe", status: 422, code: "invalid_argument", field: "external_id"},
		{name: "by key with NUL", method: "GET", path: "/v1/articles?source=a%00b&external_id=x", status: 422, code: "invalid_argument", field: "source"},
		{name: "unknown route", method: "GET", path: "/v2/articles", status: 404, code: "not_found"},
		{name: "unknown /v1 route", method: "POST", path: "/v1/articles/1/merge", body: valid(nil), status: 404, code: "not_found"},
		{name: "root", method: "GET", path: "/", status: 404, code: "not_found"},
		{name: "PUT an article", method: "PUT", path: "/v1/articles/1", body: valid(nil), status: 405, code: "method_not_allowed"},
		{name: "GET check", method: "GET", path: "/v1/check", status: 405, code: "method_not_allowed"},
		{name: "DELETE the collection", method: "DELETE", path: "/v1/articles", status: 405, code: "method_not_allowed"},
		{name: "POST healthz", method: "POST", path: "/healthz", body: raw(`{}`), status: 405, code: "method_not_allowed"},
		{name: "made-up method", method: "BREW", path: "/v1/articles", status: 405, code: "method_not_allowed"},
	}
	// The group returns when every parallel case has finished.
	t.Run("battery", func(t *testing.T) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				req := request{method: tt.method, path: tt.path, contentType: tt.contentType}
				if req.method == "" {
					req.method = http.MethodPost
				}
				if req.path == "" {
					req.path = "/v1/articles"
				}
				if tt.body != nil {
					b := tt.body(t)
					req.body = bytes.NewReader(b)
					if tt.chunked {
						req.body = hidingLength{bytes.NewReader(b)}
					}
				}
				if len(tt.header) > 0 {
					req.header = http.Header{}
					for k, v := range tt.header {
						req.header.Set(k, v)
					}
				}
				if tt.contentType == "-" {
					req.contentType = ""
					req.header = http.Header{"Content-Type": {""}}
				}
				r := s.do(t, req)
				if r.status >= 500 {
					t.Fatalf("%s %s: %v — a 5xx for what the client sent", req.method, req.path, r)
				}
				e := wantError(t, tt.name, r, tt.status, tt.code)
				if tt.field != "" && e.Error.Field != tt.field {
					t.Errorf("error field = %q, want %q (%v)", e.Error.Field, tt.field, r)
				}
				if tt.status == http.StatusMethodNotAllowed && r.header.Get("Allow") == "" {
					t.Errorf("405 without an Allow header")
				}
			})
		}
	})

	// After the battery, a normal ingest is answered normally…
	r := s.post(t, "/v1/articles", articleJSON(t, map[string]any{"external_id": "after-the-storm"}))
	if r.status != http.StatusCreated {
		t.Errorf("ingest after the battery = %v, want 201", r)
	}
	// …nothing of the battery was stored…
	for _, id := range []string{"hostile-1", "x", "bulk-0"} {
		if r := s.get(t, "/v1/articles?external_id="+id); r.status != http.StatusNotFound {
			t.Errorf("GET %s after the battery = %v, want 404", id, r)
		}
	}
	// …and no request got a 5xx.
	for _, line := range strings.Split(strings.TrimSpace(s.logs.String()), "\n") {
		var entry struct {
			Msg    string `json:"msg"`
			Status int    `json:"status"`
			Route  string `json:"route"`
		}
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Errorf("log line %q is not JSON: %v", line, err)
			continue
		}
		if entry.Status >= 500 || entry.Msg != "request" {
			t.Errorf("log: %s", line)
		}
	}
}

// TestErrorMessages checks what a client reads for a few errors: the message
// names the field or the problem.
func TestErrorMessages(t *testing.T) {
	t.Parallel()
	s := newServerOn(t, unreachableURL(t))
	tests := []struct {
		name, path, body string
		contains         string
	}{
		{"unknown field", "/v1/fingerprint", `{"body":"x","colour":"red"}`, `colour`},
		{"wrong type", "/v1/fingerprint", `{"body":42}`, "body: must be a string, not number"},
		{"not an object", "/v1/fingerprint", `[1]`, "expected a JSON object, not array"},
		{"syntax", "/v1/fingerprint", `{"body" "x"}`, "malformed JSON at byte"},
		{"depth", "/v1/fingerprint", nested(100_000), "expected a JSON object, not array"},
		{"upper case", "/v1/fingerprint", `{"BODY":"x"}`, "BODY: unknown field"},
		{"twice", "/v1/fingerprint", `{"body":"x","body":"y"}`, "body: given twice"},
		{"invalid UTF-8", "/v1/fingerprint", "{\"body\":\"\xff\"}", "body of the request is not valid UTF-8"},
		{"lone surrogate", "/v1/fingerprint", `{"body":"\ud800"}`, `lone UTF-16 high surrogate escape \ud800`},
		{"empty", "/v1/fingerprint", ``, "empty"},
		{"trailing", "/v1/fingerprint", `{"body":"x"}{}`, "after top-level value"},
		{"compare", "/v1/compare", `{"b":{"body":"国家统计局"}}`, "a: is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := s.post(t, tt.path, tt.body)
			e := decode[errorBody](t, r)
			if !strings.Contains(e.Error.Message, tt.contains) {
				t.Errorf("message = %q, want it to contain %q", e.Error.Message, tt.contains)
			}
		})
	}
}
