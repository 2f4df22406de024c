package serialize_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/game"
)

// enemyPrefab is a two-entity prefab: a red body with a blue spinning weapon.
const enemyPrefab = `{
  "format": "voltex.scene",
  "version": 2,
  "name": "Enemy",
  "entities": [
    { "id": 1, "name": "Body", "order": 1, "components": { "Color": { "rgba": [1, 0, 0, 1] }, "Mesh": { "asset": "builtin:cube" }, "Transform": {} } },
    { "id": 2, "name": "Weapon", "parent": 1, "order": 1, "components": { "Color": { "rgba": [0, 0, 1, 1] }, "Mesh": { "asset": "builtin:sphere" }, "Spin": {}, "Transform": { "position": [1, 0, 0] } } }
  ]
}
`

// writeFiles writes name → contents into a new temporary folder and returns it.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func loadFile(t testing.TB, path string, opts serialize.LoadOptions) *serialize.Scene {
	t.Helper()
	s, err := serialize.LoadFile(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	return s
}

func saveText(t testing.TB, s *serialize.Scene) string {
	t.Helper()
	var b bytes.Buffer
	if err := serialize.Save(context.Background(), &b, s, serialize.SaveOptions{}); err != nil {
		t.Fatalf("save: %v", err)
	}
	return b.String()
}

// byName returns the entity named name under root (depth first), or fails.
func byName(t testing.TB, w *ecs.World, root ecs.Entity, name string) ecs.Entity {
	t.Helper()
	names := ecs.NewMap[scene.Name](w)
	var found ecs.Entity
	var walk func(e ecs.Entity)
	walk = func(e ecs.Entity) {
		for _, c := range w.Children(e) {
			if n, _ := names.TryGet(c); n.Value == name && found.IsZero() {
				found = c
			}
			walk(c)
		}
	}
	walk(root)
	if found.IsZero() {
		t.Fatalf("no entity %q under %v", name, root)
	}
	return found
}

func entityByID(t testing.TB, w *ecs.World, id uint64) ecs.Entity {
	t.Helper()
	for _, e := range scene.EnsureIDs(w) {
		if ecs.NewMap[scene.SceneID](w).Get(e).ID == id {
			return e
		}
	}
	t.Fatalf("no entity with id %d", id)
	return ecs.Entity{}
}

const twoInstances = `{
  "format": "voltex.scene",
  "version": 2,
  "name": "Level",
  "entities": [
    {
      "id": 10,
      "name": "Enemy A",
      "order": 1,
      "prefab": "enemy.json",
      "components": {
        "Transform": { "position": [5, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] }
      }
    },
    {
      "id": 11,
      "name": "Enemy B",
      "order": 2,
      "prefab": "enemy.json",
      "components": {
        "Transform": { "position": [-5, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] }
      }
    }
  ]
}
`

func TestInstanceLoadsPrefabEntities(t *testing.T) {
	dir := writeFiles(t, map[string]string{"enemy.json": enemyPrefab, "level.json": twoInstances})
	s := loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	w := s.World
	if w.Len() != 6 {
		t.Fatalf("entities = %d, want 6 (2 instances of 2 + the instances)", w.Len())
	}
	a := entityByID(t, w, 10)
	body := byName(t, w, a, "Body")
	weapon := byName(t, w, a, "Weapon")
	if w.Parent(body) != a || w.Parent(weapon) != body {
		t.Fatalf("hierarchy: parent(body)=%v parent(weapon)=%v, want %v and %v", w.Parent(body), w.Parent(weapon), a, body)
	}
	pp := ecs.NewMap[scene.PrefabPart](w).Get(weapon)
	if pp.Instance != 10 || pp.Source != 2 {
		t.Fatalf("weapon's part = %+v, want instance 10 source 2", pp)
	}
	if id := ecs.NewMap[scene.SceneID](w).Get(weapon).ID; id != scene.InstanceID(10, 2) {
		t.Fatalf("weapon's id = %d, want InstanceID(10, 2) = %d", id, scene.InstanceID(10, 2))
	}
	if c := ecs.NewMap[scene.Color](w).Get(weapon); c.RGBA != [4]float32{0, 0, 1, 1} {
		t.Fatalf("weapon colour = %v", c.RGBA)
	}
	m := w.WorldMatrix(weapon)
	if m[12] != 6 {
		t.Fatalf("weapon world x = %v, want 6 (instance at 5, weapon at 1)", m[12])
	}
	// Nothing differs from the prefab: the file comes back as it was.
	if got := saveText(t, s); got != twoInstances {
		t.Fatalf("round trip differs:\n%s", got)
	}
}

