package gltf_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/assets/gltf"
)

// TestRegistryLoadsMeshParts: "model.glb#mesh/NAME/P" is that primitive alone, in its mesh's own
// space; a mesh named by index resolves too; a part that names nothing, a file without parts and a
// part of a file outside the folder give the placeholder and a reason; reloading one part reloads
// the other references to the file.
func TestRegistryLoadsMeshParts(t *testing.T) {
	dir := t.TempDir()
	p := copySample(t, "OrientationTest/glTF-Binary/OrientationTest.glb", dir, "o.glb")
	model, err := gltf.Import(p, gltf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	r := assets.NewRegistry(dir, assets.DefaultLimits())
	part := gltf.MeshPart(model, 3, 0)
	m, err := r.Mesh("o.glb#" + part)
	if err != nil {
		t.Fatal(err)
	}
	prim := &model.Meshes[3].Primitives[0]
	if m.Placeholder || m.VertexCount() != len(prim.Positions) || len(m.Indices) != len(prim.Indices) {
		t.Fatalf("%s: %d vertices %d indices, want %d and %d", part, m.VertexCount(), len(m.Indices), len(prim.Positions), len(prim.Indices))
	}
	if got := m.Vertices[:3]; got[0] != prim.Positions[0][0] || got[1] != prim.Positions[0][1] || got[2] != prim.Positions[0][2] {
		t.Errorf("first vertex %v, want %v (the mesh's own space)", got, prim.Positions[0])
	}
	if byIndex, err := r.Mesh("o.glb#mesh/3/0"); err != nil || byIndex.VertexCount() != m.VertexCount() {
		t.Errorf("mesh 3 by its index: %v", err)
	}
	for ref, want := range map[string]string{
		"o.glb#mesh/NoSuchMesh/0":           "no mesh",
		"o.glb#" + part[:len(part)-1] + "7": "no primitive",
		"o.glb#image/0":                     "not a mesh part",
		"../o.glb#mesh/x/0":                 "climbs out",
	} {
		m, err := r.Mesh(ref)
		if err == nil || !m.Placeholder || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v (placeholder %v), want %q", ref, err, m.Placeholder, want)
		}
	}
	whole, _ := r.Mesh("o.glb")
	other, _ := r.Mesh("o.glb#" + gltf.MeshPart(model, 4, 0))
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(filepath.Join(dir, "o.glb"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Reload("o.glb#" + part); err != nil {
		t.Fatal(err)
	}
	if w2, _ := r.Mesh("o.glb"); w2.Version <= whole.Version {
		t.Error("the model as one mesh was not reloaded with its part")
	}
	if o2, _ := r.Mesh("o.glb#" + gltf.MeshPart(model, 4, 0)); o2.Version <= other.Version {
		t.Error("another part of the model was not reloaded")
	}
}

// TestPartsFollowTheFile: the model LoadPart keeps is read again when its file changes.
func TestPartsFollowTheFile(t *testing.T) {
	dir := t.TempDir()
	copySample(t, "OrientationTest/glTF-Binary/OrientationTest.glb", dir, "m.glb")
	r := assets.NewRegistry(dir, assets.DefaultLimits())
	first, err := r.Mesh("m.glb#mesh/0/0")
	if err != nil {
		t.Fatal(err)
	}
	copySample(t, "BoxVertexColors/glTF-Binary/BoxVertexColors.glb", dir, "m.glb")
	box, err := r.Reload("m.glb#mesh/0/0")
	if err != nil {
		t.Fatal(err)
	}
	if box.VertexCount() != 24 || box.VertexCount() == first.VertexCount() {
		t.Errorf("after the file changed: %d vertices (was %d), want the box's 24", box.VertexCount(), first.VertexCount())
	}
}
