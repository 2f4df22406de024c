package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxFields is the number of fields the viewport's drawing types stay below: the renderer and the editor's
// viewport panel group their state into owned parts (programs, targets, the picture cache; the gizmo, the pointer,
// the picture) instead of growing one flat struct.
const maxFields = 20

// bigTypes are the types held under maxFields, by package folder.
var bigTypes = []struct{ dir, name string }{
	{"viewport/glrender", "Renderer"},
	{"editor", "viewportPanel"},
	{"editor", "gridDialog"},
	{"editor/doc", "Document"},
}

// fieldCount returns the number of fields of struct type name declared in the non-test Go sources (file name →
// source), each name of a field list counting once and an embedded field once, and whether the type was found.
func fieldCount(sources map[string]string, name string) (int, bool, error) {
	fset := token.NewFileSet()
	for file, src := range sources {
		f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
		if err != nil {
			return 0, false, err
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok || ts.Name.Name != name {
					continue
				}
				n := 0
				for _, fl := range st.Fields.List {
					n += max(len(fl.Names), 1)
				}
				return n, true, nil
			}
		}
	}
	return 0, false, nil
}

// packageSources reads the non-test Go files of dir.
func packageSources(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	src := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src[f] = string(b)
	}
	return src
}

func TestViewportTypesStaySmall(t *testing.T) {
	root := repoRoot(t)
	for _, bt := range bigTypes {
		n, ok, err := fieldCount(packageSources(t, filepath.Join(root, bt.dir)), bt.name)
		switch {
		case err != nil:
			t.Errorf("%s: %v", bt.dir, err)
		case !ok:
			t.Errorf("%s: no struct type %s", bt.dir, bt.name)
		case n >= maxFields:
			t.Errorf("%s.%s has %d fields, want fewer than %d: group its state into an owned part with its methods", bt.dir, bt.name, n, maxFields)
		}
	}
}

func TestFieldCountCatchesBigTypes(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\ntype small struct{ a, b int; c string; embedded }\n\ntype big struct {\n")
	for i := range maxFields {
		fmt.Fprintf(&b, "\tf%d int\n", i)
	}
	b.WriteString("}\n")
	src := map[string]string{"p.go": b.String()}
	if n, ok, err := fieldCount(src, "small"); n != 4 || !ok || err != nil {
		t.Errorf("small: %d fields, found %v, %v; want 4", n, ok, err)
	}
	if n, ok, err := fieldCount(src, "big"); n != maxFields || !ok || err != nil {
		t.Errorf("big: %d fields, found %v, %v; want %d", n, ok, err, maxFields)
	}
	if _, ok, _ := fieldCount(src, "absent"); ok {
		t.Error("found a type that is not there")
	}
}