func TestOverrideRoundTrip(t *testing.T) {
	dir := writeFiles(t, map[string]string{"enemy.json": enemyPrefab, "level.json": twoInstances})
	s := loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	w := s.World
	a := entityByID(t, w, 10)
	weapon := byName(t, w, a, "Weapon")
	ecs.NewMap[scene.Color](w).Set(weapon, scene.Color{RGBA: [4]float32{0, 1, 0, 1}})
	tr := ecs.NewMap[ecs.Transform](w)
	wt := tr.Get(weapon)
	wt.Scale = [3]float32{2, 2, 2}
	tr.Set(weapon, wt)
	body := byName(t, w, a, "Body")
	ecs.NewMap[scene.Name](w).Set(body, scene.Name{Value: "Boss"})
	spin, _ := ecs.ComponentIDOf[scene.Spin](w)
	if err := w.Remove(weapon, spin); err != nil {
		t.Fatal(err)
	}
	out := saveText(t, s)
	for _, want := range []string{
		`"instance": 10,`, `"source": 2,`, `"Color": { "rgba": [0, 1, 0, 1] }`, `"Spin": null`,
		`"Transform": { "scale": [2, 2, 2] }`, `"name": "Boss"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("saved file lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"source": 1,`) && strings.Count(out, `"instance": 11`) > 0 {
		t.Errorf("instance B has records though nothing changed:\n%s", out)
	}
	// Load what was saved: the same world; save again: the same bytes.
	if err := os.WriteFile(filepath.Join(dir, "level.json"), []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	s2 := loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	if again := saveText(t, s2); again != out {
		t.Fatalf("second round trip differs:\n--- first\n%s\n--- second\n%s", out, again)
	}
	w2 := s2.World
	weapon2 := byName(t, w2, entityByID(t, w2, 10), "Weapon")
	if c := ecs.NewMap[scene.Color](w2).Get(weapon2); c.RGBA != [4]float32{0, 1, 0, 1} {
		t.Fatalf("override lost: colour %v", c.RGBA)
	}
	if w2.Has(weapon2, spin) {
		t.Fatalf("removed Spin came back")
	}
	if tt := ecs.NewMap[ecs.Transform](w2).Get(weapon2); tt.Position != [3]float32{1, 0, 0} || tt.Scale != [3]float32{2, 2, 2} {
		t.Fatalf("transform %+v: want the prefab's position with the overridden scale", tt)
	}
	other := byName(t, w2, entityByID(t, w2, 11), "Weapon")
	if c := ecs.NewMap[scene.Color](w2).Get(other); c.RGBA != [4]float32{0, 0, 1, 1} {
		t.Fatalf("the other instance changed: colour %v", c.RGBA)
	}
}

const lampPrefab = `{
  "format": "voltex.scene",
  "version": 2,
  "name": "Lamp",
  "entities": [
    { "id": 1, "name": "Bulb", "order": 1, "components": { "Color": { "rgba": [1, 1, 0, 1] }, "Mesh": { "asset": "builtin:sphere" }, "Transform": {} } }
  ]
}
`

// wallPrefab holds two lamps, one of them red.
var wallPrefab = `{
  "format": "voltex.scene",
  "version": 2,
  "name": "Wall",
  "entities": [
    { "id": 5, "name": "Wall", "order": 1, "components": { "Mesh": { "asset": "builtin:cube" }, "Transform": { "scale": [4, 2, 0.2] } } },
    { "id": 6, "name": "Lamp L", "parent": 5, "order": 1, "prefab": "lamp.json", "components": { "Transform": { "position": [-1, 1, 0] } } },
    { "id": 7, "name": "Lamp R", "parent": 5, "order": 2, "prefab": "lamp.json", "components": { "Transform": { "position": [1, 1, 0] } } },
    { "id": ` + itoa(scene.InstanceID(7, 1)) + `, "instance": 7, "source": 1, "components": { "Color": { "rgba": [1, 0, 0, 1] } } }
  ]
}
`

func TestNestedPrefabs(t *testing.T) {
	dir := writeFiles(t, map[string]string{"lamp.json": lampPrefab, "wall.json": wallPrefab, "level.json": `{
  "format": "voltex.scene", "version": 2, "name": "L",
  "entities": [ { "id": 100, "name": "W", "order": 1, "prefab": "wall.json", "components": { "Transform": {} } } ]
}`})
	// The wall's own record must carry the right id.
	s := loadFile(t, filepath.Join(dir, "wall.json"), serialize.LoadOptions{})
	if n := s.World.Len(); n != 5 {
		t.Fatalf("wall has %d entities, want 5", n)
	}
	s = loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	w := s.World
	root := entityByID(t, w, 100)
	lampR := byName(t, w, root, "Lamp R")
	bulbR := byName(t, w, lampR, "Bulb")
	bulbL := byName(t, w, byName(t, w, root, "Lamp L"), "Bulb")
	colors := ecs.NewMap[scene.Color](w)
	if c := colors.Get(bulbR).RGBA; c != [4]float32{1, 0, 0, 1} {
		t.Fatalf("nested override lost: right bulb %v", c)
	}
	if c := colors.Get(bulbL).RGBA; c != [4]float32{1, 1, 0, 1} {
		t.Fatalf("left bulb %v", c)
	}
	if pf, ok := ecs.NewMap[scene.Prefab](w).TryGet(lampR); !ok || pf.Path != "lamp.json" {
		t.Fatalf("nested instance not marked: %+v %v", pf, ok)
	}
	pp := ecs.NewMap[scene.PrefabPart](w).Get(bulbR)
	if pp.Instance != 100 || pp.Source != scene.InstanceID(7, 1) {
		t.Fatalf("nested part %+v: want instance 100, source InstanceID(7, 1)", pp)
	}
	// An override of a nested entity is keyed by its id in the outer prefab.
	colors.Set(bulbL, scene.Color{RGBA: [4]float32{0, 1, 0, 1}})
	out := saveText(t, s)
	if !strings.Contains(out, `"source": `+itoa(scene.InstanceID(6, 1))) || strings.Count(out, `"instance": 100`) != 1 {
		t.Fatalf("override of the nested lamp:\n%s", out)
	}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

func TestPrefabCycleIsAnError(t *testing.T) {
	inst := func(path string) string {
		return `{ "format": "voltex.scene", "version": 2, "entities": [ { "id": 1, "order": 1, "prefab": "` + path + `" } ] }`
	}
	dir := writeFiles(t, map[string]string{"a.json": inst("b.json"), "b.json": inst("a.json"), "level.json": inst("a.json")})
	_, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "prefab cycle: a.json → b.json → a.json") {
		t.Fatalf("err = %v, want the cycle with its chain", err)
	}
	t.Log(err)
	// Kept as a placeholder: the scene opens, the instance says why, and saving keeps it.
	s, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "level.json"), serialize.LoadOptions{KeepBroken: true})
	if err != nil {
		t.Fatal(err)
	}
	e := entityByID(t, s.World, 1)
	if pf := ecs.NewMap[scene.Prefab](s.World).Get(e); !strings.Contains(pf.Problem, "prefab cycle") {
		t.Fatalf("problem = %q", pf.Problem)
	}
	if len(s.Broken) == 0 {
		t.Fatal("no broken problems")
	}
	// A self-instancing scene is a cycle too.
	dir = writeFiles(t, map[string]string{"self.json": inst("self.json")})
	if _, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "self.json"), serialize.LoadOptions{}); err == nil ||
		!strings.Contains(err.Error(), "self.json → self.json") {
		t.Fatalf("self: %v", err)
	}
}

