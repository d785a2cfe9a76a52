package service

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The rooms of the package, by file-name prefix, and what each may use of
// the others (doc.go names every file). Files outside the four groups —
// the entry points (check, correct, upgrade, ingest's), the value types, the
// read side — are shared; rules_*.go and the value files are held pure by
// TestPureFilesReadNothing.
var rooms = []string{"ingest", "judge", "dependants", "editorial"}

// roomMayUse names, for a room, the other rooms whose names it may use,
// and the single names it may take from a room it may not use.
var roomMayUse = map[string]struct {
	rooms []string
	names []string
}{
	"ingest":     {rooms: []string{"judge"}, names: []string{"Service.leave", "Service.relinkBoilerplateLinks"}},
	"judge":      {},
	"dependants": {rooms: []string{"judge"}},
	// The editors' decisions take the writers' locks (locks*.go, shared)
	// and leave their dependants as a delete does; they judge nothing.
	"editorial": {names: []string{"Service.leave", "Service.relink"}},
}

// pureFiles are the files whose code reads nothing: the rules and the value
// types they judge. What they use must be pure too.
func isPureFile(name string) bool {
	return strings.HasPrefix(name, "rules_") || slices.Contains(pureValueFiles, name)
}

var pureValueFiles = []string{
	"article.go", "cluster_query.go", "cluster_view.go", "decision.go", "errors.go",
	"credit.go", "options.go", "queries.go", "search_terms.go", "session.go", "verdict.go",
}

// impureImports are the packages a pure file may not import: waiting,
// sharing state, reading.
var impureImports = []string{"context", "sync", "sync/atomic", "time/tzdata", "net", "os", "database/sql"}

func roomOf(file string) string {
	for _, r := range rooms {
		if strings.HasPrefix(file, r) {
			return r
		}
	}
	return ""
}

// typedPackage is this package's files, type-checked.
type typedPackage struct {
	fset  *token.FileSet
	files map[string]*ast.File
	info  *types.Info
	pkg   *types.Package
}

var (
	typedOnce sync.Once
	typed     *typedPackage
	typedErr  error
)

// typeCheck type-checks the package's non-test files against the export
// data the go command builds for its imports (go list -export), so that
// the tests below follow what each name refers to, not how it is spelt.
func typeCheck(t *testing.T) *typedPackage {
	t.Helper()
	typedOnce.Do(func() { typed, typedErr = loadTyped() })
	if typedErr != nil {
		t.Fatal(typedErr)
	}
	return typed
}

func loadTyped() (*typedPackage, error) {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".").Output()
	if err != nil {
		return nil, err
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "\t"); ok && file != "" {
			exports[path] = file
		}
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		return nil, err
	}
	p := &typedPackage{fset: fset, files: map[string]*ast.File{}}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.files[name] = f
		files = append(files, f)
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
	p.info = &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: imp}
	p.pkg, err = conf.Check("github.com/newsdedup/newsdedup/service", fset, files, p.info)
	return p, err
}

// use is one name a file uses that another file of the package declares.
type use struct {
	file, declFile, name string
}

// uses lists, for every file, the package's names it uses that another
// file declares: package-level names and the methods and fields of the
// package's types, each by its declaring file.
func (p *typedPackage) uses() []use {
	var out []use
	seen := map[use]bool{}
	for id, obj := range p.info.Uses {
		if obj.Pkg() != p.pkg || !obj.Pos().IsValid() {
			continue
		}
		if obj.Parent() != nil && obj.Parent() != p.pkg.Scope() {
			continue // a local name
		}
		u := use{
			file:     filepath.Base(p.fset.Position(id.Pos()).Filename),
			declFile: filepath.Base(p.fset.Position(obj.Pos()).Filename),
			name:     qualifiedName(obj),
		}
		if u.file != u.declFile && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	slices.SortFunc(out, func(a, b use) int {
		return strings.Compare(a.file+a.declFile+a.name, b.file+b.declFile+b.name)
	})
	return out
}

// qualifiedName is a method's or field's name with its type's, T.m.
func qualifiedName(obj types.Object) string {
	if fn, ok := obj.(*types.Func); ok {
		if recv := fn.Signature().Recv(); recv != nil {
			return typeName(recv.Type()) + "." + fn.Name()
		}
	}
	return obj.Name()
}

func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

// TestRoomsBoundary keeps each room to what it may use of the others: the
// editors' files take the writers' locks and leave, and judge nothing.
func TestRoomsBoundary(t *testing.T) {
	p := typeCheck(t)
	for _, u := range p.uses() {
		from, to := roomOf(u.file), roomOf(u.declFile)
		if from == "" || to == "" || from == to {
			continue
		}
		may := roomMayUse[from]
		if slices.Contains(may.rooms, to) || slices.Contains(may.names, u.name) {
			continue
		}
		t.Errorf("%s uses %s of %s: the %s files may not use the %s files' names (roomMayUse)", u.file, u.name, u.declFile, from, to)
	}
}

// TestPureFilesReadNothing holds the rules and the value types to reading
// nothing, so that they are tested without a database: they import nothing
// that waits or shares state, and every name of the package they use is
// declared in a pure file too — followed by what the name refers to, so
// that a storage interface reached through a helper, a field or a method
// counts as it does when named.
func TestPureFilesReadNothing(t *testing.T) {
	p := typeCheck(t)
	pure := 0
	for name, f := range p.files {
		if !isPureFile(name) {
			continue
		}
		pure++
		for _, imp := range f.Imports {
			if path := strings.Trim(imp.Path.Value, `"`); slices.Contains(impureImports, path) {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
	if pure < len(pureValueFiles)+5 {
		t.Fatalf("found %d pure files, want the rules and %d value files", pure, len(pureValueFiles))
	}
	for _, u := range p.uses() {
		if isPureFile(u.file) && !isPureFile(u.declFile) {
			t.Errorf("%s uses %s of %s, which is not a pure file", u.file, u.name, u.declFile)
		}
	}
}

// TestDocNamesEveryFile keeps the package doc a map a newcomer can trust:
// every file of the package is named in it, by the step or concern it
// serves.
func TestDocNamesEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if name == "doc.go" || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if !regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name)).Match(doc) {
			t.Errorf("doc.go does not name %s", name)
		}
	}
}
