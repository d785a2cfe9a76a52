package repo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// The service's sessions run without PostgreSQL's JIT compiler, which
// spent 11–26 % of the writers' sentence searches' time compiling them
// (store.go); a database URL that sets jit keeps its own setting.
func TestStoreSessionsRunWithoutJIT(t *testing.T) {
	ctx := context.Background()
	url := dbtest.URL(t)
	for _, tc := range []struct {
		name, url, want string
	}{
		{"default", url, "off"},
		{"set by the URL", withParam(url, "jit=on"), "on"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := openStore(t, tc.url, 2)
			var jit string
			if err := st.Pool().QueryRow(ctx, "SHOW jit").Scan(&jit); err != nil {
				t.Fatal(err)
			}
			if jit != tc.want {
				t.Errorf("SHOW jit = %q, want %q", jit, tc.want)
			}
		})
	}
}

// withParam adds a query parameter to a PostgreSQL URL.
func withParam(url, param string) string {
	if strings.Contains(url, "?") {
		return url + "&" + param
	}
	return url + "?" + param
}