func TestMissingPrefabKeepsOverrides(t *testing.T) {
	dir := writeFiles(t, map[string]string{"enemy.json": enemyPrefab, "level.json": twoInstances})
	s := loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	weapon := byName(t, s.World, entityByID(t, s.World, 10), "Weapon")
	ecs.NewMap[scene.Color](s.World).Set(weapon, scene.Color{RGBA: [4]float32{0, 1, 0, 1}})
	child := s.World.Spawn(&scene.Name{Value: "Added"}, &ecs.Transform{Scale: [3]float32{1, 1, 1}})
	if err := s.World.SetParent(child, weapon); err != nil {
		t.Fatal(err)
	}
	saved := saveText(t, s)
	if err := os.WriteFile(filepath.Join(dir, "level.json"), []byte(saved), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "enemy.json")); err != nil {
		t.Fatal(err)
	}
	_, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "no such prefab file") {
		t.Fatalf("err = %v", err)
	}
	s2, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "level.json"), serialize.LoadOptions{KeepBroken: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := saveText(t, s2); got != saved {
		t.Fatalf("a scene whose prefab is missing saves differently:\n--- before\n%s\n--- after\n%s", saved, got)
	}
	// The added child hangs under the placeholder of the weapon.
	w := s2.World
	added := byName(t, w, entityByID(t, w, 10), "Added")
	if id := ecs.NewMap[scene.SceneID](w).Get(w.Parent(added)).ID; id != scene.InstanceID(10, 2) {
		t.Fatalf("added child's parent %d", id)
	}
}

