package handlers_test

import (
	"net/http"
	"testing"
)

// TestIntegerQueryParametersInRange sends integers that parse but that the
// database cannot hold, and others out of their ranges: each is a 422
// naming its parameter, never a 5xx, and the largest size the database
// holds is served.
func TestIntegerQueryParametersInRange(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for path, field := range map[string]string{
		"/v1/clusters?max_size=2147483648":                    "max_size",
		"/v1/clusters?min_size=2147483648":                    "min_size",
		"/v1/clusters?min_size=9223372036854775807":           "min_size",
		"/v1/clusters?max_size=99999999999999999999":          "max_size",
		"/v1/clusters?limit=2147483648":                       "limit",
		"/v1/clusters?limit=-1":                               "limit",
		"/v1/articles/1/shared-sentences?limit=2147483648":    "limit",
		"/v1/articles/1/shared-sentences?window_hours=1e300":  "window_hours",
		"/v1/clusters?min_size=1&max_size=2147483648&limit=5": "max_size",
	} {
		r := s.get(t, path)
		if r.status >= 500 {
			t.Errorf("GET %s = %v: a 5xx for what the client sent", path, r)
			continue
		}
		if e := wantError(t, "GET "+path, r, http.StatusUnprocessableEntity, "invalid_argument"); e.Error.Field != field {
			t.Errorf("GET %s: field %q, want %q", path, e.Error.Field, field)
		}
	}
	for _, path := range []string{"/v1/clusters?max_size=2147483647", "/v1/clusters?min_size=2147483647"} {
		wantStatus(t, "GET "+path, s.get(t, path), http.StatusOK)
	}
}
