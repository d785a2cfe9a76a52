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

// TestRepeatedQueryParameters: a parameter that takes one value, given
// twice, is a 422 naming it rather than its first value silently taken.
func TestRepeatedQueryParameters(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for path, field := range map[string]string{
		"/v1/clusters?source=a&source=b":                                "source",
		"/v1/clusters?status=near_duplicate&status=unique":              "status",
		"/v1/clusters?from=2026-01-01&from=2026-02-01":                  "from",
		"/v1/clusters?to=2026-01-01&to=2026-02-01":                      "to",
		"/v1/clusters?min_size=2&min_size=3":                            "min_size",
		"/v1/clusters?max_size=2&max_size=":                             "max_size",
		"/v1/clusters?limit=5&limit=10":                                 "limit",
		"/v1/clusters?cursor=a&cursor=b":                                "cursor",
		"/v1/articles?external_id=x&external_id=y":                      "external_id",
		"/v1/articles?source=a&external_id=x&source=b":                  "source",
		"/v1/articles/1/shared-sentences?limit=1&limit=2":               "limit",
		"/v1/articles/1/shared-sentences?window_hours=1&window_hours=2": "window_hours",
	} {
		e := wantError(t, "GET "+path, s.get(t, path), http.StatusUnprocessableEntity, "invalid_argument")
		if e.Error.Field != field {
			t.Errorf("GET %s: field %q, want %q", path, e.Error.Field, field)
		}
	}
	// Parameters given once each are served.
	wantStatus(t, "every filter once", s.get(t, "/v1/clusters?source=a&status=unique&from=2026-01-01&to=2026-02-01&min_size=2&max_size=3&limit=5"), http.StatusOK)
}

// TestUnknownStatus: a status that is no verdict is a 422 naming status,
// not an empty list; each verdict is served.
func TestUnknownStatus(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, status := range []string{"foo", "near", "unique_", "NEAR_DUPLICATE", "near_duplicate%20"} {
		path := "/v1/clusters?status=" + status
		if e := wantError(t, "GET "+path, s.get(t, path), http.StatusUnprocessableEntity, "invalid_argument"); e.Error.Field != "status" {
			t.Errorf("GET %s: field %q, want status", path, e.Error.Field)
		}
	}
	for _, status := range []string{"unique", "near_duplicate", "exact_duplicate", "partial_duplicate"} {
		wantStatus(t, "status="+status, s.get(t, "/v1/clusters?status="+status), http.StatusOK)
	}
}
