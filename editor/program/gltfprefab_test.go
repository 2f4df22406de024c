package program

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/serialize/game"
)

// A scene placing a glTF model as a prefab beside a spot light: validate accepts it (every mesh part
// resolved), render draws it, export flattens the instance with its mesh parts, materials and the
// light for games, and diff names the light's field another version changes.
func TestModelPrefabThroughTheSubcommands(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared", "testdata", "gltf", "BoxVertexColors", "glTF-Binary", "BoxVertexColors.glb")
	box, err := os.ReadFile(shared)
	if err != nil {
		t.Skipf("skipping: the shared sample models are absent: %v", err)
	}
	level := `{ "format": "voltex.scene", "version": 2, "entities": [
 { "id": 10, "name": "Box", "order": 1, "prefab": "models/box.glb", "components": { "Transform": {} } },
 { "id": 20, "name": "Lamp", "order": 2, "components": { "Transform": {}, "Light": { "kind": 2, "intensity": 30 } } } ] }`
	dir := writeFiles(t, map[string]string{"level.json": level, "models/box.glb": string(box)})
	path := filepath.Join(dir, "level.json")
	if code, stdout, stderr := runCLI("validate", path); code != 0 {
		t.Fatalf("validate: code %d\n%s\n%s", code, stdout, stderr)
	}
	png := filepath.Join(dir, "level.png")
	if code, stdout, stderr := runCLI("render", path, "-o", png, "--size", "320x240"); code != 0 || strings.Contains(stderr, "placeholder") {
		t.Errorf("render: code %d\n%s\n%s", code, stdout, stderr)
	}
	out := filepath.Join(dir, "level.export.json")
	if code, stdout, stderr := runCLI("export", path, "-o", out); code != 0 {
		t.Fatalf("export: code %d\n%s\n%s", code, stdout, stderr)
	}
	gs, err := game.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(gs.Entities) != 2+4 {
		t.Errorf("%d entities exported, want the box's 4 nodes, the instance and the lamp", len(gs.Entities))
	}
	parts, materials, lights := 0, 0, 0
	for _, m := range gs.Meshes {
		if strings.HasPrefix(m, "models/box.glb#mesh/") {
			parts++
		}
	}
	for _, e := range gs.Entities {
		if e.Material != nil {
			materials++
		}
		if e.Light != nil && e.Light.Kind == 2 && e.Light.Intensity == 30 {
			lights++
		}
	}
	if parts == 0 || materials == 0 || lights != 1 {
		t.Errorf("exported %d mesh parts (%q), %d materials, %d spot lights", parts, gs.Meshes, materials, lights)
	}

	other := strings.Replace(level, `"intensity": 30`, `"intensity": 60`, 1)
	otherPath := filepath.Join(dir, "other.json")
	if err := os.WriteFile(otherPath, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("diff", path, otherPath)
	if !strings.Contains(stdout, "Light.intensity: 30 → 60") {
		t.Errorf("diff: code %d\n%s\n%s", code, stdout, stderr)
	}
}
