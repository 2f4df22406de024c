package assets

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// NormalizeRef is internal/assetref's rule (tested there in full); refusals wrap ErrUnsafePath.
func TestNormalizeRef(t *testing.T) {
	if got, err := NormalizeRef(`./models\a.obj`); got != "models/a.obj" || err != nil {
		t.Errorf("got %q, %v", got, err)
	}
	for _, in := range []string{"../a.obj", "/etc/passwd", `C:\x.obj`, "http://h/a.obj"} {
		if _, err := NormalizeRef(in); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("NormalizeRef(%q) err = %v, want ErrUnsafePath", in, err)
		}
	}
}

// CheckRef: what validate and render say about each reference of a scene.
func TestCheckRef(t *testing.T) {
	scene, outside := sceneTree(t)
	symlink(t, filepath.Join(outside, "secret.obj"), filepath.Join(scene, "escape.obj"))
	for ref, want := range map[string]error{
		"a.obj": nil, "models/b.obj": nil, "builtin:cube": nil,
		"missing.obj": ErrMissing, "builtin:cylinder": ErrMissing,
		"escape.obj": ErrUnsafePath, "../outside/secret.obj": ErrUnsafePath, "/etc/passwd": ErrUnsafePath,
	} {
		err := CheckRef(scene, ref)
		if want == nil && err != nil || want != nil && !errors.Is(err, want) {
			t.Errorf("CheckRef(%q) = %v, want %v", ref, err, want)
		}
	}
	if err := CheckRef(scene, "models"); err == nil || errors.Is(err, ErrMissing) {
		t.Errorf("a folder: %v", err)
	}
}

// sceneTree builds root/scene/{a.obj, models/b.obj} and root/outside/secret.obj and returns
// the scene folder and the outside folder.
func sceneTree(t *testing.T) (scene, outside string) {
	t.Helper()
	root := t.TempDir()
	scene = filepath.Join(root, "scene")
	outside = filepath.Join(root, "outside")
	for _, d := range []string{filepath.Join(scene, "models"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(scene, "a.obj"), filepath.Join(scene, "models", "b.obj"), filepath.Join(outside, "secret.obj")} {
		writeFile(t, f, triangleOBJ)
	}
	return scene, outside
}

const triangleOBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func TestResolvePath(t *testing.T) {
	scene, outside := sceneTree(t)
	symlink(t, filepath.Join(outside, "secret.obj"), filepath.Join(scene, "escape.obj"))
	symlink(t, outside, filepath.Join(scene, "outdir"))
	symlink(t, "models/b.obj", filepath.Join(scene, "inside.obj"))
	symlink(t, "models", filepath.Join(scene, "mdir"))
	symlink(t, "nowhere.obj", filepath.Join(scene, "dangling.obj"))
	symlink(t, "../../outside", filepath.Join(scene, "models", "up"))

	good := map[string]string{
		"a.obj":              filepath.Join(scene, "a.obj"),
		"models/b.obj":       filepath.Join(scene, "models", "b.obj"),
		"inside.obj":         filepath.Join(scene, "inside.obj"),
		"mdir/b.obj":         filepath.Join(scene, "mdir", "b.obj"),
		"models/missing.obj": filepath.Join(scene, "models", "missing.obj"), // missing is not unsafe
		"new/dir/x.obj":      filepath.Join(scene, "new", "dir", "x.obj"),
	}
	for ref, want := range good {
		got, err := ResolvePath(scene, ref)
		if err != nil || got != want {
			t.Errorf("ResolvePath(%q) = %q, %v; want %q", ref, got, err, want)
		}
	}
	bad := []string{"escape.obj", "outdir/secret.obj", "models/up/secret.obj", "outdir/missing.obj",
		"../outside/secret.obj", filepath.Join(outside, "secret.obj")}
	for _, ref := range bad {
		got, err := ResolvePath(scene, ref)
		if !errors.Is(err, ErrUnsafePath) || got != "" {
			t.Errorf("ResolvePath(%q) = %q, %v; want ErrUnsafePath", ref, got, err)
		}
	}
	if _, err := ResolvePath(scene, "escape.obj"); err == nil || !strings.Contains(err.Error(), "through a symlink") {
		t.Errorf("symlink refusal does not say why: %v", err)
	}
	if _, err := ResolvePath(scene, "dangling.obj"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "target is missing") {
		t.Errorf("dangling symlink: %v", err)
	}
	if _, err := ResolvePath(scene, BuiltinCube); err == nil {
		t.Error("ResolvePath accepted a built-in reference")
	}
	if _, err := ResolvePath("", "a.obj"); err == nil || !strings.Contains(err.Error(), "no folder") {
		t.Errorf("empty root: %v", err)
	}
	if _, err := ResolvePath(filepath.Join(scene, "nope"), "a.obj"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing root: %v", err)
	}
}

// TestResolvePathSymlinkedRoot: a scene folder reached through a symlink is fine, and links
// inside it are judged against the real folder.
func TestResolvePathSymlinkedRoot(t *testing.T) {
	scene, _ := sceneTree(t)
	alias := filepath.Join(t.TempDir(), "alias")
	symlink(t, scene, alias)
	if got, err := ResolvePath(alias, "models/b.obj"); err != nil || got != filepath.Join(alias, "models", "b.obj") {
		t.Errorf("through symlinked root: %q, %v", got, err)
	}
}
