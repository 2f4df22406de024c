package doc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Undo and redo of an edit of an instance after its prefab changed on disk: what the edit did not
// touch follows the prefab as it is now, not as it was when the edit was made (as Unity's undo of a
// property modification), so undoing never turns the prefab's old values into overrides.
func TestUndoAfterPrefabChangedKeepsThePrefabsNewValues(t *testing.T) {
	d, dir := openPrefabScene(t)
	w := part(t, d, 10, 2) // Weapon of Enemy A
	tc, sc := cid[ecs.Transform](t, d), cid[scene.Spin](t, d)
	must(t, d.SetField([]ecs.Entity{w}, tc, "position", mgl32.Vec3{3, 0, 0}))
	must(t, d.RemoveComponent([]ecs.Entity{w}, sc))
	must(t, d.Rename([]ecs.Entity{w}, "Sword"))
	clean := content(t, d)

	edited := strings.Replace(enemyPrefab, `"Spin": {}, "Transform": { "position": [1, 0, 0] }`,
		`"Spin": { "speed": 90 }, "Transform": { "position": [1, 0, 0], "scale": [2, 2, 2] }`, 1)
	edited = strings.Replace(edited, `"name": "Weapon"`, `"name": "Gun"`, 1)
	if edited == enemyPrefab {
		t.Fatal("the edit did not apply")
	}
	must(t, os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(edited), 0o644))
	if rep := d.Prefabs().Changed(context.Background(), filepath.Join(dir, "enemy.json")); rep.Instances != 2 {
		t.Fatalf("report %+v", rep)
	}
	tm := ecs.NewMap[ecs.Transform](d.world)
	if got := tm.Get(w); got.Position != (mgl32.Vec3{3, 0, 0}) || got.Scale != (mgl32.Vec3{2, 2, 2}) {
		t.Fatalf("after the update: %+v", got)
	}
	overridesAfter := d.Prefabs().Overrides(w)

	// Undo the rename: the name the prefab has now.
	must(t, d.History().Undo())
	if n := d.Name(w); n != "Gun" {
		t.Fatalf("undo rename: name %q, want the prefab's new name Gun", n)
	}
	// Undo the removal: the Spin comes back as the prefab has it now.
	must(t, d.History().Undo())
	if s, ok := ecs.NewMap[scene.Spin](d.world).TryGet(w); !ok || s.Speed != 90 {
		t.Fatalf("undo remove: Spin %+v %v, want the prefab's new speed 90", s, ok)
	}
	// Undo the move: the prefab's position, and the prefab's new scale kept.
	must(t, d.History().Undo())
	if got := tm.Get(w); got.Position != (mgl32.Vec3{1, 0, 0}) || got.Scale != (mgl32.Vec3{2, 2, 2}) {
		t.Fatalf("undo move: Transform %+v, want position [1 0 0] and the prefab's new scale [2 2 2]", got)
	}
	if o := d.Prefabs().Overrides(w); len(o) != 0 {
		t.Fatalf("after undoing every edit the entity still overrides %+v", o)
	}
	// Redo all: the edits again, over the prefab's new values.
	redoAll(t, d)
	if got := tm.Get(w); got.Position != (mgl32.Vec3{3, 0, 0}) || got.Scale != (mgl32.Vec3{2, 2, 2}) || d.Name(w) != "Sword" {
		t.Fatalf("redo: %+v %q", got, d.Name(w))
	}
	if got := d.Prefabs().Overrides(w); !sameOverrides(got, overridesAfter) {
		t.Fatalf("redo: overrides %+v, want %+v", got, overridesAfter)
	}
	// With the prefab back as it was, undo and redo give the file of before.
	must(t, os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(enemyPrefab), 0o644))
	d.Prefabs().Changed(context.Background(), filepath.Join(dir, "enemy.json"))
	if got := content(t, d); got != clean {
		t.Fatalf("prefab back:\n%s\nwant\n%s", got, clean)
	}
}

func sameOverrides[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Structural steps too (delete an entity of an instance, revert or unpack the instance, place one): undone or
// redone after the prefab changed, the instance's entities take the prefab's new values where they do not override.
func TestStructuralUndoAfterPrefabChanged(t *testing.T) {
	edited := strings.Replace(enemyPrefab, `"rgba": [0, 0, 1, 1]`, `"rgba": [1, 1, 0, 1]`, 1) // the weapon turns yellow
	yellow := [4]float32{1, 1, 0, 1}
	for _, step := range []string{"delete", "revert instance", "unpack", "instantiate (redo)"} {
		t.Run(step, func(t *testing.T) {
			d, dir := openPrefabScene(t)
			prefab := filepath.Join(dir, "enemy.json")
			body := part(t, d, 10, 1)
			must(t, d.SetField([]ecs.Entity{body}, cid[scene.Color](t, d), "rgba", green)) // an override to keep
			var weapon func() ecs.Entity
			switch step {
			case "delete":
				must(t, d.Delete(part(t, d, 10, 2)))
			case "revert instance":
				must(t, d.Prefabs().RevertInstances(ent(t, d, 10)))
			case "unpack":
				must(t, d.Prefabs().Unpack(ent(t, d, 10)))
			case "instantiate (redo)":
				inst, err := d.Prefabs().Instantiate(context.Background(), prefab, ecs.Entity{}, mgl32.Vec3{})
				must(t, err)
				id := d.ID(inst)
				weapon = func() ecs.Entity { return part(t, d, id, 2) }
				must(t, d.History().Undo())
			}
			must(t, os.WriteFile(prefab, []byte(edited), 0o644))
			d.Prefabs().Changed(context.Background(), prefab)
			if step == "instantiate (redo)" {
				must(t, d.History().Redo())
			} else {
				must(t, d.History().Undo())
				weapon = func() ecs.Entity { return part(t, d, 10, 2) }
			}
			if got := colorOf(t, d, weapon()); got != yellow {
				t.Fatalf("the weapon is %v, want the prefab's new yellow", got)
			}
			if o := d.Prefabs().Overrides(weapon()); len(o) != 0 {
				t.Fatalf("the weapon overrides %+v", o)
			}
			if step != "instantiate (redo)" && (colorOf(t, d, part(t, d, 10, 1)) != green || len(d.Prefabs().Overrides(part(t, d, 10, 1))) != 1) {
				t.Fatalf("the body's override: %v %+v", colorOf(t, d, part(t, d, 10, 1)), d.Prefabs().Overrides(part(t, d, 10, 1)))
			}
		})
	}
}