func TestRevertApplyUnpack(t *testing.T) {
	dir := writeFiles(t, map[string]string{"enemy.json": enemyPrefab, "level.json": twoInstances})
	s := loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	w := s.World
	a, b := entityByID(t, w, 10), entityByID(t, w, 11)
	weaponA, weaponB := byName(t, w, a, "Weapon"), byName(t, w, b, "Weapon")
	colors := ecs.NewMap[scene.Color](w)
	green := scene.Color{RGBA: [4]float32{0, 1, 0, 1}}
	colors.Set(weaponA, green)
	if got := serialize.Overrides(s, weaponA); len(got) != 1 || got[0] != (serialize.Override{Component: "Color", Path: "rgba"}) {
		t.Fatalf("overrides = %+v", got)
	}
	if got := serialize.Overrides(s, weaponB); len(got) != 0 {
		t.Fatalf("the other instance has overrides %+v", got)
	}
	// Revert: the prefab's value.
	v, ok := serialize.PrefabValue(s, weaponA, "Color")
	if !ok || v.(scene.Color).RGBA != [4]float32{0, 0, 1, 1} {
		t.Fatalf("prefab value %v %v", v, ok)
	}
	colors.Set(weaponA, v.(scene.Color))
	if got := serialize.Overrides(s, weaponA); len(got) != 0 {
		t.Fatalf("after revert: %+v", got)
	}
	// Apply: the prefab takes the value, the other instance follows, the applied one has no
	// override left.
	colors.Set(weaponA, green)
	spin, _ := ecs.ComponentIDOf[scene.Spin](w)
	_ = w.Remove(weaponA, spin)
	file, data, err := serialize.ApplyToPrefab(context.Background(), s, weaponA, "Color", "rgba")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(file) != "enemy.json" || !strings.Contains(string(data), `"rgba": [0, 1, 0, 1]`) || !strings.Contains(string(data), `"Spin"`) {
		t.Fatalf("applied prefab (%s):\n%s", file, data)
	}
	write(t, file, string(data))
	rep := serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), file))
	if rep.Instances != 2 {
		t.Fatalf("report %+v", rep)
	}
	if got := colors.Get(weaponB).RGBA; got != green.RGBA {
		t.Fatalf("the other instance did not follow: %v", got)
	}
	if got := serialize.Overrides(s, weaponA); len(got) != 1 || got[0] != (serialize.Override{Component: "Spin", Removed: true}) {
		t.Fatalf("after apply: %+v (the removed Spin stays an override)", got)
	}
	// Apply all: the removal too.
	if file, data, err = serialize.ApplyInstanceToPrefab(context.Background(), s, a); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"Spin"`) {
		t.Fatalf("Spin still in the prefab:\n%s", data)
	}
	write(t, file, string(data))
	serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), file))
	serialize.ForgetKeptRemovals(w, weaponA)
	if w.Has(weaponB, spin) || len(serialize.Overrides(s, weaponA)) != 0 {
		t.Fatalf("apply all: B has Spin %v, A's overrides %+v\n%s", w.Has(weaponB, spin), serialize.Overrides(s, weaponA), data)
	}
	// Unpack: plain entities, written whole; the other instance stays one.
	before := saveText(t, s)
	if err := serialize.Unpack(s, a); err != nil {
		t.Fatal(err)
	}
	out := saveText(t, s)
	if strings.Contains(out, `"instance": 10`) || strings.Count(out, `"prefab"`) != 1 || !strings.Contains(out, `"name": "Weapon"`) {
		t.Fatalf("unpacked:\n%s", out)
	}
	write(t, filepath.Join(dir, "level.json"), out)
	if again := saveText(t, loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})); again != out {
		t.Fatalf("unpacked scene does not round trip:\n%s\n---\n%s", out, again)
	}
	_ = before
}

func TestUnpackNested(t *testing.T) {
	dir := writeFiles(t, map[string]string{"lamp.json": lampPrefab, "wall.json": wallPrefab, "level.json": `{
  "format": "voltex.scene", "version": 2, "name": "L",
  "entities": [ { "id": 100, "name": "W", "order": 1, "prefab": "wall.json", "components": { "Transform": {} } } ]
}`})
	s := loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	w := s.World
	root := entityByID(t, w, 100)
	lampL := byName(t, w, root, "Lamp L")
	ecs.NewMap[scene.Color](w).Set(byName(t, w, lampL, "Bulb"), scene.Color{RGBA: [4]float32{0, 0, 1, 1}})
	if err := serialize.Unpack(s, root); err != nil {
		t.Fatal(err)
	}
	out := saveText(t, s)
	if strings.Count(out, `"prefab": "lamp.json"`) != 2 || strings.Contains(out, `"wall.json"`) {
		t.Fatalf("the lamps should be instances of the scene now:\n%s", out)
	}
	write(t, filepath.Join(dir, "level.json"), out)
	s2 := loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	if again := saveText(t, s2); again != out {
		t.Fatalf("round trip:\n%s\n---\n%s", out, again)
	}
	w2 := s2.World
	r2 := entityByID(t, w2, 100)
	c := ecs.NewMap[scene.Color](w2)
	if got := c.Get(byName(t, w2, byName(t, w2, r2, "Lamp L"), "Bulb")).RGBA; got != [4]float32{0, 0, 1, 1} {
		t.Fatalf("left bulb %v", got)
	}
	if got := c.Get(byName(t, w2, byName(t, w2, r2, "Lamp R"), "Bulb")).RGBA; got != [4]float32{1, 0, 0, 1} {
		t.Fatalf("right bulb %v (the wall's override of the nested lamp is now the scene's)", got)
	}
}

// A prefab in a sub-folder: its asset references are relative to its own folder, so instances
// see them relative to the scene's, and Apply turns them back.
func TestPrefabInSubfolderRebasesAssets(t *testing.T) {
	tree := `{ "format": "voltex.scene", "version": 2, "entities": [
  { "id": 1, "name": "Trunk", "order": 1, "components": { "Mesh": { "asset": "trunk.obj" }, "Transform": {} } } ] }`
	dir := writeFiles(t, map[string]string{"props/tree.json": tree, "props/trunk.obj": "v 0 0 0\n", "props/pine.obj": "v 0 0 0\n",
		"level.json": `{ "format": "voltex.scene", "version": 2, "entities": [ { "id": 5, "order": 1, "prefab": "props/tree.json" } ] }`})
	s := loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	trunk := byName(t, s.World, entityByID(t, s.World, 5), "Trunk")
	meshes := ecs.NewMap[scene.Mesh](s.World)
	if got := meshes.Get(trunk).Asset; got != "props/trunk.obj" {
		t.Fatalf("instance mesh %q, want props/trunk.obj", got)
	}
	if out := saveText(t, s); strings.Contains(out, "instance") {
		t.Fatalf("nothing is overridden:\n%s", out)
	}
	meshes.Set(trunk, scene.Mesh{Asset: "props/pine.obj"})
	if out := saveText(t, s); !strings.Contains(out, `"Mesh": { "asset": "props/pine.obj" }`) {
		t.Fatalf("override in the scene's terms:\n%s", out)
	}
	_, data, err := serialize.ApplyToPrefab(context.Background(), s, trunk, "Mesh", "")
	if err != nil || !strings.Contains(string(data), `"asset": "pine.obj"`) {
		t.Fatalf("applied: %v\n%s", err, data)
	}
	meshes.Set(trunk, scene.Mesh{Asset: "elsewhere.obj"})
	if _, _, err := serialize.ApplyToPrefab(context.Background(), s, trunk, "Mesh", ""); err == nil || !strings.Contains(err.Error(), "outside the prefab's folder") {
		t.Fatalf("a mesh the prefab cannot name: %v", err)
	}
}

// Exports flatten instances: the export of a scene with instances is the export of the same
// scene unpacked, world matrices baked through the instances, and games read it as any export.
func TestExportFlattensInstances(t *testing.T) {
	dir := writeFiles(t, map[string]string{"lamp.json": lampPrefab, "wall.json": wallPrefab, "level.json": `{
  "format": "voltex.scene", "version": 2, "name": "L",
  "entities": [ { "id": 100, "name": "W", "order": 1, "prefab": "wall.json", "components": { "Transform": { "position": [10, 0, 0] } } },
                { "id": 101, "name": "W2", "order": 2, "prefab": "wall.json", "components": { "Transform": { "position": [-10, 0, 0] } } } ]
}`})
	s := loadFile(t, filepath.Join(dir, "level.json"), serialize.LoadOptions{})
	var inst bytes.Buffer
	if err := serialize.Export(context.Background(), &inst, s); err != nil {
		t.Fatal(err)
	}
	for _, id := range []uint64{100, 101} {
		if err := serialize.Unpack(s, entityByID(t, s.World, id)); err != nil {
			t.Fatal(err)
		}
		for _, nested := range []string{"Lamp L", "Lamp R"} {
			if err := serialize.Unpack(s, byName(t, s.World, entityByID(t, s.World, id), nested)); err != nil {
				t.Fatal(err)
			}
		}
	}
	var flat bytes.Buffer
	if err := serialize.Export(context.Background(), &flat, s); err != nil {
		t.Fatal(err)
	}
	if inst.String() != flat.String() {
		t.Fatalf("export of instances differs from the flattened scene's:\n%s\n---\n%s", inst.String(), flat.String())
	}
	g, err := game.Load(bytes.NewReader(inst.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Entities) != 12 {
		t.Fatalf("%d entities in the export, want 12 (2 instances of a wall with 2 lamps of 1 bulb)", len(g.Entities))
	}
	for _, e := range g.Entities {
		if e.Name == "Bulb" && e.HasColor && e.Color == [4]float32{1, 0, 0, 1} && e.World[12] != 14 && e.World[12] != -6 {
			t.Fatalf("right bulb at x=%v, want 14 or -6 (wall at ±10 scaled 4, lamp at +1)", e.World[12])
		}
	}
}

// A prefab instanced many times, nested many levels, cannot make more entities than the limit:
// ten levels of ten instances would be 10^10 entities.
func TestPrefabBombIsRefused(t *testing.T) {
	files := map[string]string{}
	for level := range 10 {
		var b strings.Builder
		b.WriteString(`{ "format": "voltex.scene", "version": 2, "entities": [`)
		for i := range 10 {
			if i > 0 {
				b.WriteString(",")
			}
			if level == 0 {
				fmt.Fprintf(&b, `{ "id": %d, "order": %d }`, i+1, i)
			} else {
				fmt.Fprintf(&b, `{ "id": %d, "order": %d, "prefab": "l%d.json" }`, i+1, i, level-1)
			}
		}
		b.WriteString("] }")
		files[fmt.Sprintf("l%d.json", level)] = b.String()
	}
	dir := writeFiles(t, files)
	_, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "l9.json"), serialize.LoadOptions{Limits: serialize.Limits{MaxEntities: 100_000}})
	if err == nil || !strings.Contains(err.Error(), "over the limit of 100,000 (Limits.MaxEntities)") {
		t.Fatalf("err = %v", err)
	}
}

// An export of a scene whose prefab is missing (kept as a placeholder) is refused: the game
// would miss the instance's entities.
func TestExportRefusesPlaceholders(t *testing.T) {
	dir := writeFiles(t, map[string]string{"level.json": twoInstances})
	s, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "level.json"), serialize.LoadOptions{KeepBroken: true})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := serialize.Export(context.Background(), &b, s); err == nil || !strings.Contains(err.Error(), "cannot be used") {
		t.Fatalf("export: %v", err)
	}
}

// The prefab files a scene instances count against its memory limit (Limits.MaxWorldBytes) with
// the entities of its instances: each loaded prefab holds a world of its own, so ten levels of
// nested prefabs around one big prefab took ten times the memory of the big prefab (54 MB of
// cubes and ten 100-byte files took 3.9 GB to validate, against a 3 GiB budget), each load
// within its limits. A prefab instanced twice is counted once, and a scene that fits loads.
func TestPrefabsCountAgainstTheMemoryLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{ "format": "voltex.scene", "version": 2, "entities": [`)
	for i := 1; i <= 2500; i++ {
		if i > 1 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{ "id": %d, "name": "Cube %d", "components": { "Color": { "rgba": [1, 0, 0, 1] }, "Mesh": { "asset": "builtin:cube" }, "Transform": { "position": [%d, 0, 0] } } }`, i, i, i)
	}
	b.WriteString("] }")
	files := map[string]string{"base.json": b.String()}
	instances := func(paths ...string) string {
		var b strings.Builder
		b.WriteString(`{ "format": "voltex.scene", "version": 2, "entities": [`)
		for i, p := range paths {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{ "id": %d, "order": %d, "prefab": %q }`, i+1, i, p)
		}
		b.WriteString("] }")
		return b.String()
	}
	prev := "base.json"
	for level := 1; level <= 10; level++ {
		name := fmt.Sprintf("level%d.json", level)
		files[name] = instances(prev)
		prev = name
	}
	files["nested.json"] = instances(prev)
	files["once.json"] = instances("base.json")
	files["twice.json"] = instances("base.json", "base.json")
	dir := writeFiles(t, files)
	lim := serialize.Limits{MaxWorldBytes: 4 << 20}
	for _, keep := range []bool{false, true} {
		_, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "nested.json"), serialize.LoadOptions{Limits: lim, KeepBroken: keep})
		if err == nil || !strings.Contains(err.Error(), "nested.json:1:") || !strings.Contains(err.Error(), "more than the limit of 4 MiB of memory") {
			t.Errorf("ten levels of nested prefabs (KeepBroken %v): err = %v", keep, err)
		}
	}
	for _, name := range []string{"once.json", "twice.json", "level1.json"} {
		s := loadFile(t, filepath.Join(dir, name), serialize.LoadOptions{Limits: lim})
		if len(s.Broken) > 0 {
			t.Errorf("%s: broken %v", name, s.Broken)
		}
	}
}

