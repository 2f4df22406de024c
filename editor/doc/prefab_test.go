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

const enemyPrefab = `{ "format": "voltex.scene", "version": 2, "name": "Enemy", "entities": [
  { "id": 1, "name": "Body", "order": 1, "components": { "Color": { "rgba": [1, 0, 0, 1] }, "Mesh": { "asset": "builtin:cube" }, "Transform": {} } },
  { "id": 2, "name": "Weapon", "parent": 1, "order": 1, "components": { "Color": { "rgba": [0, 0, 1, 1] }, "Mesh": { "asset": "builtin:sphere" }, "Spin": {}, "Transform": { "position": [1, 0, 0] } } }
] }`

const levelWithTwo = `{ "format": "voltex.scene", "version": 2, "name": "Level", "entities": [
  { "id": 10, "name": "Enemy A", "order": 1, "prefab": "enemy.json", "components": { "Transform": { "position": [5, 0, 0] } } },
  { "id": 11, "name": "Enemy B", "order": 2, "prefab": "enemy.json", "components": { "Transform": { "position": [-5, 0, 0] } } }
] }`

// openPrefabScene writes the enemy prefab and a level with two instances of it into a temporary
// folder and opens the level.
func openPrefabScene(t *testing.T) (*Document, string) {
	t.Helper()
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(enemyPrefab), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "level.json"), []byte(levelWithTwo), 0o644))
	d, err := Open(context.Background(), filepath.Join(dir, "level.json"), testOpts, nil)
	must(t, err)
	return d, dir
}

func part(t *testing.T, d *Document, inst, source uint64) ecs.Entity {
	t.Helper()
	return ent(t, d, scene.InstanceID(inst, source))
}

func colorOf(t *testing.T, d *Document, e ecs.Entity) [4]float32 {
	t.Helper()
	return ecs.NewMap[scene.Color](d.world).Get(e).RGBA
}

var green = [4]float32{0, 1, 0, 1}

func TestInstantiateOverrideUndo(t *testing.T) {
	d, dir := openPrefabScene(t)
	before := content(t, d)
	e, err := d.Prefabs().Instantiate(context.Background(), filepath.Join(dir, "enemy.json"), ecs.Entity{}, mgl32.Vec3{0, 0, 7})
	must(t, err)
	if d.Name(e) != "enemy" || d.Len() != 9 {
		t.Fatalf("instance %q, %d entities", d.Name(e), d.Len())
	}
	id := d.ID(e)
	weapon := part(t, d, id, 2)
	if got := d.world.WorldMatrix(weapon)[14]; got != 7 {
		t.Fatalf("weapon z %v, want 7", got)
	}
	must(t, d.SetField([]ecs.Entity{weapon}, cid[scene.Color](t, d), "rgba", green))
	if ov := d.Prefabs().Overrides(weapon); len(ov) != 1 || ov[0].Component != "Color" {
		t.Fatalf("overrides %+v", ov)
	}
	out := content(t, d)
	if !strings.Contains(out, `"Color": { "rgba": [0, 1, 0, 1] }`) || strings.Count(out, `"prefab": "enemy.json"`) != 3 {
		t.Fatalf("saved:\n%s", out)
	}
	// The file reads back the same.
	must(t, d.Save(context.Background(), nil))
	d2, err := Open(context.Background(), d.Path(), testOpts, nil)
	must(t, err)
	if content(t, d2) != out {
		t.Fatal("reopened scene saves differently")
	}
	undoAll(t, d)
	if content(t, d) != before {
		t.Fatalf("undo all:\n%s", content(t, d))
	}
	redoAll(t, d)
	if content(t, d) != out {
		t.Fatal("redo all")
	}
}

