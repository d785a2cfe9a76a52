package handlers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/samples"
)

// cluster is a cluster as the API returns it.
type cluster struct {
	ID   int64 `json:"id"`
	Size int   `json:"size"`
	Kept struct {
		ID       int64  `json:"id"`
		Rule     string `json:"rule"`
		Reason   string `json:"reason"`
		Decision *struct {
			ID     int64  `json:"id"`
			Editor string `json:"editor"`
			Action string `json:"action"`
		} `json:"decision"`
	} `json:"kept"`
	Original struct {
		ID     int64 `json:"id"`
		Copies int   `json:"copies"`
	} `json:"original"`
	Members []struct {
		Difference *struct {
			Same        bool `json:"same"`
			BylineAdded bool `json:"byline_added"`
		} `json:"difference"`
		ID         int64  `json:"id"`
		Source     string `json:"source"`
		ClusterID  int64  `json:"cluster_id"`
		TextLength int    `json:"text_length"`
		Kept       bool   `json:"kept"`
		Likeness   *struct {
			Distance int     `json:"distance"`
			Coverage float64 `json:"coverage"`
		} `json:"likeness"`
	} `json:"members"`
	Decisions []struct {
		ID     int64  `json:"id"`
		Action string `json:"action"`
		Editor string `json:"editor"`
		Note   string `json:"note"`
	} `json:"decisions"`
}

type clusterList struct {
	Clusters []struct {
		ID          int64    `json:"id"`
		Size        int      `json:"size"`
		Sources     []string `json:"sources"`
		KeptArticle struct {
			ID int64 `json:"id"`
		} `json:"kept_article"`
	} `json:"clusters"`
	NextCursor *string `json:"next_cursor"`
}

type splitResult struct {
	ClusterID      int64   `json:"cluster_id"`
	Moved          []int64 `json:"moved"`
	SeparatedPairs int     `json:"separated_pairs"`
}

// storyArticle is an ingest request for a sample story's text.
func storyArticle(source, id, title, body string) map[string]any {
	a := article(id, title, body)
	a["source"] = source
	return a
}

