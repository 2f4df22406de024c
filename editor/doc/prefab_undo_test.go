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
	if rep := d.PrefabsChanged(context.Background(), filepath.Join(dir, "enemy.json")); rep.Instances != 2 {
		t.Fatalf("report %+v", rep)
	}
	tm := ecs.NewMap[ecs.Transform](d.world)
	if got := tm.Get(w); got.Position != (mgl32.Vec3{3, 0, 0}) || got.Scale != (mgl32.Vec3{2, 2, 2}) {
		t.Fatalf("after the update: %+v", got)
	}
	overridesAfter := d.Overrides(w)

	// Undo the rename: the name the prefab has now.
	must(t, d.Undo())
	if n := d.Name(w); n != "Gun" {
		t.Fatalf("undo rename: name %q, want the prefab's new name Gun", n)
	}
	// Undo the removal: the Spin comes back as the prefab has it now.
	must(t, d.Undo())
	if s, ok := ecs.NewMap[scene.Spin](d.world).TryGet(w); !ok || s.Speed != 90 {
		t.Fatalf("undo remove: Spin %+v %v, want the prefab's new speed 90", s, ok)
	}
	// Undo the move: the prefab's position, and the prefab's new scale kept.
	must(t, d.Undo())
	if got := tm.Get(w); got.Position != (mgl32.Vec3{1, 0, 0}) || got.Scale != (mgl32.Vec3{2, 2, 2}) {
		t.Fatalf("undo move: Transform %+v, want position [1 0 0] and the prefab's new scale [2 2 2]", got)
	}
	if o := d.Overrides(w); len(o) != 0 {
		t.Fatalf("after undoing every edit the entity still overrides %+v", o)
	}
	// Redo all: the edits again, over the prefab's new values.
	redoAll(t, d)
	if got := tm.Get(w); got.Position != (mgl32.Vec3{3, 0, 0}) || got.Scale != (mgl32.Vec3{2, 2, 2}) || d.Name(w) != "Sword" {
		t.Fatalf("redo: %+v %q", got, d.Name(w))
	}
	if got := d.Overrides(w); !sameOverrides(got, overridesAfter) {
		t.Fatalf("redo: overrides %+v, want %+v", got, overridesAfter)
	}
	// With the prefab back as it was, undo and redo give the file of before.
	must(t, os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(enemyPrefab), 0o644))
	d.PrefabsChanged(context.Background(), filepath.Join(dir, "enemy.json"))
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
