package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A package of three files: a and b use each other, c uses a.
func TestRoomsCountsLoops(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.22\n",
		"a.go":   "package p\n\nfunc A() int { return B() }\n",
		"b.go":   "package p\n\nfunc B() int { return 1 }\n\nfunc B2() int { return A() }\n",
		"c.go":   "package p\n\nfunc C() int { return A() }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	if err := run(dir, &out); err != nil {
		t.Fatal(err)
	}
	want := "files 3, file pairs 3, references 3, pairs both ways 1, loops (files in each) [2]\n"
	if out.String() != want {
		t.Errorf("rooms = %q, want %q", out.String(), want)
	}
}
