package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/docexamples"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

var updateDocs = flag.Bool("update", false, "write the live answers into the documents' examples instead of comparing (make readme)")

// exampleDocs are the documents whose examples run, in this order, against
// one server: docs/api.md's examples go on from the README's articles.
var exampleDocs = []string{"README.md", "docs/api.md"}

// repoRoot is the checkout's top, where a newcomer runs make run and curl,
// and against which -d @FILE is read.
const repoRoot = "../.."

// TestDocExamples sends every example of README.md and docs/api.md, as the
// document writes it, to `dedupd serve` on a fresh migrated database, in
// the documents' order, and holds each answer to the one the document
// shows (docs/development.md, "The documents' examples"). With -update
// (make readme) it writes the live answers into the documents instead.
func TestDocExamples(t *testing.T) {
	docs := readExampleDocs(t, exampleDocs)
	base := serveForExamples(t)
	for _, d := range docs {
		live := runExamples(t, base, d.examples)
		if *updateDocs {
			out, err := docexamples.Rewrite(d.text, d.examples, live)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(out, d.text) {
				t.Logf("%s: %d examples, unchanged", d.name, len(d.examples))
				continue
			}
			if err := os.WriteFile(filepath.Join(repoRoot, d.name), out, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s: %d examples", d.name, len(d.examples))
			continue
		}
		for i, e := range d.examples {
			for _, diff := range e.Check(live[i]) {
				t.Errorf("%s: %s", e, diff)
			}
			if p := docexamples.Placeholders(e.Answer); len(p) > 0 {
				t.Logf("%s: not compared: %s", e, strings.Join(p, ", "))
			}
		}
		t.Logf("%s: %d examples", d.name, len(d.examples))
	}
	if !*updateDocs && t.Failed() {
		t.Log("if the new answers are right, `make readme` writes them into the documents")
	}
}

// TestDocExamplesFailOnAWrongAnswer edits a copy of each document's
// examples to a wrong answer — a changed value, a dropped field, a wrong
// status — and checks that the same run reports each of them, and nothing
// else.
func TestDocExamplesFailOnAWrongAnswer(t *testing.T) {
	docs := readExampleDocs(t, exampleDocs)
	// Each edit matches whatever value make readme last wrote, so that the
	// test outlives a fingerprint version.
	type edit struct{ doc, old, new, want string }
	edits := []edit{
		// The ingest's simhash, another value.
		{doc: "README.md", old: `"simhash":"[0-9a-f]{16}"`, new: `"simhash":"0123456789abcdef"`, want: `$.simhash: the answer is "`},
		// docs/api.md's comparison loses a field.
		{doc: "docs/api.md", old: `"near_duplicate":(true|false),`, new: ``, want: "$.near_duplicate: the answer has "},
		// docs/api.md's error example names another status.
		{doc: "docs/api.md", old: `<!-- example 4\d\d -->`, new: `<!-- example 299 -->`, want: ", the document says 299"},
	}
	for _, e := range edits {
		for i := range docs {
			if docs[i].name != e.doc {
				continue
			}
			re := regexp.MustCompile(e.old)
			at := re.FindIndex(docs[i].text)
			if at == nil {
				t.Fatalf("%s no longer holds %s: choose another edit", e.doc, e.old)
			}
			docs[i].text = slices.Concat(docs[i].text[:at[0]], []byte(e.new), docs[i].text[at[1]:])
			var err error
			if docs[i].examples, err = docexamples.Parse(e.doc, docs[i].text, readRepoFile); err != nil {
				t.Fatal(err)
			}
		}
	}
	base := serveForExamples(t)
	var reported []string
	for _, d := range docs {
		live := runExamples(t, base, d.examples)
		for i, e := range d.examples {
			for _, diff := range e.Check(live[i]) {
				reported = append(reported, e.String()+": "+diff)
			}
		}
	}
	if len(reported) != len(edits) {
		t.Errorf("the run reported %d differences, want %d (one an edit):\n%s", len(reported), len(edits), strings.Join(reported, "\n"))
	}
	for _, e := range edits {
		found := false
		for _, r := range reported {
			found = found || (strings.Contains(r, e.want) && strings.HasPrefix(r, e.doc+":"))
		}
		if !found {
			t.Errorf("the edit of %s (%q → %q) went unreported; reported:\n%s", e.doc, e.old, e.new, strings.Join(reported, "\n"))
		}
	}
}

type exampleDoc struct {
	name     string
	text     []byte
	examples []docexamples.Example
}

func readExampleDocs(t *testing.T, names []string) []exampleDoc {
	t.Helper()
	var docs []exampleDoc
	for _, name := range names {
		text, err := os.ReadFile(filepath.Join(repoRoot, name))
		if err != nil {
			t.Fatal(err)
		}
		examples, err := docexamples.Parse(name, text, readRepoFile)
		if err != nil {
			t.Fatal(err)
		}
		if len(examples) == 0 {
			t.Fatalf("%s shows no example: the convention changed, or the parser broke", name)
		}
		docs = append(docs, exampleDoc{name, text, examples})
	}
	return docs
}

func readRepoFile(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(name)))
}

// serveForExamples runs `dedupd serve` as make run does — default settings,
// no API keys — on a fresh migrated database and a free port, and returns
// its base URL. The server stops when the test ends.
func serveForExamples(t *testing.T) string {
	t.Helper()
	env := map[string]string{
		"DATABASE_URL":     dbtest.URL(t),
		"DEDUP_ADDR":       "127.0.0.1:0",
		"DEDUP_LOG_FORMAT": "json",
	}
	ctx, cancel := context.WithCancel(context.Background())
	logs := newLogWatcher()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, strings.NewReader(""), io.Discard, logs, envFrom(env)) }()
	addr := logs.waitAddr(t, done)
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("dedupd serve = %v; log:\n%s", err, logs.String())
			}
		case <-time.After(30 * time.Second):
			t.Error("dedupd serve did not stop within 30 s")
		}
	})
	return "http://" + addr
}

// runExamples sends the examples one after the other and returns the
// answers.
func runExamples(t *testing.T, base string, examples []docexamples.Example) []docexamples.Live {
	t.Helper()
	client := &http.Client{Timeout: 30 * time.Second}
	live := make([]docexamples.Live, len(examples))
	for i, e := range examples {
		req, err := e.NewRequest(base)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		live[i] = docexamples.Live{Status: res.StatusCode, Body: body}
	}
	return live
}
