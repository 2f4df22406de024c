package archtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// pure lists the packages that must stay free of cgo, GL and giu. required ones must exist.
var pure = []struct {
	pkg      string
	required bool
}{
	{"ecs/...", true},
	{"serialize/...", true},
	{"assets/...", true},
	{"viewport", true},
	{"viewport/snap", true},
	{"inspector/fields", true},
	{"editor/doc", true},
	{"editor/workspace", true},
	{"editor/filedialog", true},
	{"editor/hierarchy", true},
	{"editor/settings", true},
	{"editor/probe", true},
	{"internal/atomicfile", true},
}

// forbidden are import-path fragments the pure core may not depend on, directly or indirectly (mathgl's mgl32 is
// pure Go and allowed).
var forbidden = []string{"github.com/go-gl/gl", "github.com/go-gl/glfw", "github.com/AllenDang/", "glfw", "runtime/cgo"}

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func TestPureCoreHasNoCgoGLOrGiu(t *testing.T) {
	root := repoRoot(t)
	for _, p := range pure {
		dir := filepath.Join(root, strings.TrimSuffix(p.pkg, "/..."))
		if _, err := os.Stat(dir); err != nil {
			if p.required {
				t.Errorf("%s: required pure package is missing", p.pkg)
			}
			continue
		}
		cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{len .CgoFiles}}", "./"+p.pkg)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("go list %s: %v\n%s", p.pkg, err, out)
			continue
		}
		checkDeps(t, p.pkg, string(out))
	}
}

// optionalCgo are standard-library packages whose cgo is optional: net asks the system's resolver
// through cgo when it can and resolves in Go otherwise (CGO_ENABLED=0), so a package that serves
// on a socket (serialize/live) builds and runs without cgo.
var optionalCgo = map[string]bool{"net": true, "runtime/cgo": true}

func checkDeps(t *testing.T, pkg, listing string) {
	t.Helper()
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(listing), "\n") {
		path, cgo, _ := strings.Cut(line, " ")
		n++
		if optionalCgo[path] {
			continue
		}
		if cgo != "0" {
			t.Errorf("%s depends on %s, which uses cgo", pkg, path)
		}
		for _, f := range forbidden {
			if strings.Contains(path, f) {
				t.Errorf("%s depends on %s (forbidden in the pure core)", pkg, path)
			}
		}
	}
	if n < 2 {
		t.Errorf("%s: go list printed too little to be believed: %q", pkg, listing)
	}
}

// TestCheckerCatchesGUIPackages proves the check can fail: the editor's own command links giu and cgo.
func TestCheckerCatchesGUIPackages(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{len .CgoFiles}}", "./cmd/voltex-editor")
	cmd.Dir = repoRoot(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	bad := 0
	for _, line := range strings.Split(string(out), "\n") {
		path, cgo, _ := strings.Cut(line, " ")
		if cgo != "0" && cgo != "" {
			bad++
		}
		for _, f := range forbidden {
			if strings.Contains(path, f) {
				bad++
			}
		}
	}
	if bad == 0 {
		t.Fatal("the purity check found nothing wrong with cmd/voltex-editor, which links giu: the check is broken")
	}
}

// The packages a game links without the editor build with cgo turned off, which is what makes
// optionalCgo's exceptions safe.
func TestGamePackagesBuildWithoutCgo(t *testing.T) {
	cmd := exec.Command("go", "build", "./ecs/...", "./serialize/...")
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
}