// TestUpdateReportsStructuralChanges: UpdateReport.Structural says whether the update spawned or despawned
// entities (callers keeping an index of entities rebuild it only then).
func TestUpdateReportsStructuralChanges(t *testing.T) {
	dir := t.TempDir()
	prefab := filepath.Join(dir, "p.json")
	v0 := `{ "format": "voltex.scene", "version": 2, "entities": [ { "id": 1, "name": "A", "order": 1, "components": { "Color": {} } } ] }`
	v1 := strings.Replace(v0, `"Color": {}`, `"Color": { "rgba": [1, 0, 0, 1] }`, 1)
	v2 := strings.Replace(v1, `] }`, `, { "id": 2, "name": "B", "order": 2, "components": {} } ] }`, 1)
	if err := os.WriteFile(prefab, []byte(v0), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := serialize.Load(context.Background(), strings.NewReader(`{ "format": "voltex.scene", "version": 2, "entities": [
  { "id": 10, "order": 1, "prefab": "p.json", "components": {} } ] }`), serialize.LoadOptions{File: filepath.Join(dir, "s.json")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text       string
		structural bool
	}{{v1, false}, {v2, true}, {v1, true}} {
		if err := os.WriteFile(prefab, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		rep := serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), prefab))
		if rep.Instances != 1 || rep.Structural != c.structural {
			t.Fatalf("%+v, want Structural %v", rep, c.structural)
		}
	}
}