// TestClusters lists the clusters, keeps a member, returns to the rule and
// splits one out, through the API with a key, and holds every answer to
// the contract's schema.
func TestClusters(t *testing.T) {
	t.Parallel()
	s := newServer(t, withKeys("k1"))
	schema := loadSchemas(t)
	st := samples.Stories[0]
	head := s.ingest(t, storyArticle("xinhua", "x-1", st.Title, st.Body), http.StatusCreated)
	repost := s.ingest(t, storyArticle("portal", "w-1", st.Title, st.Repost()), http.StatusCreated)
	short := s.ingest(t, storyArticle("people", "p-1", st.Title, st.Shortened()), http.StatusCreated)
	s.ingest(t, storyArticle("xinhua", "x-2", samples.Stories[1].Title, samples.Stories[1].Body), http.StatusCreated)
	for _, v := range []verdict{repost, short} {
		if v.DuplicateOf == nil {
			t.Fatalf("%s: %s, want a duplicate of %d", v.ExternalID, v.Status, *head.ID)
		}
	}
	clusterPath := fmt.Sprintf("/v1/clusters/%d", *head.ID)

	// The list: one cluster of three (the unrelated story is alone).
	r := s.get(t, "/v1/clusters?limit=10")
	wantStatus(t, "list", r, http.StatusOK)
	schema.check(t, "ClusterList", r)
	list := decode[clusterList](t, r)
	if len(list.Clusters) != 1 || list.Clusters[0].ID != *head.ID || list.Clusters[0].Size != 3 ||
		!slices.Equal(list.Clusters[0].Sources, []string{"people", "portal", "xinhua"}) || list.NextCursor != nil {
		t.Errorf("list: %+v", list)
	}
	for _, q := range []string{"source=portal", "status=near_duplicate", "min_size=3&max_size=3", "from=2024-05-11&to=2024-05-11"} {
		if r := s.get(t, "/v1/clusters?"+q); !strings.Contains(string(r.body), fmt.Sprintf(`"id":%d`, *head.ID)) {
			t.Errorf("list with %s: %v, want the cluster", q, r)
		}
	}
	for _, q := range []string{"source=nobody", "min_size=4", "from=2024-05-12"} {
		if r := s.get(t, "/v1/clusters?"+q); !strings.Contains(string(r.body), `"clusters":[]`) {
			t.Errorf("list with %s: %v, want none", q, r)
		}
	}
	for q, field := range map[string]string{"limit=0": "limit", "limit=x": "limit", "cursor=abc": "cursor", "from=yesterday": "from",
		"status=NOPE": "status", "min_size=-1": "min_size"} {
		e := wantError(t, "list with "+q, s.get(t, "/v1/clusters?"+q), http.StatusUnprocessableEntity, "invalid_argument")
		if e.Error.Field != field {
			t.Errorf("list with %s: field %q, want %q", q, e.Error.Field, field)
		}
	}

	// The cluster: without preferred sources, the original and the repost
	// hold the whole story (the repost's byline and editor's line are its
	// own text, which counts for nothing), and the original is the earlier:
	// it is kept.
	r = s.get(t, clusterPath)
	wantStatus(t, "cluster", r, http.StatusOK)
	schema.check(t, "Cluster", r)
	c := decode[cluster](t, r)
	if c.Size != 3 || len(c.Members) != 3 || c.Kept.Rule != "earliest" || c.Kept.ID != *head.ID || c.Kept.Decision != nil {
		t.Errorf("cluster: %+v", c)
	}
	for _, m := range c.Members {
		if m.Kept != (m.ID == c.Kept.ID) || (m.Likeness == nil) != m.Kept || m.TextLength == 0 {
			t.Errorf("member %+v of a cluster keeping %d", m, c.Kept.ID)
		}
		// Published at the same time: the original is the first ingested;
		// the repost added a byline and an editor's line.
		if (m.Difference == nil) != (m.ID == *head.ID) || (m.ID == *repost.ID && !m.Difference.BylineAdded) {
			t.Errorf("member %d's difference from the original: %+v", m.ID, m.Difference)
		}
	}
	if c.Original.ID != *head.ID || c.Original.Copies != 2 {
		t.Errorf("the cluster's original: %+v, want %d with 2 copies", c.Original, *head.ID)
	}
	// Its other coverage: none of its members, and no unrelated story.
	r = s.get(t, clusterPath+"/other-coverage")
	wantStatus(t, "other coverage", r, http.StatusOK)
	schema.check(t, "OtherCoverage", r)
	if body := string(r.body); !strings.Contains(body, fmt.Sprintf(`"cluster_id":%d`, *head.ID)) || !strings.Contains(body, `"articles":[]`) {
		t.Errorf("other coverage of a cluster that no other article quotes: %s", body)
	}

	// An editor keeps the repost.
	r = s.do(t, request{method: http.MethodPut, path: clusterPath + "/kept",
		body: strings.NewReader(fmt.Sprintf(`{"article_id": %d, "editor": "王芳", "note": "新华社原稿"}`, *repost.ID))})
	wantStatus(t, "keep", r, http.StatusOK)
	schema.check(t, "Cluster", r)
	c = decode[cluster](t, r)
	if c.Kept.ID != *repost.ID || c.Kept.Rule != "editor" || c.Kept.Decision == nil || c.Kept.Decision.Editor != "王芳" ||
		len(c.Decisions) != 1 || c.Decisions[0].Note != "新华社原稿" {
		t.Errorf("after keep: %+v", c)
	}
	// Back to the rule.
	r = s.do(t, request{method: http.MethodPut, path: clusterPath + "/kept", body: strings.NewReader(`{"article_id": null, "editor": "李明"}`)})
	wantStatus(t, "reset", r, http.StatusOK)
	if c = decode[cluster](t, r); c.Kept.Rule != "earliest" || c.Kept.ID != *head.ID || len(c.Decisions) != 2 || c.Decisions[0].Action != "reset" {
		t.Errorf("after reset: %+v", c)
	}

	// Split the shortened copy out.
	r = s.post(t, clusterPath+"/split", fmt.Sprintf(`{"article_id": %d, "editor": "王芳", "note": "另一篇稿件"}`, *short.ID))
	wantStatus(t, "split", r, http.StatusOK)
	schema.check(t, "SplitResult", r)
	if loc := r.header.Get("Location"); loc != fmt.Sprintf("/v1/clusters/%d", *short.ID) {
		t.Errorf("split: Location %q", loc)
	}
	if split := decode[splitResult](t, r); split.ClusterID != *short.ID || split.SeparatedPairs != 2 || !slices.Equal(split.Moved, []int64{*short.ID}) {
		t.Errorf("split: %+v", split)
	}
	// Re-ingesting it keeps it apart.
	v := s.ingest(t, storyArticle("people", "p-1", st.Title, st.Shortened()+"（完）"), http.StatusCreated)
	if v.DuplicateOf != nil {
		t.Errorf("re-ingest after the split: %s of %d, want unique", v.Status, v.DuplicateOf.ID)
	}
	r = s.get(t, fmt.Sprintf("/v1/clusters/%d", *short.ID))
	schema.check(t, "Cluster", r)
	if c = decode[cluster](t, r); c.Size != 1 || c.Kept.Rule != "only" || len(c.Decisions) != 1 {
		t.Errorf("the split-out cluster: %+v", c)
	}

	// Errors.
	for _, tt := range []struct {
		name, method, path, body string
		status                   int
		code, field              string
	}{
		{"no key", "GET", clusterPath, "", 401, "unauthorized", ""},
		{"no such cluster", "GET", "/v1/clusters/999999", "", 404, "not_found", ""},
		{"a member is no cluster", "GET", fmt.Sprintf("/v1/clusters/%d", *repost.ID), "", 404, "not_found", ""},
		{"not a member", "PUT", clusterPath + "/kept", fmt.Sprintf(`{"article_id": %d, "editor": "王芳"}`, *short.ID), 422, "invalid_argument", "article_id"},
		{"no editor", "PUT", clusterPath + "/kept", fmt.Sprintf(`{"article_id": %d}`, *head.ID), 422, "invalid_argument", "editor"},
		{"an unknown field", "PUT", clusterPath + "/kept", `{"article_id": 1, "editor": "x", "who": 1}`, 400, "invalid_json", "who"},
		{"no article to split", "POST", clusterPath + "/split", `{"editor": "王芳"}`, 422, "invalid_argument", "article_id"},
		{"split the only member", "POST", fmt.Sprintf("/v1/clusters/%d/split", *short.ID), fmt.Sprintf(`{"article_id": %d, "editor": "王芳"}`, *short.ID), 422, "invalid_argument", "article_id"},
		{"delete a cluster", "DELETE", clusterPath, "", 405, "method_not_allowed", ""},
	} {
		req := request{method: tt.method, path: tt.path, noKey: tt.status == 401}
		if tt.body != "" {
			req.body = strings.NewReader(tt.body)
		}
		e := wantError(t, tt.name, s.do(t, req), tt.status, tt.code)
		if e.Error.Field != tt.field {
			t.Errorf("%s: field %q, want %q", tt.name, e.Error.Field, tt.field)
		}
	}
}

