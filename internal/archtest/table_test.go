package archtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/voltex-editor/voltex"

// externals are the non-module names a "may import" list of docs/architecture.md can use, with the import paths
// each allows (a path or a path prefix ending in "/").
var externals = map[string][]string{
	"mgl32":     {"github.com/go-gl/mathgl/mgl32"},
	"go-gl":     {"github.com/go-gl/gl/"},
	"giu":       {"github.com/AllenDang/giu"},
	"cimgui-go": {"github.com/AllenDang/cimgui-go/"},
	"fsnotify":  {"github.com/fsnotify/fsnotify"},
	"cgo":       {"C"},
}

// rule is one row of the table: what a package may import.
type rule struct {
	line    int
	module  bool // "its own module": a folder with its own go.mod, not checked
	stdlib  bool
	allowed []string // import paths (module packages in full) and prefixes ending in "/"
}

// readTable parses the "Rooms" table of docs/architecture.md: package → rule. Problems (a row it cannot read, an
// unknown name in a list) are returned as messages.
func readTable(doc, module string) (map[string]rule, []string) {
	rules := map[string]rule{}
	var problems []string
	inRooms := false
	for n, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "## ") {
			inRooms = strings.HasPrefix(line, "## Rooms")
			continue
		}
		if !inRooms || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 {
			problems = append(problems, fmt.Sprintf("docs/architecture.md:%d: a row needs 3 cells, not %d", n+1, len(cells)))
			continue
		}
		pkg := strings.Trim(cells[0], "`")
		r := rule{line: n + 1, module: strings.TrimSpace(cells[2]) == "its own module"}
		for _, tok := range strings.Split(cells[2], ",") {
			if r.module {
				break
			}
			tok = strings.TrimSpace(tok)
			switch {
			case tok == "stdlib":
				r.stdlib = true
			case strings.HasPrefix(tok, "`") && strings.HasSuffix(tok, "`") && len(tok) > 2:
				r.allowed = append(r.allowed, module+"/"+strings.Trim(tok, "`"))
			case externals[tok] != nil:
				r.allowed = append(r.allowed, externals[tok]...)
			default:
				problems = append(problems, fmt.Sprintf("docs/architecture.md:%d: %s may import %q: not a `package` of the module nor one of stdlib, %s",
					n+1, pkg, tok, strings.Join(sortedKeys(externals), ", ")))
			}
		}
		if _, dup := rules[pkg]; dup {
			problems = append(problems, fmt.Sprintf("docs/architecture.md:%d: a second row for %s", n+1, pkg))
		}
		rules[pkg] = r
	}
	return rules, problems
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// allows reports whether r lets a package import path.
func (r rule) allows(path string) bool {
	if r.stdlib && isStdlib(path) {
		return true
	}
	for _, a := range r.allowed {
		if path == a || strings.HasSuffix(a, "/") && strings.HasPrefix(path, a) {
			return true
		}
	}
	return false
}

// isStdlib reports whether path is a standard library package ("C", cgo, is not).
func isStdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return path != "C" && !strings.Contains(first, ".")
}

// listedPackage is what go list says about one package of the module.
type listedPackage struct {
	ImportPath, Dir, Name              string
	GoFiles, CgoFiles, IgnoredGoFiles  []string
	Imports, TestImports, XTestImports []string
	Error                              *struct{ Err string }
}

// listModule lists the module's packages (go list -json ./...).
func listModule(t *testing.T) []listedPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

// checkTable compares the packages (path relative to the module → imports) with the table's rules.
func checkTable(rules map[string]rule, pkgs map[string][]string) []string {
	var problems []string
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		r, ok := rules[p]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s has no row in docs/architecture.md's table: add one saying what lives there and what it may import", p))
			continue
		}
		for _, imp := range pkgs[p] {
			if imp != module+"/"+p && !r.allows(imp) {
				problems = append(problems, fmt.Sprintf("%s imports %s, which its row (docs/architecture.md:%d) does not allow", p, strings.TrimPrefix(imp, module+"/"), r.line))
			}
		}
	}
	for p, r := range rules {
		if _, ok := pkgs[p]; !ok && !r.module {
			problems = append(problems, fmt.Sprintf("docs/architecture.md:%d: %s is not a package of the module (remove or rename the row)", r.line, p))
		}
	}
	sort.Strings(problems)
	return problems
}

// modulePackages lists the module's packages with the imports the table speaks of: those of the non-test files,
// or of the tests for a package whose only non-test file is its doc.go (no imports).
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	for _, p := range listModule(t) {
		imps := p.Imports
		if len(imps) == 0 {
			imps = append(slices.Clone(p.TestImports), p.XTestImports...)
		}
		pkgs[strings.TrimPrefix(p.ImportPath, module+"/")] = imps
	}
	return pkgs
}

// TestArchitectureTable: every package has a row in docs/architecture.md's table, every row is a package, and each
// package imports only what its row allows (only glrender imports go-gl, the inspector never imports the editor,
// serialize/game none of the ECS, …).
func TestArchitectureTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	rules, problems := readTable(string(doc), module)
	problems = append(problems, checkTable(rules, modulePackages(t))...)
	for _, p := range problems {
		t.Error(p)
	}
}

// TestTableCheckerCatchesViolations proves the checker can fail: a missing row, a row for no package, an import
// the row does not allow, an unknown name in a list.
func TestTableCheckerCatchesViolations(t *testing.T) {
	doc := "## Rooms\n\n| package | what | may import |\n|---|---|---|\n" +
		"| `a` | pure | stdlib, mgl32 |\n" +
		"| `gone` | removed | stdlib |\n" +
		"| `b` | GL | go-gl, `a`, everything |\n" +
		"| `ex` | another module | its own module |\n" +
		"## Other\n| `c` | not in the table's section | stdlib |\n"
	rules, problems := readTable(doc, module)
	if len(problems) != 1 || !strings.Contains(problems[0], `"everything"`) {
		t.Fatalf("reading: %q", problems)
	}
	got := checkTable(rules, map[string][]string{
		"a": {"fmt", "github.com/go-gl/mathgl/mgl32", "github.com/go-gl/gl/v4.1-core/gl"},
		"b": {"github.com/go-gl/gl/v4.1-core/gl", module + "/a", module + "/c", "C"},
		"c": {"fmt"},
	})
	want := []string{
		"a imports github.com/go-gl/gl/v4.1-core/gl",
		"b imports C",
		"b imports c,",
		"c has no row",
		"gone is not a package",
	}
	if len(got) != len(want) {
		t.Fatalf("problems:\n%s", strings.Join(got, "\n"))
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, w) }) {
			t.Errorf("no problem %q among:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

// TestNoProcessWideSettingsInLibraries: only the programs' main (cmd, program.Main) changes the garbage collector's
// settings.
func TestNoProcessWideSettingsInLibraries(t *testing.T) {
	root := repoRoot(t)
	var found []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		// Commands decide process-wide settings: the cmd folders and package editor/program (program.Main is their main,
		// as a library so that a game's editor is a one-line main too). Other modules (examples) are their own.
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || rel == "cmd" || rel == filepath.Join("editor", "program") || rel == "examples") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, call := range []string{"SetGCPercent(", "SetMemoryLimit("} {
			if bytes.Contains(src, []byte(call)) {
				found = append(found, rel+": "+strings.TrimSuffix(call, "("))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("libraries change process-wide runtime settings (main decides those):\n%s", strings.Join(found, "\n"))
	}
}