// A prefab file that grows outside the editor (live updates) cannot take the scene past its limits:
// fifty instances of a two-entity prefab edited to hold a hundred entities would be 5,000 entities
// against a limit of 1,000. The instances become placeholders that say why (keeping their
// overrides), and follow the prefab again once it is small enough.
func TestLiveUpdateKeepsTheLimits(t *testing.T) {
	prefab := func(n int) string {
		var b strings.Builder
		b.WriteString(`{ "format": "voltex.scene", "version": 2, "entities": [`)
		for i := 1; i <= n; i++ {
			if i > 1 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{ "id": %d, "order": %d, "name": "part %d", "components": { "Transform": {} } }`, i, i, i)
		}
		b.WriteString("] }")
		return b.String()
	}
	var b strings.Builder
	b.WriteString(`{ "format": "voltex.scene", "version": 2, "entities": [`)
	for i := 1; i <= 50; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{ "id": %d, "order": %d, "prefab": "small.json" }`, i, i)
	}
	b.WriteString("] }")
	dir := writeFiles(t, map[string]string{"small.json": prefab(2), "scene.json": b.String()})
	s := loadFile(t, filepath.Join(dir, "scene.json"), serialize.LoadOptions{Limits: serialize.Limits{MaxEntities: 1000}})
	if n := s.World.Len(); n != 150 {
		t.Fatalf("loaded %d entities", n)
	}
	small := filepath.Join(dir, "small.json")
	write(t, small, prefab(100))
	rep := serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), small))
	if n := s.World.Len(); n > 1000 {
		t.Fatalf("after the prefab grew: %d entities, over the limit of 1,000", n)
	}
	if len(rep.Warnings) == 0 || !strings.Contains(strings.Join(rep.Warnings, "\n"), "limit of 1,000 entities") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	placeholders := 0
	ecs.NewQuery1[scene.Prefab](s.World).Each(func(e ecs.Entity, pf *scene.Prefab) {
		if pf.Problem != "" {
			placeholders++
		}
	})
	if placeholders != 50 {
		t.Errorf("%d placeholders, want 50", placeholders)
	}
	write(t, small, prefab(3))
	serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), small))
	if n := s.World.Len(); n != 200 {
		t.Errorf("after the prefab shrank: %d entities, want 200", n)
	}
}

