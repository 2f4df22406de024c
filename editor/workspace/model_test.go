package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport/snap"
)

// crateGLTF is a glTF model of one node, Crate, drawn with one triangle at x in a material of colour rgba.
func crateGLTF(x, rgba string) string {
	return `{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
 "nodes": [{"name": "Crate", "mesh": 0, "translation": [` + x + `, 0, 0]}],
 "meshes": [{"name": "Box", "primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}],
 "materials": [{"pbrMetallicRoughness": {"baseColorFactor": ` + rgba + `}}],
 "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
 "bufferViews": [{"buffer": 0, "byteLength": 36}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}]}`
}

// TestPlaceModelsAndOBJMaterials: a glTF model dragged from the Assets panel is placed as an instance of it (its
// node an entity with its mesh part and material), Instantiate Prefab offers models too, an OBJ dragged in gets the
// Material its .mtl gives it, and a model file changed on disk reloads its meshes as well as its instances.
func TestPlaceModelsAndOBJMaterials(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"crate.gltf": crateGLTF("1", "[1, 0, 0, 1]"),
		"box.obj":    "mtllib box.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Paint\nf 1 2 3\n",
		"box.mtl":    "newmtl Paint\nKd 0 0.5 1\nmap_Kd paint.png\n",
		"paint.png":  "png",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, f := newTestWorkspace(t, 0)
	w.CmdSaveAs()
	f.choose(t, filepath.Join(dir, "level.json"))
	w.openPath(filepath.Join(dir, "level.json"))
	waitJob(t, w)

	w.Prefabs().PlaceMesh("crate.gltf", snap.SurfaceHit{Point: mgl32.Vec3{3, 0, 0}, Normal: mgl32.Vec3{0, 1, 0}})
	if !strings.HasPrefix(lastLog(w), "info: placed crate") {
		t.Fatalf("dragging a model: %q", lastLog(w))
	}
	d := w.Doc()
	var crate ecs.Entity
	for _, e := range scene.EnsureIDs(d.World()) {
		if d.Name(e) == "Crate" {
			crate = e
		}
	}
	if crate.IsZero() {
		t.Fatal("no Crate entity under the instance")
	}
	mesh, _ := ecs.NewMap[scene.Mesh](d.World()).TryGet(crate)
	mat, _ := ecs.NewMap[scene.Material](d.World()).TryGet(crate)
	if mesh.Asset != "crate.gltf#mesh/Box/0" || mat.BaseColor != [4]float32{1, 0, 0, 1} {
		t.Errorf("Crate: mesh %q, material %+v", mesh.Asset, mat)
	}

	w.Prefabs().CmdInstantiate()
	if f.file == nil || !slices.Contains(f.file.Exts, ".glb") || !slices.Contains(f.file.Exts, ".gltf") {
		t.Fatalf("Instantiate Prefab does not offer models: %+v", f.file)
	}
	f.choose(t, filepath.Join(dir, "crate.gltf"))
	if !strings.HasPrefix(lastLog(w), "info: placed crate") {
		t.Fatalf("Instantiate Prefab of a model: %q", lastLog(w))
	}

	w.Prefabs().PlaceMesh("box.obj", snap.SurfaceHit{Normal: mgl32.Vec3{0, 1, 0}})
	var box ecs.Entity
	for _, e := range scene.EnsureIDs(d.World()) {
		if d.Name(e) == "Box" {
			box = e
		}
	}
	bm, ok := ecs.NewMap[scene.Material](d.World()).TryGet(box)
	if !ok || bm.BaseColor != [4]float32{0, 0.5, 1, 1} || bm.BaseColorTexture.Image != "paint.png" || bm.Metallic != 0 {
		t.Errorf("the OBJ's material: %+v (has %v)", bm, ok)
	}

	if _, err := w.assets.Mesh("crate.gltf#mesh/Box/0"); err != nil {
		t.Fatal(err)
	}
	before := len(f.calls)
	if err := os.WriteFile(filepath.Join(dir, "crate.gltf"), []byte(crateGLTF("4", "[0, 0, 1, 1]")), 0o644); err != nil {
		t.Fatal(err)
	}
	w.prefabs.onFileEvent(filepath.Join(dir, "crate.gltf"))
	if !slices.Contains(f.calls[before:], "reloadMeshes") {
		t.Error("the model's meshes were not reloaded with its instances")
	}
	if got := ecs.NewMap[scene.Material](d.World()).Get(crate).BaseColor; got != [4]float32{0, 0, 1, 1} {
		t.Errorf("the instance did not follow the file: %v", got)
	}
}
