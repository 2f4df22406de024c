package program

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sceneWithMesh writes a scene whose one entity draws asset, in a new folder, and returns its path.
func sceneWithMesh(t *testing.T, asset string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.json")
	src := fmt.Sprintf(`{"format": "voltex.scene", "version": 2, "entities": [
  {"id": 1, "components": {"Mesh": {"asset": %q}, "Transform": {}}}
]}`, asset)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A mesh path that is absolute or escapes the scene's folder is an error with
// file:line:col in validate, export and render (and fmt: every subcommand loads through the same
// check), and never reaches an export.
func TestUnsafeMeshPathsInEverySubcommand(t *testing.T) {
	for _, ref := range []string{"/etc/passwd", "../../secret.obj", `C:\x.obj`, "http://h/x.obj", "builtin:../x", ""} {
		path := sceneWithMesh(t, ref)
		out := filepath.Join(filepath.Dir(path), "out")
		for _, args := range [][]string{
			{"validate", path}, {"export", path, "-o", out + ".json"}, {"render", path, "-o", out + ".png", "--size", "64x64"}, {"fmt", path},
		} {
			code, stdout, stderr := runCLI(args...)
			if code != 1 || !strings.HasPrefix(stderr, path+":2:46: entities[0].components.Mesh.asset: ") {
				t.Errorf("%s %q: code %d\n%s%s", args[0], ref, code, stdout, stderr)
			}
		}
		for _, f := range []string{out + ".json", out + ".png"} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("%q: %s was written", ref, f)
			}
		}
	}
	// A symlink out of the folder too (that needs the disk).
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "secret.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := sceneWithMesh(t, "link.obj")
	if err := os.Symlink(filepath.Join(dir, "secret.obj"), filepath.Join(filepath.Dir(path), "link.obj")); err != nil {
		t.Skip(err)
	}
	if code, _, stderr := runCLI("validate", path); code != 1 || !strings.Contains(stderr, "s.json:2:46: entities[0].components.Mesh.asset: path \"link.obj\" refused: it resolves through a symlink") {
		t.Errorf("symlink out: code %d %s", code, stderr)
	}
}

// A missing mesh file is a warning in validate (with its position), an error with --strict;
// render says what it draws instead.
func TestMissingMeshIsAWarning(t *testing.T) {
	path := sceneWithMesh(t, "models/gone.obj")
	code, stdout, stderr := runCLI("validate", path)
	want := path + ":2:46: warning: entities[0].components.Mesh.asset: asset not found: "
	if code != 0 || !strings.HasPrefix(stderr, want) || !strings.Contains(stdout, "ok:") {
		t.Errorf("validate: code %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = runCLI("validate", "--strict", path)
	if code != 1 || !strings.HasPrefix(stderr, path+":2:46: entities[0].components.Mesh.asset: asset not found: ") {
		t.Errorf("validate --strict: code %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI("render", path, "-o", filepath.Join(t.TempDir(), "x.png"), "--size", "64x64")
	if code != 0 || !strings.HasPrefix(stderr, want) {
		t.Errorf("render: code %d\n%s", code, stderr)
	}
	path = sceneWithMesh(t, "builtin:cylinder")
	if code, _, stderr = runCLI("validate", path); code != 0 || !strings.Contains(stderr, `warning: entities[0].components.Mesh.asset: asset not found: unknown built-in mesh "builtin:cylinder"`) {
		t.Errorf("unknown built-in: code %d\n%s", code, stderr)
	}
}