func TestPartsKeepTheirPlace(t *testing.T) {
	d, _ := openPrefabScene(t)
	weapon := part(t, d, 10, 2)
	mustErr(t, d.Reparent(ecs.Entity{}, weapon), ErrPrefab)
	mustErr(t, d.MoveNextTo(ent(t, d, 11), true, false, weapon), ErrPrefab)
	// Entities of one's own go under an instance, and moving them is fine.
	c, err := d.SpawnCube(weapon)
	must(t, err)
	must(t, d.Reparent(ent(t, d, 11), c))
	// Deleting an entity of an instance removes it from the instance; undo brings it back.
	before := content(t, d)
	must(t, d.Delete(weapon))
	if out := content(t, d); !strings.Contains(out, `"removed": true`) {
		t.Fatalf("removal not saved:\n%s", out)
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("undo delete")
	}
}

// Deleting an entity of an instance deletes what was added under it with it, in one step: a file
// that adds an entity under a removed one is refused by the loader, so the editor never writes one.
func TestDeletingAPrefabEntityTakesWhatWasAddedUnderIt(t *testing.T) {
	d, _ := openPrefabScene(t)
	weapon := part(t, d, 10, 2)
	c, err := d.SpawnCube(weapon)
	must(t, err)
	cube := d.ID(c)
	before, n := content(t, d), d.Len()
	must(t, d.Delete(weapon))
	if d.Len() != n-2 || d.world.Alive(c) {
		t.Fatalf("%d entities after deleting the weapon with the cube under it, want %d", d.Len(), n-2)
	}
	must(t, d.Save(context.Background(), nil))
	d2, err := Open(context.Background(), d.Path(), testOpts, nil)
	must(t, err)
	if _, ok := d2.byID()[cube]; ok {
		t.Fatal("the cube added under the deleted weapon was saved")
	}
	must(t, d.History().Undo())
	if content(t, d) != before || parentID(t, d, cube) != d.ID(part(t, d, 10, 2)) {
		t.Fatalf("undo:\n%s", content(t, d))
	}
}

func TestRevertAndApply(t *testing.T) {
	d, dir := openPrefabScene(t)
	prefabPath := filepath.Join(dir, "enemy.json")
	colorC := cid[scene.Color](t, d)
	wa := part(t, d, 10, 2)
	start := content(t, d)
	// Revert a field.
	must(t, d.SetField([]ecs.Entity{wa}, colorC, "rgba", green))
	must(t, d.Prefabs().RevertOverride([]ecs.Entity{wa}, "Color", "rgba"))
	if colorOf(t, d, wa) != [4]float32{0, 0, 1, 1} || len(d.Prefabs().Overrides(wa)) != 0 {
		t.Fatal("revert field")
	}
	// Revert a removed component: it comes back with the prefab's value.
	spinC := cid[scene.Spin](t, d)
	must(t, d.RemoveComponent([]ecs.Entity{wa}, spinC))
	must(t, d.Prefabs().RevertOverride([]ecs.Entity{wa}, "Spin", ""))
	if !d.world.Has(wa, spinC) || len(d.Prefabs().Overrides(wa)) != 0 {
		t.Fatal("revert component")
	}
	// Revert the whole instance: a removed entity comes back, an entity of its own stays.
	must(t, d.Delete(part(t, d, 10, 2)))
	own, err := d.SpawnCube(part(t, d, 10, 1))
	must(t, err)
	ownID := d.ID(own)
	must(t, d.Rename([]ecs.Entity{part(t, d, 10, 1)}, "Boss"))
	must(t, d.Prefabs().RevertInstances(ent(t, d, 10)))
	if d.Name(part(t, d, 10, 1)) != "Body" || d.Name(part(t, d, 10, 2)) != "Weapon" {
		t.Fatal("revert instance")
	}
	if p := parentID(t, d, ownID); p != scene.InstanceID(10, 1) {
		t.Fatalf("the instance's own entity moved to %d", p)
	}
	must(t, d.History().Undo())
	if _, ok := d.Entity(scene.InstanceID(10, 2)); ok || d.Name(part(t, d, 10, 1)) != "Boss" {
		t.Fatal("undo revert instance")
	}
	undoAll(t, d)
	if content(t, d) != start {
		t.Fatal("undo all")
	}
	// Apply: the prefab file takes the colour, the other instance follows; undo puts the file back.
	prefabBefore, err := os.ReadFile(prefabPath)
	must(t, err)
	wa = part(t, d, 10, 2)
	must(t, d.SetField([]ecs.Entity{wa}, colorC, "rgba", green))
	must(t, d.Prefabs().Apply(context.Background(), wa, "Color", "rgba"))
	if colorOf(t, d, part(t, d, 11, 2)) != green || len(d.Prefabs().Overrides(part(t, d, 10, 2))) != 0 {
		t.Fatal("apply: the other instance did not follow, or the override stayed")
	}
	if b, _ := os.ReadFile(prefabPath); !strings.Contains(string(b), `"rgba": [0, 1, 0, 1]`) {
		t.Fatalf("prefab file:\n%s", b)
	}
	must(t, d.History().Undo())
	if b, _ := os.ReadFile(prefabPath); string(b) != string(prefabBefore) {
		t.Fatalf("undo apply: prefab file\n%s", b)
	}
	if colorOf(t, d, part(t, d, 10, 2)) != green || colorOf(t, d, part(t, d, 11, 2)) != [4]float32{0, 0, 1, 1} {
		t.Fatal("undo apply: instances")
	}
	must(t, d.History().Redo())
	if colorOf(t, d, part(t, d, 11, 2)) != green {
		t.Fatal("redo apply")
	}
}

