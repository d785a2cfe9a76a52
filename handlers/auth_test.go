package handlers_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

func TestAuth(t *testing.T) {
	t.Parallel()
	s := newServer(t, withKeys("key-one-0123456789", "key-two"))
	ingest := func() []byte { return articleJSON(t, map[string]any{"external_id": "auth-1"}) }
	tests := []struct {
		name          string
		method, path  string
		body          []byte
		authorization string // "" sends none
		status        int
	}{
		{"no key", "POST", "/v1/articles", ingest(), "", http.StatusUnauthorized},
		{"wrong key", "POST", "/v1/articles", ingest(), "Bearer nope", http.StatusUnauthorized},
		{"a prefix of a key", "POST", "/v1/articles", ingest(), "Bearer key-one", http.StatusUnauthorized},
		{"a key with more", "POST", "/v1/articles", ingest(), "Bearer key-two2", http.StatusUnauthorized},
		{"basic scheme", "POST", "/v1/articles", ingest(), "Basic a2V5LXR3bw==", http.StatusUnauthorized},
		{"bare key", "POST", "/v1/articles", ingest(), "key-two", http.StatusUnauthorized},
		{"empty bearer", "GET", "/v1/articles/1", nil, "Bearer ", http.StatusUnauthorized},
		{"no key, GET", "GET", "/v1/articles/1", nil, "", http.StatusUnauthorized},
		{"no key, unknown /v1 route", "GET", "/v1/secret", nil, "", http.StatusUnauthorized},
		{"no key, wrong method", "PUT", "/v1/articles/1", nil, "", http.StatusUnauthorized},
		{"no key, check", "POST", "/v1/check", ingest(), "", http.StatusUnauthorized},
		{"no key, fingerprint", "POST", "/v1/fingerprint", []byte(`{"body":"国家统计局"}`), "", http.StatusUnauthorized},
		{"no key, delete", "DELETE", "/v1/articles/1", nil, "", http.StatusUnauthorized},
		{"no key, not JSON either", "POST", "/v1/articles", []byte("x"), "", http.StatusUnauthorized},
		{"first key", "POST", "/v1/articles", ingest(), "Bearer key-one-0123456789", http.StatusCreated},
		{"second key", "GET", "/v1/articles?external_id=auth-1&source=xinhua", nil, "Bearer key-two", http.StatusOK},
		{"scheme in lower case", "POST", "/v1/fingerprint", []byte(`{"body":"国家统计局"}`), "bearer key-two", http.StatusOK},
		{"healthz stays open", "GET", "/healthz", nil, "", http.StatusOK},
		{"readyz stays open", "GET", "/readyz", nil, "", http.StatusOK},
		{"metrics stay open", "GET", "/metrics", nil, "", http.StatusOK},
		{"openapi stays open", "GET", "/openapi.json", nil, "", http.StatusOK},
		{"open routes ignore a wrong key", "GET", "/healthz", nil, "Bearer nope", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Not parallel: "second key" reads what "first key" stored.
			req := request{method: tt.method, path: tt.path, noKey: true, header: http.Header{}}
			if tt.body != nil {
				req.body = bytes.NewReader(tt.body)
			}
			if tt.authorization != "" {
				req.header.Set("Authorization", tt.authorization)
			}
			r := s.do(t, req)
			if tt.status != http.StatusUnauthorized {
				wantStatus(t, tt.name, r, tt.status)
				return
			}
			wantError(t, tt.name, r, http.StatusUnauthorized, "unauthorized")
			if got := r.header.Get("WWW-Authenticate"); got != "Bearer" {
				t.Errorf("WWW-Authenticate = %q, want Bearer", got)
			}
		})
	}
	if logs := s.logs.String(); strings.Contains(logs, "key-one") || strings.Contains(logs, "key-two") || strings.Contains(logs, "nope") {
		t.Errorf("the logs hold an API key: %s", logs)
	}
}
