package editor

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// TestAppOverridesOfSeveralSelected: with entities of several instances selected, the Inspector marks a field
// that any of them overrides (as a single selection does), and its Revert reverts it on those that override it.
func TestAppOverridesOfSeveralSelected(t *testing.T) {
	dir := t.TempDir()
	crate := `{"format": "voltex.scene", "version": 2, "name": "Crate", "entities": [{"id": 1, "name": "Crate", "order": 1,
  "components": {"Color": {"rgba": [1, 0, 0, 1]}, "Transform": {}, "Mesh": {"asset": "builtin:cube"}}}]}`
	level := `{"format": "voltex.scene", "version": 2, "name": "Level", "entities": [
  {"id": 10, "name": "A", "order": 1, "prefab": "crate.json", "components": {"Transform": {}}},
  {"id": 11, "name": "B", "order": 2, "prefab": "crate.json", "components": {"Transform": {"position": [3, 0, 0]}}},
  {"id": 12, "name": "Plain", "order": 3, "components": {"Color": {"rgba": [0, 0, 1, 1]}, "Transform": {}}}]}`
	for name, text := range map[string]string{"crate.json": crate, "level.json": level} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := newAppFixture(t, Options{ScenePath: filepath.Join(dir, "level.json")})
	d := f.a.ws.Doc()
	ent := func(id uint64) ecs.Entity {
		e, ok := d.Entity(id)
		if !ok {
			t.Fatalf("no entity %d", id)
		}
		return e
	}
	a, b, plain := ent(scene.InstanceID(10, 1)), ent(scene.InstanceID(11, 1)), ent(12)
	color, _ := ecs.ComponentIDOf[scene.Color](d.EditWorld())
	if err := d.SetField([]ecs.Entity{b}, color, "rgba", [4]float32{0, 1, 0, 1}); err != nil {
		t.Fatal(err)
	}
	for _, sel := range [][]ecs.Entity{{a, b}, {b, a}, {plain, a, b}} {
		d.Selection().Select(sel...)
		f.frames(2)
		if f.st.Inspector["override:Color.rgba"].W == 0 {
			t.Fatalf("selection of %d: the overridden colour is not marked: %v", len(sel), keys(f.st.Inspector))
		}
		if f.st.Inspector["override:Transform.position"].W != 0 {
			t.Fatal("a field no selected entity overrides is marked")
		}
	}
	// Revert (the selection holds a plain entity and an instance's entity that does not override it).
	if err := f.a.ws.Prefabs().RevertOverride([]ecs.Entity{plain, a, b}, "Color", "rgba"); err != nil {
		t.Fatal(err)
	}
	cm := ecs.NewMap[scene.Color](d.EditWorld())
	if cm.Get(b).RGBA != [4]float32{1, 0, 0, 1} || cm.Get(plain).RGBA != [4]float32{0, 0, 1, 1} || cm.Get(a).RGBA != [4]float32{1, 0, 0, 1} {
		t.Fatalf("after Revert: %v %v %v", cm.Get(a), cm.Get(b), cm.Get(plain))
	}
	f.frames(2)
	if f.st.Inspector["override:Color.rgba"].W != 0 {
		t.Fatal("still marked after Revert")
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
