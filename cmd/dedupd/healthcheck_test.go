package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHealthcheckHost(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"0.0.0.0:8080":   "127.0.0.1:8080",
		":8080":          "127.0.0.1:8080",
		"[::]:8080":      "[::1]:8080",
		"127.0.0.1:9000": "127.0.0.1:9000",
		"dedupd:8080":    "dedupd:8080",
	} {
		if got := healthcheckHost(addr); got != want {
			t.Errorf("healthcheckHost(%q) = %q, want %q", addr, got, want)
		}
	}
}

func TestHealthcheck(t *testing.T) {
	t.Parallel()
	healthy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
		}
	}))
	defer healthy.Close()
	sick := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer sick.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()

	tests := []struct {
		addr    string
		wantErr string
	}{
		{strings.TrimPrefix(healthy.URL, "http://"), ""},
		{strings.TrimPrefix(sick.URL, "http://"), "503"},
		{strings.TrimPrefix(closed.URL, "http://"), "refused"},
	}
	for _, tt := range tests {
		a, stdout, _ := testApp(t, map[string]string{"DEDUP_ADDR": tt.addr})
		err := a.run(context.Background(), []string{"healthcheck"})
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("healthcheck on %s = %v, want nil", tt.addr, err)
		case tt.wantErr == "" && !strings.Contains(stdout.String(), "200"):
			t.Errorf("healthcheck on %s printed %q, want the 200", tt.addr, stdout)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("healthcheck on %s = %v, want an error containing %q", tt.addr, err, tt.wantErr)
		}
	}
}