// schemas are the contract's component schemas, to hold responses to.
type schemas map[string]any

func loadSchemas(t *testing.T) schemas {
	t.Helper()
	b, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Components.Schemas
}

// check fails the test unless the response's JSON matches schema name:
// the types, the required properties, no property an object with
// additionalProperties false does not describe, and the enums.
func (s schemas) check(t *testing.T, name string, r response) {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, p := range s.problems(map[string]any{"$ref": "#/components/schemas/" + name}, v, name) {
		t.Errorf("response does not match %s: %s", name, p)
	}
}

func (s schemas) problems(schema map[string]any, v any, at string) []string {
	if ref, ok := schema["$ref"].(string); ok {
		target, ok := s[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		if !ok {
			return []string{at + ": unresolved " + ref}
		}
		return s.problems(target, v, at)
	}
	if v == nil {
		if schema["nullable"] == true {
			return nil
		}
		return []string{at + ": null, not nullable"}
	}
	var out []string
	if all, ok := schema["allOf"].([]any); ok {
		for _, sub := range all {
			out = append(out, s.problems(sub.(map[string]any), v, at)...)
		}
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.Contains(enum, v) {
		out = append(out, fmt.Sprintf("%s: %v is not one of %v", at, v, enum))
	}
	switch schema["type"] {
	case "object":
		o, ok := v.(map[string]any)
		if !ok {
			return append(out, fmt.Sprintf("%s: %T, want an object", at, v))
		}
		props, _ := schema["properties"].(map[string]any)
		for _, req := range asStrings(schema["required"]) {
			if _, ok := o[req]; !ok {
				out = append(out, at+": no "+req)
			}
		}
		for k, val := range o {
			p, ok := props[k].(map[string]any)
			if !ok {
				if schema["additionalProperties"] == false {
					out = append(out, at+": unexpected "+k)
				}
				continue
			}
			out = append(out, s.problems(p, val, at+"."+k)...)
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return append(out, fmt.Sprintf("%s: %T, want an array", at, v))
		}
		items, _ := schema["items"].(map[string]any)
		for i, x := range a {
			out = append(out, s.problems(items, x, fmt.Sprintf("%s[%d]", at, i))...)
		}
	case "string":
		if _, ok := v.(string); !ok {
			out = append(out, fmt.Sprintf("%s: %T, want a string", at, v))
		}
	case "integer":
		if f, ok := v.(float64); !ok || f != float64(int64(f)) {
			out = append(out, fmt.Sprintf("%s: %v, want an integer", at, v))
		}
	case "number":
		if _, ok := v.(float64); !ok {
			out = append(out, fmt.Sprintf("%s: %T, want a number", at, v))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			out = append(out, fmt.Sprintf("%s: %T, want a boolean", at, v))
		}
	}
	return out
}

func asStrings(v any) []string {
	var out []string
	if a, ok := v.([]any); ok {
		for _, x := range a {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}
