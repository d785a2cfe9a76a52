package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestDigestSeesEveryField: changing any one part of a fingerprint, down
// to a keyword's weight by its last bit or a sentence's offset, changes
// its digest.
func TestDigestSeesEveryField(t *testing.T) {
	base := func() fingerprint.Fingerprint {
		return fingerprint.Fingerprint{
			Simhash:   1,
			Version:   fingerprint.VersionOneScript,
			Words:     fingerprint.WordSet{1, 2},
			Keywords:  []fingerprint.Keyword{{Word: "新闻", Weight: 0.1}},
			Shingles:  fingerprint.ShingleSet{3},
			Sentences: []fingerprint.Sentence{{Start: 0, End: 5, Runes: 5, TextHash: 7}},
			PlainBody: "一二三四五。",
		}
	}
	want := digest(base(), nil)
	changes := map[string]func(*fingerprint.Fingerprint){
		"simhash":        func(f *fingerprint.Fingerprint) { f.Simhash = 2 },
		"version":        func(f *fingerprint.Fingerprint) { f.Version = fingerprint.VersionNews },
		"words":          func(f *fingerprint.Fingerprint) { f.Words = fingerprint.WordSet{1, 3} },
		"keyword weight": func(f *fingerprint.Fingerprint) { f.Keywords[0].Weight = 0.10000000000000002 },
		"content hash":   func(f *fingerprint.Fingerprint) { f.ContentHash[31] = 1 },
		"shingles":       func(f *fingerprint.Fingerprint) { f.Shingles = nil },
		"sentence end":   func(f *fingerprint.Fingerprint) { f.Sentences[0].End = 6 },
		"plain body":     func(f *fingerprint.Fingerprint) { f.PlainBody += " " },
	}
	for name, change := range changes {
		f := base()
		change(&f)
		if digest(f, nil) == want {
			t.Errorf("changing the %s left the digest as it was", name)
		}
	}
	if digest(base(), fingerprint.ErrNoWords) == want {
		t.Error("an error's digest is the fingerprint's")
	}
}

// TestCompareWith: the same digests pass; one differing line, one more or
// one fewer fail.
func TestCompareWith(t *testing.T) {
	digests := []string{"a-1 x", "a-2 y"}
	path := filepath.Join(t.TempDir(), "old.txt")
	for _, c := range []struct {
		file string
		ok   bool
	}{
		{"a-1 x\na-2 y\n", true},
		{"a-1 x\na-2 z\n", false},
		{"a-1 x\n", false},
		{"a-1 x\na-2 y\na-3 z\n", false},
	} {
		if err := os.WriteFile(path, []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := compareWith(path, digests); (err == nil) != c.ok {
			t.Errorf("compareWith(%q) = %v, want ok %v", strings.ReplaceAll(c.file, "\n", "|"), err, c.ok)
		}
	}
}
