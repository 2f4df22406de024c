package assets

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestRegistryBuiltins(t *testing.T) {
	r := NewRegistry("", Limits{})
	m, err := r.Mesh(BuiltinCube)
	if err != nil || m.Ref != BuiltinCube || m.VertexCount() != 24 {
		t.Fatalf("cube: %v, %v", m, err)
	}
	if m2, _ := r.Mesh(BuiltinCube); m2 != m {
		t.Error("second lookup returned another mesh")
	}
	m, err = r.Mesh("builtin:teapot")
	if !errors.Is(err, ErrUnknownBuiltin) || !m.Placeholder || m.Ref != "builtin:teapot" {
		t.Errorf("unknown builtin: placeholder %v ref %q err %v", m.Placeholder, m.Ref, err)
	}
	if want := `assets: mesh "builtin:teapot": unknown built-in mesh "builtin:teapot" (known: builtin:cube, builtin:plane, builtin:sphere)`; err.Error() != want {
		t.Errorf("error text\n got %s\nwant %s", err, want)
	}
	// Without a scene folder, file references get a placeholder and a reason.
	m, err = r.Mesh("a.obj")
	if err == nil || !m.Placeholder || !strings.Contains(err.Error(), "save it first") {
		t.Errorf("file ref without folder: %v %v", m.Placeholder, err)
	}
}

func TestRegistryLoadsAndCaches(t *testing.T) {
	scene, _ := sceneTree(t)
	r := NewRegistry(scene, Limits{})
	m, err := r.Mesh("./models/b.obj")
	if err != nil || m.Placeholder || m.TriangleCount() != 1 || m.Ref != "models/b.obj" || m.Version <= 1 {
		t.Fatalf("load: %+v, %v", m, err)
	}
	// Other spellings of the same reference share the entry; the file is not read again.
	if err := os.Remove(filepath.Join(scene, "models", "b.obj")); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"models/b.obj", `models\b.obj`, "models/../models/b.obj"} {
		if m2, err := r.Mesh(ref); m2 != m || err != nil {
			t.Errorf("Mesh(%q) = %p, %v; want the cached %p", ref, m2, err, m)
		}
	}
}

func TestRegistryRefusalsGivePlaceholderAndReason(t *testing.T) {
	scene, outside := sceneTree(t)
	symlink(t, filepath.Join(outside, "secret.obj"), filepath.Join(scene, "escape.obj"))
	writeFile(t, filepath.Join(scene, "broken.obj"), "v 0 0 0\nf 1 2 3\n")
	r := NewRegistry(scene, Limits{})
	tests := []struct {
		ref    string
		is     error
		substr string
	}{
		{"../outside/secret.obj", ErrUnsafePath, `climbs out of the scene folder`},
		{"/etc/passwd", ErrUnsafePath, "absolute path"},
		{"escape.obj", ErrUnsafePath, "through a symlink"},
		{"missing.obj", fs.ErrNotExist, "no such file"},
		{"broken.obj", nil, "broken.obj:2:5: vertex index 2 out of range (1 defined so far)"},
		{"", nil, "empty asset reference"},
		{"models/ship.fbx", nil, `unsupported mesh file type ".fbx": only .obj files can be loaded`},
	}
	versions := map[uint64]bool{}
	for _, tc := range tests {
		m, err := r.Mesh(tc.ref)
		if err == nil || !m.Placeholder {
			t.Errorf("%q: placeholder %v err %v", tc.ref, m.Placeholder, err)
			continue
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%q: err %v does not wrap %v", tc.ref, err, tc.is)
		}
		if !strings.Contains(err.Error(), tc.substr) || !strings.HasPrefix(err.Error(), `assets: mesh "`) {
			t.Errorf("%q: err %q, want it to name the mesh and contain %q", tc.ref, err, tc.substr)
		}
		if r.Err(tc.ref) == nil {
			t.Errorf("%q: Err() is nil", tc.ref)
		}
		if versions[m.Version] {
			t.Errorf("%q: placeholder version %d reused", tc.ref, m.Version)
		}
		versions[m.Version] = true
	}
	// Refused-as-unsafe references are neither watched nor listed.
	files := r.Files()
	want := []string{filepath.Join(scene, "broken.obj"), filepath.Join(scene, "missing.obj"), filepath.Join(scene, "models", "ship.fbx")}
	if !slices.Equal(files, want) {
		t.Errorf("Files() = %v, want %v", files, want)
	}
	list := r.List()
	if !slices.Equal(list, append(BuiltinRefs(), "broken.obj", "escape.obj", "missing.obj", "models/ship.fbx")) {
		t.Errorf("List() = %v", list)
	}
}

func TestRegistryReload(t *testing.T) {
	scene, _ := sceneTree(t)
	path := filepath.Join(scene, "a.obj")
	r := NewRegistry(scene, Limits{})
	m1, err := r.Mesh("a.obj")
	if err != nil {
		t.Fatal(err)
	}
	// A good change: new mesh, larger version.
	writeFile(t, path, "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n")
	m2, err := r.Reload("a.obj")
	if err != nil || m2.TriangleCount() != 2 || m2.Version <= m1.Version {
		t.Fatalf("reload: tris %d version %d (was %d), %v", m2.TriangleCount(), m2.Version, m1.Version, err)
	}
	if got, _ := r.Mesh("a.obj"); got != m2 {
		t.Error("Mesh does not return the reloaded mesh")
	}
	// A broken change: the previous mesh stays, the error is returned once, Mesh stays clean.
	writeFile(t, path, triangleOBJ+"f 1 2 x\n")
	m3, err := r.Reload("./a.obj")
	if err == nil || m3 != m2 || !strings.Contains(err.Error(), `a.obj:5:7: bad face vertex "x"`) {
		t.Fatalf("broken reload: mesh %p (want %p), err %v", m3, m2, err)
	}
	if got, err := r.Mesh("a.obj"); got != m2 || err != nil {
		t.Errorf("after broken reload Mesh = %p, %v; want the last good mesh and no error", got, err)
	}
	// Deleted: still the last good mesh.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if m4, err := r.Reload("a.obj"); !errors.Is(err, fs.ErrNotExist) || m4 != m2 {
		t.Errorf("reload of deleted file: %p %v", m4, err)
	}
	// Fixed again.
	writeFile(t, path, triangleOBJ)
	m5, err := r.Reload("a.obj")
	if err != nil || m5.Version <= m2.Version || m5.TriangleCount() != 1 {
		t.Errorf("reload after fix: %d %v", m5.Version, err)
	}
}