// A prefab path that names a named pipe or a device is refused unread by the library's own loads
// too (without LoadOptions.CheckAsset, which the editor and the tools set): reading it would block
// the load for good.
func TestPrefabThatIsNotAFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"scene.json": `{ "format": "voltex.scene", "version": 2, "entities": [ { "id": 1, "prefab": "pipe.json" } ] }`})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "scene.json"), serialize.LoadOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("a prefab that is a named pipe: %v", err)
		}
	case <-time.After(time.Minute):
		if f, err := os.OpenFile(filepath.Join(dir, "pipe.json"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		}
		t.Fatal("a load blocked on a prefab that is a named pipe")
	}
}

// Prefab paths follow the asset path rule, and each refusal says what is wrong with the path (an
// empty one reads "empty prefab path").
func TestPrefabPathMessages(t *testing.T) {
	for path, want := range map[string]string{
		"":                `empty prefab path`,
		"../outside.json": `prefab path "../outside.json" refused: it climbs out of the scene folder`,
		"/etc/x.json":     `prefab absolute path "/etc/x.json" refused`,
		`C:\\x.json`:      `prefab absolute path`,
		"http://x/y.json": `prefab "http://x/y.json" is a URL`,
		".":               `prefab path "." names the scene folder itself`,
		"builtin:cube":    `"builtin:cube" is a built-in mesh; a prefab is a scene file`,
	} {
		text := fmt.Sprintf(`{ "format": "voltex.scene", "version": 2, "entities": [ { "id": 1, "prefab": %q } ] }`, path)
		_, err := serialize.Load(context.Background(), strings.NewReader(text), serialize.LoadOptions{File: "s.json"})
		if err == nil || !strings.Contains(err.Error(), "s.json:1:") || !strings.Contains(err.Error(), want) {
			t.Errorf("prefab %q: %v, want %q", path, err, want)
		}
	}
}