func TestUnpackDuplicatePaste(t *testing.T) {
	d, _ := openPrefabScene(t)
	before := content(t, d)
	// Duplicate an instance: a new instance, its entities with ids made from the copy's.
	dups, err := d.Duplicate(ent(t, d, 10))
	must(t, err)
	nid := d.ID(dups[0])
	if _, ok := d.Entity(scene.InstanceID(nid, 2)); !ok {
		t.Fatal("the duplicate's weapon has not the id made from the duplicate's")
	}
	out := content(t, d)
	if strings.Count(out, `"prefab"`) != 3 || strings.Contains(out, `"instance"`) {
		t.Fatalf("duplicate saved:\n%s", out)
	}
	// Copy and paste an instance, and an entity of an instance alone (a plain entity then).
	text, err := d.Copy(ent(t, d, 11))
	must(t, err)
	pasted, err := d.Paste(context.Background(), text, ecs.Entity{})
	must(t, err)
	if _, ok := d.Prefabs().InstanceOf(pasted[0]); !ok {
		t.Fatal("the pasted instance is no instance")
	}
	text, err = d.Copy(part(t, d, 11, 2))
	must(t, err)
	pasted, err = d.Paste(context.Background(), text, ecs.Entity{})
	must(t, err)
	if _, ok := d.Prefabs().InstanceOf(pasted[0]); ok || d.Name(pasted[0]) != "Weapon" {
		t.Fatal("a pasted entity of an instance should be a plain entity")
	}
	// Unpack: plain entities; undo: the instance again.
	must(t, d.Prefabs().Unpack(ent(t, d, 10)))
	if _, ok := d.Prefabs().InstanceOf(part(t, d, 10, 2)); ok {
		t.Fatal("unpacked entity still in an instance")
	}
	if out := content(t, d); strings.Count(out, `"prefab"`) != 3 {
		t.Fatalf("after unpack:\n%s", out)
	}
	undoAll(t, d)
	if content(t, d) != before {
		t.Fatal("undo all")
	}
}

