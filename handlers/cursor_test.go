package handlers_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestSignedCursors pages through the clusters with the cursors the server
// gives, on one instance and on another started later over the same
// database, and refuses every cursor it did not give: edited, forged in
// the unsigned form of before, or signed by a server of another database.
func TestSignedCursors(t *testing.T) {
	t.Parallel()
	dbURL := dbtest.URL(t)
	first := newServerOn(t, dbURL)
	for i, st := range samples.Stories[:2] {
		first.ingest(t, storyArticle("xinhua", fmt.Sprintf("x-%d", i), st.Title, st.Body), http.StatusCreated)
		first.ingest(t, storyArticle("portal", fmt.Sprintf("w-%d", i), st.Title, st.Repost()), http.StatusCreated)
	}
	page1 := decode[clusterList](t, first.get(t, "/v1/clusters?limit=1"))
	if len(page1.Clusters) != 1 || page1.NextCursor == nil {
		t.Fatalf("the first page of one: %+v, want one cluster and a next cursor", page1)
	}
	next := *page1.NextCursor
	page := func(s *server, cursor string) response {
		return s.get(t, "/v1/clusters?limit=1&cursor="+url.QueryEscape(cursor))
	}
	r := page(first, next)
	wantStatus(t, "the second page", r, http.StatusOK)
	page2 := decode[clusterList](t, r)
	if len(page2.Clusters) != 1 || page2.Clusters[0].ID == page1.Clusters[0].ID || page2.NextCursor != nil {
		t.Fatalf("the second page: %+v after %+v", page2, page1)
	}

	// Another instance (or this one restarted) takes the cursor.
	second := newServerOn(t, dbURL)
	r = page(second, next)
	wantStatus(t, "the second page from another instance", r, http.StatusOK)
	if got := decode[clusterList](t, r); len(got.Clusters) != 1 || got.Clusters[0].ID != page2.Clusters[0].ID {
		t.Errorf("the second page from another instance: %+v, want %+v", got, page2)
	}

	place, mac, ok := strings.Cut(next, ".")
	if !ok {
		t.Fatalf("next_cursor %q is not signed", next)
	}
	unsigned := func(p string) string { return base64.RawURLEncoding.EncodeToString([]byte(p)) }
	firstID := page1.Clusters[0].ID
	tampered := map[string]string{
		"a character appended":     next + "A",
		"the signature cut":        place + "." + mac[:len(mac)-2],
		"no signature":             place,
		"an empty signature":       place + ".",
		"another place, same MAC":  unsigned(fmt.Sprintf("2999-01-01T00:00:00Z,%d", firstID+1)) + "." + mac,
		"unsigned, as before":      unsigned(fmt.Sprintf("2999-01-01T00:00:00Z,%d", firstID+1)),
		"the place edited":         strings.Replace(next, place, unsigned(strings.Replace(mustDecode(t, place), ",", "0,", 1)), 1),
		"a signature of all zeros": place + "." + base64.RawURLEncoding.EncodeToString(make([]byte, 16)),
	}
	other := newServer(t) // another database, another key
	for name, cursor := range tampered {
		for _, s := range []*server{first, second, other} {
			e := wantError(t, name, page(s, cursor), http.StatusUnprocessableEntity, "invalid_argument")
			if e.Error.Field != "cursor" {
				t.Errorf("%s: field %q, want cursor", name, e.Error.Field)
			}
		}
	}
	e := wantError(t, "a cursor of another database", page(other, next), http.StatusUnprocessableEntity, "invalid_argument")
	if e.Error.Field != "cursor" {
		t.Errorf("a cursor of another database: field %q, want cursor", e.Error.Field)
	}
}

func mustDecode(t *testing.T, s string) string {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
