package docexamples

import (
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func noFiles(name string) ([]byte, error) { return nil, errors.New("no file " + name) }

const twoExamples = "# Title\n\n" +
	"```sh\nmake run\n```\n\n" +
	"<!-- example 201 -->\n```sh\ncurl -s -X POST localhost:8080/v1/articles -H 'Content-Type: application/json' -d '{\"body\":\"a\"}'\n```\n```json\n{\"id\":1,\"at\":\"<time>\"}\n```\n\n" +
	"Text between.\n\n" +
	"<!-- example 404 -->\n```sh\ncurl -s localhost:8080/v1/articles/9\n```\n\n```json\n{\"error\":{}}\n```\n"

func TestParseFindsEachPairInOrder(t *testing.T) {
	got, err := Parse("doc.md", []byte(twoExamples), noFiles)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("Parse found %d examples, want 2: %v", len(got), got)
	}
	first, second := got[0], got[1]
	if first.Status != 201 || first.Method != "POST" || first.Path != "/v1/articles" || string(first.Body) != `{"body":"a"}` ||
		first.Header.Get("Content-Type") != "application/json" || first.Answer != "{\"id\":1,\"at\":\"<time>\"}\n" || first.Line != 9 {
		t.Errorf("first example = %+v", first)
	}
	if second.Status != 404 || second.Method != "GET" || second.Path != "/v1/articles/9" || second.Body != nil || second.Answer != "{\"error\":{}}\n" {
		t.Errorf("second example = %+v", second)
	}
}

func TestParseRefusesWhatItCannotCheck(t *testing.T) {
	for name, doc := range map[string]string{
		"unmarked curl":     "```sh\ncurl -s localhost:8080/healthz\n```\n```json\n{}\n```\n",
		"no answer":         "<!-- example 200 -->\n```sh\ncurl -s localhost:8080/healthz\n```\nText.\n```json\n{}\n```\n",
		"answer not json":   "<!-- example 200 -->\n```sh\ncurl -s localhost:8080/healthz\n```\n```text\nok\n```\n",
		"marker then text":  "<!-- example 200 -->\nText.\n```sh\ncurl -s localhost:8080/healthz\n```\n```json\n{}\n```\n",
		"other address":     "<!-- example 200 -->\n```sh\ncurl -s example.com:8080/healthz\n```\n```json\n{}\n```\n",
		"unknown option":    "<!-- example 200 -->\n```sh\ncurl -s -i localhost:8080/healthz\n```\n```json\n{}\n```\n",
		"a pipe":            "<!-- example 200 -->\n```sh\ncurl -s localhost:8080/healthz | jq .\n```\n```json\n{}\n```\n",
		"missing file":      "<!-- example 200 -->\n```sh\ncurl -s localhost:8080/v1/check -d @x.json\n```\n```json\n{}\n```\n",
		"unclosed block":    "<!-- example 200 -->\n```sh\ncurl -s localhost:8080/healthz\n",
		"marker at the end": "Text.\n<!-- example 200 -->\n",
	} {
		if ex, err := Parse("doc.md", []byte(doc), noFiles); err == nil {
			t.Errorf("%s: Parse = %v, nil; want an error", name, ex)
		}
	}
}

