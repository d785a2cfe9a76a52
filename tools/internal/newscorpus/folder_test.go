package newscorpus

import (
	"os"
	"path/filepath"
	"testing"
)

// The corpora are found beside the repository, or beside the main checkout
// of a worktree.
func TestDefaultDir(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	mkdir := func(parts ...string) string {
		p := filepath.Join(append([]string{top}, parts...)...)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mkdir("main", ".git", "worktrees", "eval")
	corpora := mkdir("shared", "corpora")
	wt := mkdir("wt", "eval", "tools")
	if err := os.WriteFile(filepath.Join(top, "wt", "eval", ".git"), []byte("gitdir: "+filepath.Join(top, "main", ".git", "worktrees", "eval")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := DefaultDir(mkdir("main", "tools")); got != corpora {
		t.Errorf("from the main checkout: %q, want %q", got, corpora)
	}
	if got := DefaultDir(wt); got != corpora {
		t.Errorf("from a worktree: %q, want %q", got, corpora)
	}
	if err := os.RemoveAll(corpora); err != nil {
		t.Fatal(err)
	}
	if got, want := DefaultDir(wt), filepath.Join(top, "wt", "shared", "corpora"); got != want {
		t.Errorf("with no corpora anywhere: %q, want the first candidate %q", got, want)
	}
}
