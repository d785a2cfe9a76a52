package handlers_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers"
)

func TestPanicIsInternalError(t *testing.T) {
	t.Parallel()
	s := newServerOn(t, unreachableURL(t), withRoutes(func(e *echo.Echo) {
		e.GET("/v1/panic", func(echo.Context) error { panic("secret cause 42") })
	}))
	h := http.Header{"X-Request-Id": {"panic-req-1"}}
	r := s.do(t, request{method: http.MethodGet, path: "/v1/panic", header: h})
	e := wantError(t, "panic", r, http.StatusInternalServerError, "internal")
	if e.Error.Message != "internal error" || strings.Contains(string(r.body), "secret") {
		t.Errorf("panic response = %v, want the generic message only", r)
	}
	logs := s.logs.String()
	if !strings.Contains(logs, "secret cause 42") || !strings.Contains(logs, "panic-req-1") {
		t.Errorf("logs = %s, want the panic's cause with the request id", logs)
	}
	// The server goes on.
	wantStatus(t, "healthz after a panic", s.get(t, "/healthz"), http.StatusOK)
}

func TestRequestDeadline(t *testing.T) {
	t.Parallel()
	slow := newServerOn(t, unreachableURL(t),
		withConfig(func(c *handlers.Config) { c.RequestTimeout = 50 * time.Millisecond }),
		withRoutes(func(e *echo.Echo) {
			e.GET("/v1/slow", func(c echo.Context) error {
				<-c.Request().Context().Done()
				return c.Request().Context().Err()
			})
		}))
	start := time.Now()
	wantError(t, "slow handler", slow.get(t, "/v1/slow"), http.StatusServiceUnavailable, "unavailable")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("slow handler answered after %v, want about 50ms", d)
	}

	// Against the real database: a deadline that has passed before the
	// first query is a 503, never a 500.
	expired := newServer(t, withConfig(func(c *handlers.Config) { c.RequestTimeout = time.Nanosecond }))
	wantError(t, "ingest", expired.post(t, "/v1/articles", articleJSON(t, nil)), http.StatusServiceUnavailable, "unavailable")
	wantError(t, "batch", expired.post(t, "/v1/articles/batch", map[string]any{"articles": []any{article("d-1", cpiTitle, cpiBody)}}),
		http.StatusServiceUnavailable, "unavailable")
	wantError(t, "check", expired.post(t, "/v1/check", map[string]any{"body": cpiBody}), http.StatusServiceUnavailable, "unavailable")
}

func TestAccessLog(t *testing.T) {
	t.Parallel()
	s := newServer(t, withKeys("very-secret-key"))
	s.ingest(t, article("log-1", cpiTitle, cpiBody), http.StatusCreated)
	s.get(t, "/v1/articles?source=xinhua&external_id=log-1")

	var entries []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s.logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		entries = append(entries, m)
	}
	if len(entries) != 2 {
		t.Fatalf("%d log entries, want 2: %v", len(entries), entries)
	}
	first := entries[0]
	for k, want := range map[string]any{"msg": "request", "method": "POST", "route": "/v1/articles", "status": 201.0, "remote_ip": "127.0.0.1"} {
		if first[k] != want {
			t.Errorf("log %s = %v, want %v", k, first[k], want)
		}
	}
	for _, k := range []string{"duration", "bytes_out", "request_id"} {
		if _, ok := first[k]; !ok {
			t.Errorf("log has no %s: %v", k, first)
		}
	}
	if first["bytes_out"].(float64) <= 0 {
		t.Errorf("bytes_out = %v, want > 0", first["bytes_out"])
	}
	logs := s.logs.String()
	for _, secret := range []string{"very-secret-key", "国家统计局", "log-1", "external_id="} {
		if strings.Contains(logs, secret) {
			t.Errorf("the logs hold %q: %s", secret, logs)
		}
	}
}
