package gltfprefab_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	_ "github.com/voltex-editor/voltex/serialize/gltfprefab"
)

// triangleBuffer is one triangle's positions as a data: URI.
func triangleBuffer() string {
	var b bytes.Buffer
	for _, f := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		_ = binary.Write(&b, binary.LittleEndian, f)
	}
	return "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

// ship is a model: Body (mesh Hull, material Paint) holding a spot light and a camera, and Twin,
// whose mesh has two primitives. bodyPos, paint and roughness vary between exports; reversed lists
// the root nodes and the meshes in the other order.
func ship(bodyPos [3]float32, paint [4]float32, roughness float32, reversed bool) string {
	prim := map[string]any{"attributes": map[string]any{"POSITION": 0}}
	hull := map[string]any{"name": "Hull", "primitives": []any{withMaterial(prim, 0)}}
	twin := map[string]any{"name": "TwinMesh", "primitives": []any{withMaterial(prim, 1), prim}}
	body := map[string]any{"name": "Body", "mesh": 0, "translation": bodyPos, "children": []int{2, 3}}
	twinNode := map[string]any{"name": "Twin", "mesh": 1, "rotation": []float32{0, float32(math.Sin(math.Pi / 4)), 0, float32(math.Cos(math.Pi / 4))}}
	lamp := map[string]any{"name": "Lamp", "extensions": map[string]any{"KHR_lights_punctual": map[string]any{"light": 0}}}
	cam := map[string]any{"name": "Eye", "camera": 0}
	nodes := []any{body, twinNode, lamp, cam}
	meshes := []any{hull, twin}
	roots := []int{0, 1}
	if reversed {
		body["children"] = []int{3, 2}
		body["mesh"], twinNode["mesh"] = 1, 0
		meshes = []any{twin, hull}
		nodes = []any{twinNode, body, cam, lamp}
		roots = []int{1, 0}
		body["children"] = []int{2, 3}
	}
	doc := map[string]any{
		"asset":          map[string]any{"version": "2.0"},
		"extensionsUsed": []string{"KHR_lights_punctual"},
		"extensions": map[string]any{"KHR_lights_punctual": map[string]any{"lights": []any{
			map[string]any{"type": "spot", "color": []float32{1, 0.5, 0}, "intensity": 20, "range": 9,
				"spot": map[string]any{"innerConeAngle": math.Pi / 12, "outerConeAngle": math.Pi / 6}}}}},
		"scene":       0,
		"scenes":      []any{map[string]any{"nodes": roots}},
		"nodes":       nodes,
		"meshes":      meshes,
		"cameras":     []any{map[string]any{"type": "perspective", "perspective": map[string]any{"yfov": math.Pi / 3, "znear": 0.5, "zfar": 80, "aspectRatio": 1.5}}},
		"materials":   []any{map[string]any{"name": "Paint", "pbrMetallicRoughness": map[string]any{"baseColorFactor": paint, "roughnessFactor": roughness, "metallicFactor": 0}}, map[string]any{"name": "Glass", "alphaMode": "BLEND", "doubleSided": true}},
		"buffers":     []any{map[string]any{"byteLength": 36, "uri": triangleBuffer()}},
		"bufferViews": []any{map[string]any{"buffer": 0, "byteLength": 36}},
		"accessors":   []any{map[string]any{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": []float32{0, 0, 0}, "max": []float32{1, 1, 0}}},
	}
	if reversed { // the meshes swapped places: the primitives' materials too
		doc["materials"] = []any{doc["materials"].([]any)[1], doc["materials"].([]any)[0]}
		hull["primitives"] = []any{withMaterial(prim, 1)}
		twin["primitives"] = []any{withMaterial(prim, 0), prim}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return string(out)
}

func withMaterial(prim map[string]any, m int) map[string]any {
	out := map[string]any{"material": m}
	for k, v := range prim {
		out[k] = v
	}
	return out
}

const shipScene = `{"format": "voltex.scene", "version": 2, "entities": [
  {"id": 10, "name": "Ship", "prefab": "models/ship.gltf", "components": {"Transform": {"position": [5, 0, 0]}}}
]}`

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// byName returns the entities of w by name (names are unique in these models).
func byName(t *testing.T, w *ecs.World) map[string]ecs.Entity {
	t.Helper()
	out := map[string]ecs.Entity{}
	names := ecs.NewMap[scene.Name](w)
	for _, e := range scene.EnsureIDs(w) {
		out[names.Get(e).Value] = e
	}
	return out
}

func near(a, b mgl32.Vec3) bool { return a.Sub(b).Len() < 1e-4 }

// TestModelAsPrefab: a glTF model placed as a prefab becomes entities with its transforms,
// meshes, materials, light and camera; an instance's override of a material colour is all the
// scene file stores, and survives the model being exported again with a node moved, a material
// changed and its nodes and meshes in another order, while the rest follows the file; Unpack makes
// plain entities.
func TestModelAsPrefab(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "models", "ship.gltf")
	write(t, model, ship([3]float32{1, 2, 3}, [4]float32{1, 0, 0, 1}, 0.5, false))
	write(t, filepath.Join(dir, "level.json"), shipScene)
	s, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := s.World
	ents := byName(t, w)
	for _, n := range []string{"Ship", "Body", "Lamp", "Eye", "Twin", "primitive 0", "primitive 1"} {
		if _, ok := ents[n]; !ok {
			t.Fatalf("no entity %q (have %v)", n, ents)
		}
	}
	checkShip(t, w, ents)
	body := ents["Body"]
	tr := ecs.NewMap[ecs.Transform](w)
	meshes, mats := ecs.NewMap[scene.Mesh](w), ecs.NewMap[scene.Material](w)
	bodyID := ecs.NewMap[scene.SceneID](w).Get(body).ID

	// Override one material colour: the file stores the reference and that field.
	mats.Mut(body).BaseColor = [4]float32{0, 1, 0, 1}
	var saved bytes.Buffer
	if err := serialize.Save(context.Background(), &saved, s, serialize.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	text := saved.String()
	if !strings.Contains(text, `"prefab": "models/ship.gltf"`) || !strings.Contains(text, `"baseColor": [0, 1, 0, 1]`) ||
		strings.Contains(text, "#mesh/") || strings.Contains(text, `"Light"`) || strings.Contains(text, "roughness") {
		t.Errorf("the scene file is not the reference and the override:\n%s", text)
	}

	// Export again: Body moved, its paint and roughness changed, nodes and meshes reordered.
	write(t, model, ship([3]float32{4, 5, 6}, [4]float32{0, 0, 1, 1}, 0.25, true))
	rep := serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), model))
	if rep.Instances != 1 {
		t.Fatalf("update report %+v", rep)
	}
	ents = byName(t, w)
	body = ents["Body"]
	if id := ecs.NewMap[scene.SceneID](w).Get(body).ID; id != bodyID {
		t.Errorf("Body's id changed with the node order: %d, then %d", bodyID, id)
	}
	if p := tr.Get(body).Position; !near(p, mgl32.Vec3{4, 5, 6}) {
		t.Errorf("Body did not follow the file: at %v", p)
	}
	if m := mats.Get(body); m.BaseColor != [4]float32{0, 1, 0, 1} || m.Roughness != 0.25 {
		t.Errorf("Body material %+v: want the override's green and the file's new roughness", m)
	}
	if m := meshes.Get(body).Asset; m != "models/ship.gltf#mesh/Hull/0" {
		t.Errorf("Body mesh %q after the re-export", m)
	}

	// The saved scene, loaded against the new model, is the same.
	s2, err := serialize.Load(context.Background(), strings.NewReader(text), serialize.LoadOptions{File: filepath.Join(dir, "level.json")})
	if err != nil {
		t.Fatal(err)
	}
	b2 := byName(t, s2.World)["Body"]
	if m := ecs.NewMap[scene.Material](s2.World).Get(b2); m.BaseColor != [4]float32{0, 1, 0, 1} || m.Roughness != 0.25 {
		t.Errorf("reloaded Body material %+v", m)
	}

	if _, _, err := serialize.ApplyToPrefab(context.Background(), s, body, "Material", ""); err == nil || !strings.Contains(err.Error(), "ship.gltf is a model") {
		t.Errorf("applying an override to a model: %v", err)
	}

	if err := serialize.Unpack(s, ents["Ship"]); err != nil {
		t.Fatal(err)
	}
	if ecs.NewMap[scene.PrefabPart](w).Has(body) || ecs.NewMap[scene.Prefab](w).Has(ents["Ship"]) {
		t.Error("Unpack left prefab marks")
	}
	saved.Reset()
	if err := serialize.Save(context.Background(), &saved, s, serialize.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(saved.String(), `"asset": "models/ship.gltf#mesh/Hull/0"`) || strings.Contains(saved.String(), `"prefab"`) {
		t.Errorf("unpacked scene:\n%s", saved.String())
	}
}

// checkShip checks the entities an instance of ship (first version) makes.
func checkShip(t *testing.T, w *ecs.World, ents map[string]ecs.Entity) {
	t.Helper()
	body := ents["Body"]
	if w.Parent(body) != ents["Ship"] || w.Parent(ents["Lamp"]) != body || w.Parent(ents["primitive 1"]) != ents["Twin"] {
		t.Error("the hierarchy is not the model's under the instance")
	}
	tr := ecs.NewMap[ecs.Transform](w)
	if p := tr.Get(body).Position; !near(p, mgl32.Vec3{1, 2, 3}) {
		t.Errorf("Body at %v", p)
	}
	if r := tr.Get(ents["Twin"]).Rotation; !near(r, mgl32.Vec3{0, 90, 0}) {
		t.Errorf("Twin rotated %v, want 90° about Y", r)
	}
	meshes, mats := ecs.NewMap[scene.Mesh](w), ecs.NewMap[scene.Material](w)
	if m := meshes.Get(body).Asset; m != "models/ship.gltf#mesh/Hull/0" {
		t.Errorf("Body mesh %q", m)
	}
	if m := meshes.Get(ents["primitive 1"]).Asset; m != "models/ship.gltf#mesh/TwinMesh/1" {
		t.Errorf("Twin's second primitive %q", m)
	}
	if m := mats.Get(body); m.BaseColor != [4]float32{1, 0, 0, 1} || m.Roughness != 0.5 || m.Metallic != 0 {
		t.Errorf("Body material %+v", m)
	}
	if m := mats.Get(ents["primitive 0"]); m.AlphaMode != scene.AlphaBlend || !m.DoubleSided {
		t.Errorf("Glass material %+v", m)
	}
	l := ecs.NewMap[scene.Light](w).Get(ents["Lamp"])
	if l.Kind != scene.LightSpot || l.Intensity != 20 || l.Range != 9 || math.Abs(float64(l.InnerCone-15)) > 1e-3 || math.Abs(float64(l.OuterCone-30)) > 1e-3 {
		t.Errorf("light %+v", l)
	}
	c := ecs.NewMap[scene.Camera](w).Get(ents["Eye"])
	if c.Projection != scene.Perspective || math.Abs(float64(c.FOV-60)) > 1e-3 || c.Near != 0.5 || c.Far != 80 || c.Aspect != 1.5 {
		t.Errorf("camera %+v", c)
	}
}
