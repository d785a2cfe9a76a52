package handlers_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/handlers"
)

// newEcho returns the API without a server, over a service whose database
// is never reached.
func newEcho(t *testing.T) *echo.Echo {
	t.Helper()
	var e *echo.Echo
	newServerOn(t, unreachableURL(t), withRoutes(func(x *echo.Echo) { e = x }))
	return e
}

type openAPIDoc struct {
	OpenAPI    string                                `json:"openapi"`
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Security   []map[string][]string                 `json:"security"`
	Components struct {
		SecuritySchemes map[string]struct {
			Type   string `json:"type"`
			Scheme string `json:"scheme"`
		} `json:"securitySchemes"`
	} `json:"components"`
}

var echoParam = regexp.MustCompile(`:([A-Za-z_]+)`)

// TestOpenAPICoversEveryRoute walks the routes echo serves and fails for
// any route or method the document does not describe, and for any path it
// describes that echo does not serve.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	t.Parallel()
	s := newServerOn(t, unreachableURL(t))
	r := s.get(t, "/openapi.json")
	wantStatus(t, "openapi.json", r, http.StatusOK)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	doc := decode[openAPIDoc](t, r)
	if !strings.HasPrefix(doc.OpenAPI, "3.0.") {
		t.Errorf("openapi = %q, want 3.0.x", doc.OpenAPI)
	}
	if b := doc.Components.SecuritySchemes["bearerAuth"]; b.Type != "http" || b.Scheme != "bearer" {
		t.Errorf("bearerAuth = %+v, want http bearer", b)
	}

	served := map[string]bool{}
	for _, route := range newEcho(t).Routes() {
		if route.Method == echo.RouteNotFound || route.Path == "/ui" || strings.HasPrefix(route.Path, "/ui/") {
			continue // the editors' page is HTML for browsers, not part of the API
		}
		path := echoParam.ReplaceAllString(route.Path, "{$1}")
		method := strings.ToLower(route.Method)
		served[path+" "+method] = true
		if method == "head" {
			method = "get" // HEAD is GET without its body (RFC 9110): the GET operation describes it
		}
		if _, ok := doc.Paths[path][method]; !ok {
			t.Errorf("%s %s is served but not in openapi.json", route.Method, path)
		}
	}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" {
				continue
			}
			if !served[path+" "+method] {
				t.Errorf("openapi.json describes %s %s, which is not served", strings.ToUpper(method), path)
			}
		}
	}
}

// TestOpenAPIReferencesResolve checks that every $ref names a component
// the document defines, and that the open routes say so.
func TestOpenAPIReferencesResolve(t *testing.T) {
	t.Parallel()
	s := newServerOn(t, unreachableURL(t))
	var doc map[string]any
	if err := json.Unmarshal(s.get(t, "/openapi.json").body, &doc); err != nil {
		t.Fatal(err)
	}
	components := doc["components"].(map[string]any)
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				parts := strings.Split(strings.TrimPrefix(ref, "#/components/"), "/")
				group, _ := components[parts[0]].(map[string]any)
				if len(parts) != 2 || group[parts[1]] == nil {
					t.Errorf("$ref %q does not resolve", ref)
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)

	paths := doc["paths"].(map[string]any)
	for _, open := range []string{"/healthz", "/readyz", "/metrics", "/openapi.json"} {
		get := paths[open].(map[string]any)["get"].(map[string]any)
		if sec, ok := get["security"].([]any); !ok || len(sec) != 0 {
			t.Errorf("%s: security = %v, want [] (open)", open, get["security"])
		}
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  handlers.Config
	}{
		{"no logger", handlers.Config{Registry: prometheus.NewRegistry()}},
		{"no registry", handlers.Config{Logger: slog.Default()}},
		{"negative limit", handlers.Config{Logger: slog.Default(), Registry: prometheus.NewRegistry(), MaxBodyBytes: -1}},
		{"empty key", handlers.Config{Logger: slog.Default(), Registry: prometheus.NewRegistry(), APIKeys: []string{""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := handlers.New(newService(t, unreachableURL(t)), tt.cfg); err == nil {
				t.Errorf("New(%s) = nil error, want an error", tt.name)
			}
		})
	}
	// The same registry twice: the metrics are already registered.
	reg := prometheus.NewRegistry()
	cfg := handlers.Config{Logger: slog.Default(), Registry: reg}
	if _, err := handlers.New(newService(t, unreachableURL(t)), cfg); err != nil {
		t.Fatalf("New() = %v", err)
	}
	if _, err := handlers.New(newService(t, unreachableURL(t)), cfg); err == nil {
		t.Errorf("New() twice on one registry = nil error, want an error")
	}
}
