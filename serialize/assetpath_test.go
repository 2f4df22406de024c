package serialize

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/game"
)

func meshScene(asset string) string {
	return fmt.Sprintf(`{"format": "voltex.scene", "version": 2, "entities": [
  {"id": 1, "components": {"Mesh": {"asset": %q}}}
]}`, asset)
}

// Asset references that are absolute, climb out of the scene's folder, are URLs, empty or not a
// built-in name are errors with their position, in every load (validate, export, render, fmt and
// the editor all load through here).
func TestUnsafeAssetPathsRefused(t *testing.T) {
	for _, ref := range []string{"/etc/passwd", "../../secret.obj", `C:\models\ship.obj`, "http://example.com/a.obj",
		"", ".", "builtin:../x", `\\server\share\a.obj`} {
		_, err := Load(context.Background(), strings.NewReader(meshScene(ref)), LoadOptions{File: "s.json"})
		if err == nil || !strings.HasPrefix(err.Error(), "s.json:2:46: entities[0].components.Mesh.asset: ") {
			t.Errorf("%q: %v", ref, err)
		}
	}
	for _, ref := range []string{"ship.obj", "models/ship.obj", `models\ship.obj`, "builtin:cube", "builtin:nope"} {
		if _, err := Load(context.Background(), strings.NewReader(meshScene(ref)), LoadOptions{}); err != nil {
			t.Errorf("%q: %v", ref, err)
		}
	}
}

// Export never writes an unsafe reference (a world made in code can hold one), and neither does
// Save.
func TestExportRefusesUnsafeAssetPaths(t *testing.T) {
	w := scene.NewWorld()
	w.Spawn(&scene.Name{Value: "Ship"}, &scene.Mesh{Asset: "../../secret.obj"}, ecs.Transform{}.Default())
	s := &Scene{World: w}
	var out bytes.Buffer
	err := Export(context.Background(), &out, s)
	if err == nil || !strings.Contains(err.Error(), `exporting: entity`) || !strings.Contains(err.Error(), `("Ship"): Mesh.asset path "../../secret.obj" refused`) {
		t.Errorf("export: %v", err)
	}
	if strings.Contains(out.String(), "secret") {
		t.Errorf("the export holds the path:\n%s", out.String())
	}
	out.Reset()
	if err := Save(context.Background(), &out, s, SaveOptions{}); err == nil || strings.Contains(out.String(), "secret") {
		t.Errorf("save: %v\n%s", err, out.String())
	}
}

// CheckAsset: a missing file is a warning at the reference (an error with Strict); a refusal of
// the checker (a symlink out of the folder) is an error. Each reference is checked once.
func TestCheckAsset(t *testing.T) {
	src := `{"format": "voltex.scene", "version": 2, "entities": [
  {"id": 1, "components": {"Mesh": {"asset": "gone.obj"}, "Transform": {}}},
  {"id": 2, "components": {"Mesh": {"asset": "gone.obj"}, "Transform": {}}},
  {"id": 3, "components": {"Mesh": {"asset": "link.obj"}, "Transform": {}}},
  {"id": 4, "components": {"Mesh": {"asset": "here.obj"}, "Transform": {}}}
]}`
	asked := map[string]int{}
	check := func(ref string) error {
		asked[ref]++
		switch ref {
		case "gone.obj":
			return fmt.Errorf("%w: scenes/gone.obj does not exist", ErrAssetMissing)
		case "link.obj":
			return errors.New("path \"link.obj\" refused: it resolves through a symlink outside the scene folder")
		}
		return nil
	}
	_, err := Load(context.Background(), strings.NewReader(src), LoadOptions{File: "s.json", CheckAsset: check})
	if err == nil || !strings.HasSuffix(err.Error(), "\n"+`s.json:4:46: entities[2].components.Mesh.asset: path "link.obj" refused: it resolves through a symlink outside the scene folder`) {
		t.Errorf("got %v", err)
	}
	src = strings.Replace(src, "link.obj", "here.obj", 1)
	s, err := Load(context.Background(), strings.NewReader(src), LoadOptions{File: "s.json", CheckAsset: check})
	if err != nil || len(s.Warnings) != 1 || s.Warnings[0].String() != "s.json:2:46: warning: entities[0].components.Mesh.asset: asset not found: scenes/gone.obj does not exist" {
		t.Errorf("warnings %v, err %v", s.Warnings, err)
	}
	_, err = Load(context.Background(), strings.NewReader(src), LoadOptions{File: "s.json", CheckAsset: check, Strict: true})
	if err == nil || !strings.Contains(err.Error(), "s.json:2:46: entities[0].components.Mesh.asset: asset not found") {
		t.Errorf("strict: %v", err)
	}
	if asked["gone.obj"] != 3 || asked["here.obj"] != 3 {
		t.Errorf("asked %v (once per reference and load)", asked)
	}
}

// The game loader refuses an export whose mesh table holds an unsafe path.
func TestGameLoaderRefusesUnsafeMeshes(t *testing.T) {
	src := `{"format": "voltex.export", "version": 1, "meshes": ["builtin:cube", "/etc/passwd", "../x.obj", "ok/a.obj"], "entities": []}`
	_, err := game.LoadWith(strings.NewReader(src), "e.json", game.Limits{})
	want := "e.json:1:70: meshes[1]: absolute path \"/etc/passwd\" refused: asset paths must be relative to the scene folder: outside the scene folder\n" +
		"e.json:1:85: meshes[2]: path \"../x.obj\" refused: it climbs out of the scene folder with \"..\": outside the scene folder"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// A Mesh without a Transform has one meaning everywhere: not drawn. The load warns where it is,
// and the export gives it no mesh (before, render left it out silently and export drew it at
// the origin).
func TestMeshWithoutTransformIsNotDrawn(t *testing.T) {
	src := `{"format": "voltex.scene", "version": 2, "entities": [
  {"id": 1, "name": "floating", "components": {"Mesh": {"asset": "builtin:cube"}}},
  {"id": 2, "name": "placed", "components": {"Mesh": {"asset": "builtin:sphere"}, "Transform": {}}}
]}`
	s, err := Load(context.Background(), strings.NewReader(src), LoadOptions{File: "s.json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 1 || !strings.HasPrefix(s.Warnings[0].String(), "s.json:2:48: warning: entities[0].components.Mesh: a Mesh without a Transform is not drawn") {
		t.Fatalf("warnings: %v", s.Warnings)
	}
	var out bytes.Buffer
	if err := Export(context.Background(), &out, s); err != nil {
		t.Fatal(err)
	}
	g, err := game.Load(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Meshes) != 1 || g.Meshes[0] != "builtin:sphere" || g.Entities[0].Mesh != -1 || g.MeshOf(1) != "builtin:sphere" {
		t.Fatalf("meshes %v, entities %+v", g.Meshes, g.Entities)
	}
}
