// Command rooms counts how the files of one Go package use each other,
// from the type checker: the file pairs where one uses a name the other
// declares, the pairs that use each other both ways, and the loops (sets
// of files that reach each other). docs/design-notes.md ("service: rooms")
// gives its figures for service/ before and after the files were arranged.
//
//	go run ./cmd/rooms ../service
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: rooms PACKAGE_DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "rooms:", err)
		os.Exit(1)
	}
}

func run(dir string, w io.Writer) error {
	uses, files, err := fileUses(dir)
	if err != nil {
		return err
	}
	pairs, refs, mutual := 0, 0, 0
	for from, to := range uses {
		for decl, n := range to {
			pairs++
			refs += n
			if from < decl && uses[decl][from] > 0 {
				mutual++
			}
		}
	}
	var loops []int
	for _, c := range loopsOf(files, uses) {
		loops = append(loops, len(c))
	}
	slices.SortFunc(loops, func(a, b int) int { return b - a })
	fmt.Fprintf(w, "files %d, file pairs %d, references %d, pairs both ways %d, loops (files in each) %v\n",
		len(files), pairs, refs, mutual, loops)
	return nil
}

// fileUses type-checks the package in dir (its imports from the go
// command's export data) and counts, for each file, the uses of names
// another file of the package declares.
func fileUses(dir string) (map[string]map[string]int, []string, error) {
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list: %w", err)
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "\t"); ok && file != "" {
			exports[path] = file
		}
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	var files []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		parsed = append(parsed, f)
		files = append(files, filepath.Base(name))
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: imp}).Check(parsed[0].Name.Name, fset, parsed, info)
	if err != nil {
		return nil, nil, err
	}
	uses := map[string]map[string]int{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() || (obj.Parent() != nil && obj.Parent() != pkg.Scope()) {
			continue
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		decl := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from == decl {
			continue
		}
		if uses[from] == nil {
			uses[from] = map[string]int{}
		}
		uses[from][decl]++
	}
	return uses, files, nil
}

// loopsOf returns the strongly connected sets of more than one file
// (Tarjan's algorithm).
func loopsOf(files []string, uses map[string]map[string]int) [][]string {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var loops [][]string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range uses[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var c []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				c = append(c, w)
				if w == v {
					break
				}
			}
			if len(c) > 1 {
				loops = append(loops, c)
			}
		}
	}
	for _, f := range files {
		if _, seen := index[f]; !seen {
			visit(f)
		}
	}
	return loops
}