func TestRegistryReloadFromPlaceholder(t *testing.T) {
	scene, _ := sceneTree(t)
	r := NewRegistry(scene, Limits{})
	p1, err := r.Mesh("later.obj")
	if !errors.Is(err, fs.ErrNotExist) || !p1.Placeholder {
		t.Fatalf("missing: %v", err)
	}
	writeFile(t, filepath.Join(scene, "later.obj"), "v 0 0 0\nf 1 1 x\n")
	p2, err := r.Reload("later.obj")
	if err == nil || p2 != p1 || r.Err("later.obj") != err {
		t.Fatalf("broken file: mesh %p (want %p), Err %v, reload err %v", p2, p1, r.Err("later.obj"), err)
	}
	writeFile(t, filepath.Join(scene, "later.obj"), triangleOBJ)
	m, err := r.Reload("later.obj")
	if err != nil || m.Placeholder || m.Version <= p1.Version || r.Err("later.obj") != nil {
		t.Fatalf("fixed file: placeholder %v version %d err %v", m.Placeholder, m.Version, err)
	}
	// Reload of a reference never seen loads it; of a built-in does nothing.
	if m, err := r.Reload("a.obj"); err != nil || m.Placeholder {
		t.Errorf("reload of unseen ref: %v", err)
	}
	if m, err := r.Reload(BuiltinCube); err != nil || m.Ref != BuiltinCube {
		t.Errorf("reload of builtin: %v", err)
	}
}

func TestRegistryPathsAndRoot(t *testing.T) {
	scene, _ := sceneTree(t)
	r := NewRegistry(scene, Limits{})
	if _, err := r.Mesh("models/b.obj"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Mesh(BuiltinSphere); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(scene, "models", "b.obj")
	if got := r.Files(); !slices.Equal(got, []string{path}) {
		t.Errorf("Files() = %v", got)
	}
	if ref, ok := r.RefForPath(path + "/"); !ok || ref != "models/b.obj" {
		t.Errorf("RefForPath = %q %v", ref, ok)
	}
	if _, ok := r.RefForPath(filepath.Join(scene, "a.obj")); ok {
		t.Error("RefForPath found a file not in use")
	}
	old, _ := r.Mesh("models/b.obj")
	// A new folder forgets file meshes but never reuses versions.
	other, _ := sceneTree(t)
	r.SetRoot(other)
	if r.Root() != other || len(r.Files()) != 0 {
		t.Fatalf("after SetRoot: root %q files %v", r.Root(), r.Files())
	}
	m, err := r.Mesh("models/b.obj")
	if err != nil || m == old || m.Version <= old.Version {
		t.Errorf("after SetRoot: %p (old %p) version %d (old %d) %v", m, old, m.Version, old.Version, err)
	}
}

func TestRegistryScan(t *testing.T) {
	scene, _ := sceneTree(t)
	if err := os.MkdirAll(filepath.Join(scene, ".git", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(scene, ".git", "x", "hidden.obj"), triangleOBJ)
	writeFile(t, filepath.Join(scene, "models", "UPPER.OBJ"), triangleOBJ)
	writeFile(t, filepath.Join(scene, "notes.txt"), "")
	r := NewRegistry(scene, Limits{})
	if err := r.Scan(); err != nil {
		t.Fatal(err)
	}
	want := append(BuiltinRefs(), "a.obj", "models/UPPER.OBJ", "models/b.obj")
	if got := r.List(); !slices.Equal(got, want) {
		t.Errorf("List() = %v, want %v", got, want)
	}
	if len(r.Files()) != 0 {
		t.Error("Scan loaded files")
	}
	if err := NewRegistry(filepath.Join(scene, "nope"), Limits{}).Scan(); err == nil {
		t.Error("Scan of a missing folder succeeded")
	}
}

func TestRegistryLimits(t *testing.T) {
	scene, _ := sceneTree(t)
	r := NewRegistry(scene, Limits{MaxTriangles: 1})
	writeFile(t, filepath.Join(scene, "quad.obj"), "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n")
	if _, err := r.Mesh("quad.obj"); !errors.Is(err, ErrLimit) {
		t.Errorf("err = %v, want ErrLimit", err)
	}
}

// TestRegistryConcurrent is meaningful under -race: lookups, reloads and listings at once.
func TestRegistryConcurrent(t *testing.T) {
	scene, _ := sceneTree(t)
	r := NewRegistry(scene, Limits{})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				switch (g + i) % 4 {
				case 0:
					if _, err := r.Mesh("a.obj"); err != nil {
						t.Fatal(err)
					}
				case 1:
					if _, err := r.Reload("models/b.obj"); err != nil {
						t.Fatal(err)
					}
				case 2:
					r.List()
					r.Files()
				case 3:
					if _, err := r.Mesh(BuiltinCube); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
	wg.Wait()
	if m, err := r.Mesh("models/b.obj"); err != nil || m.TriangleCount() != 1 {
		t.Errorf("after concurrent use: %v", err)
	}
}