func TestSaveAsPrefab(t *testing.T) {
	dir := t.TempDir()
	d := New("", testOpts)
	must(t, d.SaveAs(context.Background(), filepath.Join(dir, "level.json"), nil))
	group, err := d.SpawnEmpty(ecs.Entity{})
	must(t, err)
	a, err := d.SpawnCube(group)
	must(t, err)
	b, err := d.SpawnCube(group)
	must(t, err)
	must(t, d.SetField([]ecs.Entity{b}, cid[ecs.Transform](t, d), "position", mgl32.Vec3{2, 0, 0}))
	must(t, d.SetField([]ecs.Entity{group}, cid[ecs.Transform](t, d), "position", mgl32.Vec3{0, 3, 0}))
	before := content(t, d)
	bWorld := d.world.WorldMatrix(b)
	inst, err := d.Prefabs().SaveAs(context.Background(), filepath.Join(dir, "pair.json"), a, b)
	must(t, err)
	if data, err := os.ReadFile(filepath.Join(dir, "pair.json")); err != nil || strings.Count(string(data), `"builtin:cube"`) != 2 {
		t.Fatalf("prefab file: %v\n%s", err, data)
	}
	if d.Name(inst) != "pair" || d.world.Parent(inst) != group {
		t.Fatal("the instance replaces the selection under its parent")
	}
	var cube ecs.Entity
	for _, c := range preorder(d.world, []ecs.Entity{inst}) {
		if ecs.NewMap[ecs.Transform](d.world).Get(c).Position[0] == 2 {
			cube = c
		}
	}
	if cube.IsZero() || d.world.WorldMatrix(cube) != bWorld {
		t.Fatal("the cubes moved")
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("undo save as prefab")
	}
	must(t, d.History().Redo())
	if _, ok := d.Prefabs().InstanceOf(d.Selection().Entities()[0]); !ok {
		t.Fatal("redo")
	}
}

func TestPrefabChangedOnDisk(t *testing.T) {
	d, dir := openPrefabScene(t)
	must(t, d.SetField([]ecs.Entity{part(t, d, 10, 2)}, cid[scene.Color](t, d), "rgba", green))
	edited := strings.Replace(enemyPrefab, `"rgba": [0, 0, 1, 1]`, `"rgba": [1, 1, 0, 1]`, 1)
	must(t, os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(edited), 0o644))
	rep := d.Prefabs().Changed(context.Background(), filepath.Join(dir, "enemy.json"))
	if rep.Instances != 2 {
		t.Fatalf("report %+v", rep)
	}
	if colorOf(t, d, part(t, d, 10, 2)) != green || colorOf(t, d, part(t, d, 11, 2)) != [4]float32{1, 1, 0, 1} {
		t.Fatal("the override must stay and the other instance follow")
	}
	// The prefab goes: placeholders, and saving keeps the reference and the override.
	out := content(t, d)
	must(t, os.Remove(filepath.Join(dir, "enemy.json")))
	d.Prefabs().Changed(context.Background(), filepath.Join(dir, "enemy.json"))
	if pf := ecs.NewMap[scene.Prefab](d.world).Get(ent(t, d, 10)); !strings.Contains(pf.Problem, "no such prefab file") {
		t.Fatalf("problem %q", pf.Problem)
	}
	if got := content(t, d); got != out {
		t.Fatalf("a missing prefab changed the file:\n%s\n---\n%s", out, got)
	}
	// And comes back.
	must(t, os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(edited), 0o644))
	d.Prefabs().Changed(context.Background(), filepath.Join(dir, "enemy.json"))
	if colorOf(t, d, part(t, d, 10, 2)) != green || colorOf(t, d, part(t, d, 11, 2)) != [4]float32{1, 1, 0, 1} {
		t.Fatal("after the prefab came back")
	}
	if got := content(t, d); got != out {
		t.Fatal("the scene changed after its prefab went and came back")
	}
}

