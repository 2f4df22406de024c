package doc

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	_ "github.com/voltex-editor/voltex/serialize/gltfprefab"
)

// crateModel is a .gltf of one node, Crate, drawn with one triangle in a material of colour rgba
// at position x.
func crateModel(x float32, rgba string) string {
	// one triangle: (0,0,0), (1,0,0), (0,1,0) as little-endian float32s
	const tri = "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"
	return fmt.Sprintf(`{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
 "nodes": [{"name": "Crate", "mesh": 0, "translation": [%g, 0, 0]}],
 "meshes": [{"name": "Box", "primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}],
 "materials": [{"name": "Wood", "pbrMetallicRoughness": {"baseColorFactor": %s}}],
 "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,%s"}],
 "bufferViews": [{"buffer": 0, "byteLength": 36}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}]}`, x, rgba, tri)
}

// TestPlaceModelThreeTimes: a glTF model placed three times is three instances of its nodes; one
// instance's material colour overridden stays when the model is exported again with the node moved
// and another colour, while the other two follow the file; undo takes everything back.
func TestPlaceModelThreeTimes(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "crate.gltf")
	must(t, os.WriteFile(model, []byte(crateModel(1, "[1, 0, 0, 1]")), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "level.json"), []byte(`{"format": "voltex.scene", "version": 2, "entities": []}`), 0o644))
	d, err := Open(context.Background(), filepath.Join(dir, "level.json"), testOpts, nil)
	must(t, err)
	before := content(t, d)
	var crates []ecs.Entity
	for i := range 3 {
		e, err := d.Prefabs().Instantiate(context.Background(), model, ecs.Entity{}, mgl32.Vec3{float32(i) * 5, 0, 0})
		must(t, err)
		kids := d.world.Children(e)
		if len(kids) != 1 || d.Name(kids[0]) != "Crate" {
			t.Fatalf("instance %d: children %v", i, kids)
		}
		crates = append(crates, kids[0])
	}
	mats := ecs.NewMap[scene.Material](d.world)
	if got := mats.Get(crates[0]).BaseColor; got != [4]float32{1, 0, 0, 1} {
		t.Fatalf("the model's colour %v", got)
	}
	must(t, d.SetField([]ecs.Entity{crates[1]}, cid[scene.Material](t, d), "baseColor", [4]float32{0, 1, 0, 1}))
	saved := content(t, d)
	if strings.Count(saved, `"prefab": "crate.gltf"`) != 3 || strings.Count(saved, `"baseColor"`) != 1 || strings.Contains(saved, "#mesh/") {
		t.Fatalf("saved scene is not three references and one override:\n%s", saved)
	}

	must(t, os.WriteFile(model, []byte(crateModel(2, "[0, 0, 1, 1]")), 0o644))
	if rep := d.Prefabs().Changed(context.Background(), model); rep.Instances != 3 {
		t.Fatalf("update %+v", rep)
	}
	tr := ecs.NewMap[ecs.Transform](d.world)
	for i, c := range crates {
		want := [4]float32{0, 0, 1, 1}
		if i == 1 {
			want = [4]float32{0, 1, 0, 1}
		}
		if got := mats.Get(c).BaseColor; got != want {
			t.Errorf("crate %d: colour %v, want %v", i, got, want)
		}
		if got := tr.Get(c).Position[0]; got != 2 {
			t.Errorf("crate %d: at x %v, want the file's new 2", i, got)
		}
	}
	undoAll(t, d)
	if content(t, d) != before {
		t.Errorf("undo all:\n%s", content(t, d))
	}
}