func TestParseCurlReadsTheShellAsAShellDoes(t *testing.T) {
	files := func(name string) ([]byte, error) {
		if name == "docs/examples/a.json" {
			return []byte("{\n  \"body\": \"x\"\r\n}\n"), nil
		}
		return nil, errors.New("no file")
	}
	for _, c := range []struct {
		command string
		want    Request
	}{
		{"curl -s 'localhost:8080/v1/search?q=x'", Request{Method: "GET", Path: "/v1/search?q=x", Header: http.Header{}}},
		{"curl -s -X POST http://127.0.0.1:8080/v1/check \\\n  -H 'Content-Type: application/json' -d '{\"a\": \"it'\\''s\"}'",
			Request{Method: "POST", Path: "/v1/check", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"a": "it's"}`)}},
		{`curl -d "{\"a\":1}" localhost:8080/v1/check`,
			Request{Method: "POST", Path: "/v1/check", Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, Body: []byte(`{"a":1}`)}},
		{"curl -H 'Content-Type: application/json' -d @docs/examples/a.json localhost:8080/v1/check",
			Request{Method: "POST", Path: "/v1/check", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{  "body": "x"}`)}},
		{"curl -H 'Content-Type: application/json' --data-binary @docs/examples/a.json localhost:8080/v1/check",
			Request{Method: "POST", Path: "/v1/check", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte("{\n  \"body\": \"x\"\r\n}\n")}},
		{"curl -X DELETE localhost:8080/v1/articles/2", Request{Method: "DELETE", Path: "/v1/articles/2", Header: http.Header{}}},
	} {
		got, err := ParseCurl(c.command, files)
		if err != nil {
			t.Errorf("ParseCurl(%q) = %v", c.command, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseCurl(%q) = %+v, want %+v", c.command, got, c.want)
		}
	}
	for _, bad := range []string{"wget localhost:8080/", "curl localhost:8080/v1/search?q=x", "curl -s", "curl 'localhost:8080/a", "curl localhost:8080/$HOME",
		"curl -d a -d b localhost:8080/", "curl -H Broken localhost:8080/", "curl localhost:8080/a localhost:8080/b", "curl -X"} {
		if r, err := ParseCurl(bad, files); err == nil {
			t.Errorf("ParseCurl(%q) = %+v, nil; want an error", bad, r)
		}
	}
}

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		want, got string
		diffs     []string
	}{
		{`{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1.0}`, nil},
		{"{\n  \"a\": \"x\"\n}\n", `{"a":"x"}`, nil},
		{`{"at":"<time>"}`, `{"at":"2026-11-29T03:00:00Z"}`, nil},
		{`{"at":"<time>"}`, `{"at":null}`, nil},
		{`{"at":"<time>"}`, `{}`, []string{"$.at: the document shows it, the answer has no such field"}},
		{`{"a":"<b>x"}`, `{"a":"y"}`, []string{`$.a: the answer is "y", the document says "\u003cb\u003ex"`}},
		{`{"a":1}`, `{"a":2}`, []string{"$.a: the answer is 2, the document says 1"}},
		{`{"a":1}`, `{"a":"1"}`, []string{`$.a: the answer is "1", the document says 1`}},
		{`{"a":null}`, `{"a":false}`, []string{"$.a: the answer is false, the document says null"}},
		{`{}`, `{"n":{"x":1}}`, []string{`$.n: the answer has {"x":1}, the document no such field`}},
		{`{"m":[{"d":3}]}`, `{"m":[{"d":0}]}`, []string{"$.m[0].d: the answer is 0, the document says 3"}},
		{`[1,2]`, `[1]`, []string{"$: the answer has 1 elements, the document 2: [1]"}},
		{`[1,2,3,4]`, `[4,3,2,1]`, []string{"$: the answer is [4,3,2,1], the document says [1,2,3,4]"}},
		{`{"a":1}`, `{"a":1}{}`, []string{"the answer is not JSON: more than one JSON value: \"{\\\"a\\\":1}{}\""}},
	} {
		if got := Compare(c.want, []byte(c.got)); !reflect.DeepEqual(got, c.diffs) {
			t.Errorf("Compare(%s, %s) = %q, want %q", c.want, c.got, got, c.diffs)
		}
	}
	if got := Compare(`{"a":`, []byte(`{}`)); len(got) != 1 || !strings.Contains(got[0], "the document's answer is not JSON") {
		t.Errorf("Compare of a broken document = %q", got)
	}
}

func TestRewriteWritesTheServersBytesAndKeepsPlaceholders(t *testing.T) {
	ex, err := Parse("doc.md", []byte(twoExamples), noFiles)
	if err != nil {
		t.Fatal(err)
	}
	live := []Live{
		{Status: 200, Body: []byte(`{"id":7,"at":"2026-11-29T03:00:00Z","note":"a\u003cb"}` + "\n")},
		{Status: 404, Body: []byte(`{"error":{"code":"not_found"}}`)},
	}
	out, err := Rewrite([]byte(twoExamples), ex, live)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		"<!-- example 201 -->", "<!-- example 200 -->",
		`{"id":1,"at":"<time>"}`, `{"id":7,"at":"<time>","note":"a\u003cb"}`,
		`{"error":{}}`, `{"error":{"code":"not_found"}}`,
	).Replace(twoExamples)
	if string(out) != want {
		t.Errorf("Rewrite =\n%s\nwant\n%s", out, want)
	}
	again, err := Parse("doc.md", out, noFiles)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range again {
		if d := e.Check(live[i]); len(d) > 0 {
			t.Errorf("the rewritten %s does not match its own answer: %q", e, d)
		}
	}
	// A server whose JSON this package cannot write back byte for byte is
	// refused rather than reformatted.
	if _, err := Rewrite([]byte(twoExamples), ex, []Live{{200, []byte(`{"id": 7}`)}, live[1]}); err == nil {
		t.Error("Rewrite of an answer with spaces = nil error, want one")
	}
}