func TestSpawnCopies(t *testing.T) {
	d, dir := openPrefabScene(t)
	before := content(t, d)
	p := scene.GridParams{Count: [3]int{3, 1, 2}, Spacing: mgl32.Vec3{4, 1, 4}, Origin: mgl32.Vec3{0, 0, 20}, Group: "Army",
		RotationStep: mgl32.Vec3{0, 30, 0}, ScaleStep: mgl32.Vec3{1, 1.1, 1}}
	// A grid of a prefab: six instances in a group, one step.
	group, copies, err := d.SpawnCopies(context.Background(), p, CopySource{Prefab: filepath.Join(dir, "enemy.json")})
	must(t, err)
	if len(copies) != 6 || d.Name(group) != "Army" || d.Name(copies[4]) != "enemy 1,1" {
		t.Fatalf("group %q, %d copies, the fifth %q", d.Name(group), len(copies), d.Name(copies[4]))
	}
	for _, c := range copies {
		if _, ok := d.Prefabs().InstanceOf(c); !ok {
			t.Fatal("a copy is not an instance")
		}
	}
	tr := ecs.NewMap[ecs.Transform](d.world).Get(copies[4])
	if tr.Rotation[1] != 120 || tr.Position != (mgl32.Vec3{0, 0, 2}) || tr.Scale[1] < 1.46 || tr.Scale[1] > 1.47 {
		t.Fatalf("copy 4: %+v (want 120° about Y, 1.1^4 high, at x=0 z=+2 in the group)", tr)
	}
	out := content(t, d)
	if strings.Count(out, `"prefab": "enemy.json"`) != 8 {
		t.Fatalf("saved:\n%s", out)
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("undo the prefab grid")
	}
	// A grid of an entity with its child: duplicates keep the entity's own turn and scale.
	body := part(t, d, 10, 1)
	must(t, d.Prefabs().Unpack(ent(t, d, 10)))
	must(t, d.SetField([]ecs.Entity{body}, cid[ecs.Transform](t, d), "scale", mgl32.Vec3{2, 2, 2}))
	p.Group = ""
	_, copies, err = d.SpawnCopies(context.Background(), p, CopySource{Entity: body})
	must(t, err)
	if len(copies) != 6 || d.world.ChildCount(copies[5]) != 1 || d.Name(copies[0]) != "Body 0,0" {
		t.Fatalf("%d copies, %d children", len(copies), d.world.ChildCount(copies[5]))
	}
	tr = ecs.NewMap[ecs.Transform](d.world).Get(copies[1])
	if tr.Scale[0] < 1.99 || tr.Scale[0] > 2.01 || tr.Rotation[1] < 29.9 || tr.Rotation[1] > 30.1 || tr.Position != (mgl32.Vec3{0, 0, 18}) {
		t.Fatalf("copy 1: %+v", tr)
	}
	n := d.Len()
	must(t, d.History().Undo())
	if d.Len() != n-12 {
		t.Fatalf("undo: %d entities, want %d", d.Len(), n-12)
	}
}

// Save As into another folder names the prefabs relative to it; one that would be above it is
// refused and nothing changes.
func TestSaveAsElsewhereRebasesPrefabs(t *testing.T) {
	d, dir := openPrefabScene(t)
	must(t, os.MkdirAll(filepath.Join(dir, "levels"), 0o755))
	mustErr(t, d.SaveAs(context.Background(), filepath.Join(dir, "levels", "l.json"), nil), ErrPrefab)
	if pf := ecs.NewMap[scene.Prefab](d.world).Get(ent(t, d, 10)); pf.Path != "enemy.json" {
		t.Fatalf("a refused save changed the path: %q", pf.Path)
	}
	must(t, os.Rename(filepath.Join(dir, "enemy.json"), filepath.Join(dir, "levels", "enemy.json")))
	must(t, os.WriteFile(filepath.Join(dir, "level.json"), []byte(strings.ReplaceAll(levelWithTwo, `"enemy.json"`, `"levels/enemy.json"`)), 0o644))
	d, err := Open(context.Background(), filepath.Join(dir, "level.json"), testOpts, nil)
	must(t, err)
	must(t, d.SaveAs(context.Background(), filepath.Join(dir, "levels", "l.json"), nil))
	d2, err := Open(context.Background(), filepath.Join(dir, "levels", "l.json"), testOpts, nil)
	must(t, err)
	if d2.Len() != 6 || len(d2.Prefabs().Broken()) != 0 {
		t.Fatalf("saved elsewhere: %d entities, broken %v", d2.Len(), d2.Prefabs().Broken())
	}
}