// An entity added under a prefab entity that the file removes from its instance is an error at its
// "parent", naming the removed entity and where the file removes it: it used to load as a root (and
// fmt dropped its parent, export made it a root), silently.
func TestAddedUnderARemovedPrefabEntity(t *testing.T) {
	weapon := scene.InstanceID(10, 2)
	body := scene.InstanceID(10, 1)
	for _, c := range []struct{ name, records, want string }{
		{"removed parent", `{ "id": ` + itoa(weapon) + `, "instance": 10, "source": 2, "removed": true },
    { "id": 50, "name": "Added", "parent": ` + itoa(weapon) + `, "order": 1 }`,
			"level.json:6:44: entities[2].parent: parent " + itoa(weapon) + " is entity 2 of prefab instance 10, which this file " +
				"removes (entities[1], 5:13)"},
		{"removed grandparent", `{ "id": ` + itoa(body) + `, "instance": 10, "source": 1, "removed": true },
    { "id": ` + itoa(weapon) + `, "instance": 10, "source": 2, "components": {} },
    { "id": 50, "name": "Added", "parent": ` + itoa(weapon) + `, "order": 1 }`,
			""},
	} {
		t.Run(c.name, func(t *testing.T) {
			level := `{ "format": "voltex.scene", "version": 2, "entities": [
    { "id": 10, "name": "Enemy", "order": 1, "prefab": "enemy.json" },
    ` + c.records + `
  ] }`
			level = strings.Replace(level, "{ \"format\"", "{\n  \"format\"", 1)
			level = strings.Replace(level, "\"entities\": [", "\n  \"entities\": [", 1)
			dir := writeFiles(t, map[string]string{"enemy.json": enemyPrefab, "level.json": level})
			s, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "level.json"), serialize.LoadOptions{})
			if c.want == "" {
				// The record of an entity under a removed one is kept as a placeholder; what is added
				// under it stays there.
				if err != nil {
					t.Fatal(err)
				}
				if p := s.World.Parent(entityByID(t, s.World, 50)); p != entityByID(t, s.World, weapon) {
					t.Fatalf("Added's parent is %v, want the placeholder of entity 2", p)
				}
				return
			}
			if err == nil {
				t.Fatalf("loaded; Added's parent is %v", s.World.Parent(entityByID(t, s.World, 50)))
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v\nwant %s", err, c.want)
			}
		})
	}
}
