package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTestsUseTheirOwnFixtures: no test source names a file of the example scene folders (scenes/,
// examples/arena/scenes/). Users open and save those as the README shows; a test reading them fails (or, opening
// one in the editor, could overwrite it) once a user has saved an edit. Tests read copies in their testdata/.
func TestTestsUseTheirOwnFixtures(t *testing.T) {
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	examples := exampleSceneDirs(t, root)
	if len(examples) < 2 {
		t.Fatalf("found the example scene folders %v, want scenes/ and examples/arena/scenes/", examples)
	}
	n := 0
	err = walkSources(root, func(p string) error {
		if !isTestSource(root, p) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		for _, bad := range exampleSceneRefs(root, p, src, examples, fileExists) {
			t.Error(bad)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("checked %d test sources: too few to be believed", n)
	}
}

// TestFixtureCheckCatchesExampleScenes proves the check can fail: each way a test has named an example scene.
func TestFixtureCheckCatchesExampleScenes(t *testing.T) {
	root := "/repo"
	examples := []string{"/repo/scenes", "/repo/examples/arena/scenes"}
	src := `package x
func f() {
	os.ReadFile("../scenes/solar.json")
	os.ReadFile(filepath.Join("..", "scenes", "solar.json"))
	os.ReadFile(repoPath("scenes/" + name))
	os.ReadFile(repoFile("scenes/*.json"))
	_ = map[string]string{"scenes/arena.json": "arena.json"}
	serialize.ExportFile(ctx, "../examples/arena/scenes/arena.json", exp)
	// Not examples: a scenes folder of a test's own project, the package's testdata.
	os.ReadFile(filepath.Join(t.TempDir(), "my-game", "scenes", "cubes.json"))
	launch(t, "scenes/enemy.json")
	os.ReadFile("testdata/solar.json")
}
`
	got := exampleSceneRefs(root, "/repo/editor/x_test.go", []byte(src), examples, func(p string) bool {
		return p == "/repo/scenes/cubes.json" || p == "/repo/examples/arena/scenes/arena.json"
	})
	for i, g := range got {
		t.Logf("%d: %s", i, g)
	}
	var lines []int
	for _, g := range got {
		var line int
		if _, err := fmt.Sscanf(g[strings.Index(g, ":")+1:], "%d", &line); err != nil {
			t.Fatalf("%q: no line number: %v", g, err)
		}
		lines = append(lines, line)
	}
	if fmt.Sprint(lines) != "[3 4 5 6 7 8]" {
		t.Errorf("reported lines %v, want [3 4 5 6 7 8]", lines)
	}
}

// exampleSceneDirs returns the folders named scenes in the repository outside testdata: the example scenes.
func exampleSceneDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		switch name := d.Name(); {
		case p != root && skippedDir(name):
			return filepath.SkipDir
		case name == "scenes":
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// walkSources calls fn for each file of the repository at root, outside hidden folders, testdata and bin.
func walkSources(root string, fn func(p string) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !d.IsDir():
			return fn(p)
		case p != root && skippedDir(d.Name()):
			return filepath.SkipDir
		}
		return nil
	})
}

// skippedDir reports whether a folder called name holds no source of the module's own: hidden, testdata, bin.
func skippedDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "testdata" || name == "bin"
}

// isTestSource reports whether p is test code: a _test.go file, or a file of the GUI test harness or its tests.
func isTestSource(root, p string) bool {
	if !strings.HasSuffix(p, ".go") {
		return false
	}
	rel, _ := filepath.Rel(root, p)
	rel = filepath.ToSlash(rel)
	return strings.HasSuffix(p, "_test.go") || strings.HasPrefix(rel, "cmd/voltex-editor/internal/guitest/") ||
		strings.HasPrefix(rel, "cmd/voltex-editor/e2e/")
}

// exampleSceneRefs lists, as "file:line:col: ...", the places of the Go source src (the file p) that name a path
// in one of the example folders: a literal that climbs out of its package ("../scenes/x.json", or
// filepath.Join("..", "scenes", ...)), an argument of a repo* helper that is relative to the repository root
// ("scenes/" + name), or a literal ending in an example folder's name and one of its files ("scenes/arena.json").
// exists tells whether a file of an example folder exists.
func exampleSceneRefs(root, p string, src []byte, examples []string, exists func(string) bool) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
	if err != nil {
		return []string{err.Error()}
	}
	dir := filepath.Dir(p)
	inExamples := func(path string) bool {
		for _, e := range examples {
			if path == e || strings.HasPrefix(path, e+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	var bad []string
	seen := map[token.Pos]bool{}
	report := func(pos token.Pos, what string) {
		if !seen[pos] {
			seen[pos] = true
			bad = append(bad, fmt.Sprintf("%s: %s names an example scene (use a copy in the package's testdata/)", fset.Position(pos), what))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn, ok := n.Fun.(*ast.Ident); ok && strings.HasPrefix(fn.Name, "repo") && len(n.Args) > 0 {
				if s, ok := leftmostString(n.Args[0]); ok && inExamples(filepath.Join(root, s)) {
					report(n.Args[0].Pos(), strconv.Quote(s))
				}
			}
			var parts []string
			for _, a := range n.Args {
				s, ok := stringLit(a)
				if !ok {
					break
				}
				parts = append(parts, s)
			}
			if len(parts) > 1 && strings.HasPrefix(parts[0], "..") && inExamples(filepath.Join(dir, filepath.Join(parts...))) {
				report(n.Args[0].Pos(), strconv.Quote(strings.Join(parts, "/")))
			}
		case *ast.BasicLit:
			s, ok := stringLit(n)
			if !ok {
				return true
			}
			if strings.HasPrefix(s, "..") && inExamples(filepath.Join(dir, s)) {
				report(n.Pos(), strconv.Quote(s))
			}
			for _, e := range examples {
				if !filepath.IsAbs(s) && strings.HasSuffix(filepath.Dir(filepath.Join("/", s)), "/"+filepath.Base(e)) &&
					exists(filepath.Join(e, filepath.Base(s))) {
					report(n.Pos(), strconv.Quote(s))
				}
			}
		}
		return true
	})
	return bad
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// stringLit returns the value of a string literal.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// leftmostString returns the string literal an expression starts with: "a" in "a" + b + "c".
func leftmostString(e ast.Expr) (string, bool) {
	for {
		b, ok := e.(*ast.BinaryExpr)
		if !ok || b.Op != token.ADD {
			return stringLit(e)
		}
		e = b.X
	}
}
