package newscorpus

import (
	"os"
	"path/filepath"
	"strings"
)

// The corpora live beside the project, in ../shared/corpora seen from the
// repository's root. A git worktree's root is elsewhere (/work/wt/x for a
// main checkout in /work/main), so when the folder is not beside the
// worktree, it is looked for beside the main checkout the worktree belongs
// to.

// DefaultDir returns where the corpora are by default, starting the search
// for the repository's root at dir: ../shared/corpora from the root, or
// from the main checkout's root. It returns the first candidate when none
// exists, for the message that says they are missing.
func DefaultDir(dir string) string {
	root, ok := repositoryRoot(dir)
	if !ok {
		return filepath.Join(dir, "..", "shared", "corpora")
	}
	candidates := []string{filepath.Join(root, "..", "shared", "corpora")}
	if main, ok := mainCheckout(root); ok {
		candidates = append(candidates, filepath.Join(main, "..", "shared", "corpora"))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return filepath.Clean(c)
		}
	}
	return filepath.Clean(candidates[0])
}

// repositoryRoot returns the nearest folder at or above dir that holds a
// .git entry (a folder in a checkout, a file in a worktree).
func repositoryRoot(dir string) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// mainCheckout returns the root of the checkout a worktree at root belongs
// to: its .git file says "gitdir: <main>/.git/worktrees/<name>".
func mainCheckout(root string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(root, ".git"))
	if err != nil { // a folder: root is the main checkout itself
		return "", false
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", false
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(root, gitdir)
	}
	worktrees := filepath.Dir(filepath.Clean(gitdir))
	if filepath.Base(worktrees) != "worktrees" {
		return "", false
	}
	return filepath.Dir(filepath.Dir(worktrees)), true
}
