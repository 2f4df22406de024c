package serialize_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// randomPrefab returns a random prefab world: up to 6 entities with ids 1.., random parents,
// names and components.
func randomPrefab(r *rand.Rand) *ecs.World {
	w := scene.NewWorld()
	n := 1 + r.IntN(6)
	var es []ecs.Entity
	for i := range n {
		e := w.Spawn(&scene.SceneID{ID: uint64(i + 1), Order: float64(1 + r.IntN(3))})
		randomComps(r, w, e)
		if r.IntN(4) > 0 {
			ecs.NewMap[scene.Name](w).Add(e, scene.Name{Value: fmt.Sprintf("E%d", r.IntN(5))})
		}
		if i > 0 && r.IntN(3) > 0 {
			_ = w.SetParent(e, es[r.IntN(i)])
		}
		es = append(es, e)
	}
	return w
}

// randomComps gives e a random set of components with random values.
func randomComps(r *rand.Rand, w *ecs.World, e ecs.Entity) {
	if r.IntN(4) > 0 {
		ecs.NewMap[ecs.Transform](w).Add(e, ecs.Transform{Position: mgl32.Vec3{float32(r.IntN(5)), 0, float32(r.IntN(3))},
			Scale: mgl32.Vec3{1, float32(1 + r.IntN(2)), 1}})
	}
	if r.IntN(2) > 0 {
		ecs.NewMap[scene.Color](w).Add(e, scene.Color{RGBA: [4]float32{float32(r.IntN(3)) / 2, 1, 0, 1}})
	}
	if r.IntN(3) == 0 {
		ecs.NewMap[scene.Spin](w).Add(e, scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: float32(r.IntN(90))})
	}
	if r.IntN(3) == 0 {
		ecs.NewMap[scene.Mesh](w).Add(e, scene.Mesh{Asset: []string{scene.MeshCube, scene.MeshSphere}[r.IntN(2)]})
	}
}

// mutatePrefab changes a prefab world at random: values, names, components, entities added and
// removed, parents.
func mutatePrefab(r *rand.Rand, w *ecs.World) {
	es := scene.EnsureIDs(w)
	for range 1 + r.IntN(4) {
		if len(es) == 0 {
			break
		}
		e := es[r.IntN(len(es))]
		if !w.Alive(e) {
			continue
		}
		switch r.IntN(8) {
		case 0: // values
			if c, ok := ecs.NewMap[scene.Color](w).TryGet(e); ok {
				c.RGBA[2] = float32(r.IntN(3)) / 2
				ecs.NewMap[scene.Color](w).Set(e, c)
			}
		case 1:
			if t, ok := ecs.NewMap[ecs.Transform](w).TryGet(e); ok {
				t.Position[1] = float32(r.IntN(4))
				ecs.NewMap[ecs.Transform](w).Set(e, t)
			}
		case 2: // a component less
			if ids := w.ComponentsOf(e); len(ids) > 0 {
				id := ids[r.IntN(len(ids))]
				if n := w.ComponentInfo(id).Name; n == "Color" || n == "Spin" || n == "Mesh" || n == "Transform" {
					_ = w.Remove(e, id)
				}
			}
		case 3: // a component more (or changed)
			randomComps(r, w, w.Spawn()) // keeps the random stream aligned
			if !ecs.NewMap[scene.Spin](w).Has(e) {
				ecs.NewMap[scene.Spin](w).Add(e, scene.Spin{Axis: mgl32.Vec3{1, 0, 0}, Speed: 7})
			}
		case 4: // renamed
			m := ecs.NewMap[scene.Name](w)
			if m.Has(e) {
				m.Set(e, scene.Name{Value: fmt.Sprintf("R%d", r.IntN(5))})
			} else {
				m.Add(e, scene.Name{Value: "New name"})
			}
		case 5: // an entity more
			x := w.Spawn(&scene.SceneID{ID: uint64(100 + r.IntN(1000)), Order: 9})
			randomComps(r, w, x)
			if r.IntN(2) == 0 {
				_ = w.SetParent(x, e)
			}
		case 6: // an entity less (with its children)
			w.DespawnRecursive(e)
		case 7: // moved
			p := es[r.IntN(len(es))]
			if w.Alive(p) && p != e && !isAncestor(w, e, p) {
				_ = w.SetParent(e, p)
			}
		}
	}
	// Entities spawned only to keep the stream aligned have no id: drop them.
	for _, e := range scene.EnsureIDs(w) {
		if ecs.NewMap[scene.SceneID](w).Get(e).ID > 100_000 {
			w.Despawn(e)
		}
	}
}

func isAncestor(w *ecs.World, a, b ecs.Entity) bool {
	for p := b; !p.IsZero(); p = w.Parent(p) {
		if p == a {
			return true
		}
	}
	return false
}

// editInstances changes the entities of the scene's instances at random, as a user would in the
// editor: values, names, components, entities deleted (with their subtrees), entities added.
func editInstances(r *rand.Rand, w *ecs.World) {
	parts := ecs.NewMap[scene.PrefabPart](w)
	var ps []ecs.Entity
	for _, e := range scene.EnsureIDs(w) {
		if parts.Has(e) {
			ps = append(ps, e)
		}
	}
	for range r.IntN(6) {
		if len(ps) == 0 {
			return
		}
		e := ps[r.IntN(len(ps))]
		if !w.Alive(e) {
			continue
		}
		switch r.IntN(7) {
		case 0:
			m := ecs.NewMap[scene.Color](w)
			if c, ok := m.TryGet(e); ok {
				c.RGBA[0] = 0.25
				m.Set(e, c)
			}
		case 1:
			m := ecs.NewMap[ecs.Transform](w)
			if t, ok := m.TryGet(e); ok {
				t.Position[0] = 42
				m.Set(e, t)
			}
		case 2:
			if ids := w.ComponentsOf(e); len(ids) > 0 {
				id := ids[r.IntN(len(ids))]
				if n := w.ComponentInfo(id).Name; n == "Color" || n == "Spin" || n == "Mesh" {
					_ = w.Remove(e, id)
				}
			}
		case 3:
			if !ecs.NewMap[scene.Camera](w).Has(e) {
				ecs.NewMap[scene.Camera](w).Add(e, scene.Camera{FOV: 50, Near: 1, Far: 10})
			}
		case 4:
			m := ecs.NewMap[scene.Name](w)
			if m.Has(e) {
				m.Set(e, scene.Name{Value: "Renamed"})
			} else {
				m.Add(e, scene.Name{Value: "Named"})
			}
		case 5:
			w.DespawnRecursive(e)
		case 6:
			c := w.Spawn(&scene.Name{Value: "Added"}, &scene.SceneID{ID: scene.NewID(w), Order: 5},
				&ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}})
			_ = w.SetParent(c, e)
		}
	}
}

func saveWorld(t testing.TB, w *ecs.World) string {
	t.Helper()
	var b bytes.Buffer
	if err := serialize.Save(context.Background(), &b, &serialize.Scene{World: w}, serialize.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	prefabSeeds    = flag.Uint64("prefab-seeds", 300, "random cases run by TestPrefabProperties")
	prefabSeedFrom = flag.Uint64("prefab-seed-from", 0, "first seed of TestPrefabProperties")
)

// TestPrefabProperties checks, for random prefabs, scenes, instance edits and prefab edits, that
//
//   - save then load gives back the same file (round trip, byte for byte);
//   - updating live instances to an edited prefab gives what saving under the old prefab and
//     loading under the new one gives (UpdateInstances ≡ reload);
//   - the instances hold what a simple model says they should: the prefab's values with the
//     file's overrides applied, field by field ("flatten then compare").
//
// make test runs seeds 0..299; make fuzz runs 20,000 more (go test ./serialize -run
// TestPrefabProperties -args -prefab-seeds 20000 -prefab-seed-from 300).
func TestPrefabProperties(t *testing.T) {
	for seed := *prefabSeedFrom; seed < *prefabSeedFrom+*prefabSeeds; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { prefabProperty(t, seed) })
	}
}

func prefabProperty(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 99))
	p0 := randomPrefab(r)
	dir := t.TempDir()
	prefabPath := filepath.Join(dir, "p.json")
	p0Text := saveWorld(t, p0)
	write(t, prefabPath, p0Text)
	var sc strings.Builder
	sc.WriteString(`{ "format": "voltex.scene", "version": 2, "entities": [`)
	k := 1 + r.IntN(3)
	for i := range k {
		if i > 0 {
			sc.WriteString(",")
		}
		fmt.Fprintf(&sc, `{ "id": %d, "name": "I%d", "order": %d, "prefab": "p.json", "components": { "Transform": {} } }`, 1000+i, i, i)
	}
	sc.WriteString("] }")
	scenePath := filepath.Join(dir, "s.json")
	write(t, scenePath, sc.String())
	s := loadFile(t, scenePath, serialize.LoadOptions{})
	editInstances(r, s.World)
	s1 := saveText(t, s)
	write(t, scenePath, s1)
	// Round trip.
	rt := loadFile(t, scenePath, serialize.LoadOptions{})
	if got := saveText(t, rt); got != s1 {
		t.Fatalf("round trip differs:\n--- saved\n%s\n--- loaded and saved\n%s\n--- prefab\n%s", s1, got, p0Text)
	}
	// The prefab changes under the live instances.
	mutatePrefab(r, p0)
	p1Text := saveWorld(t, p0)
	write(t, prefabPath, p1Text)
	ch := s.Prefabs.Reload(context.Background(), prefabPath)
	serialize.UpdateInstances(s, ch)
	live := saveText(t, s)
	fresh := loadFile(t, scenePath, serialize.LoadOptions{KeepBroken: true})
	if want := saveText(t, fresh); live != want {
		t.Fatalf("live update differs from a reload:\n--- live\n%s\n--- reload\n%s\n--- scene before\n%s\n--- prefab before\n%s\n--- prefab after\n%s",
			live, want, s1, p0Text, p1Text)
	}
	// Flatten then compare: the reloaded instances against the model.
	checkModel(t, fresh, s1, p1Text)
	// Now and then the prefab goes missing and comes back: placeholders keep everything.
	if seed%3 == 0 {
		write(t, scenePath, live)
		if err := os.Remove(prefabPath); err != nil {
			t.Fatal(err)
		}
		serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), prefabPath))
		if got := saveText(t, s); got != live {
			t.Fatalf("with the prefab missing the scene saves differently:\n%s\n--- before\n%s", got, live)
		}
		write(t, prefabPath, p1Text)
		serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), prefabPath))
		if got := saveText(t, s); got != live {
			t.Fatalf("after the prefab came back the scene saves differently:\n%s\n--- before\n%s", got, live)
		}
	}
}

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readRawText(t testing.TB, text string) *serialize.RawScene {
	t.Helper()
	rs, err := serialize.ReadRaw(context.Background(), strings.NewReader(text), serialize.LoadOptions{File: "x.json"})
	if err != nil {
		t.Fatalf("read raw: %v\n%s", err, text)
	}
	return rs
}

type flatEnt struct {
	parent int64
	name   string
	comps  map[string]string
}

// checkModel compares the instances of s (loaded from sceneText under the prefab prefabText) with
// a model built from the two files' text alone: each instance holds the prefab's entities minus
// the removed ones, each with the prefab's values and the record's fields laid over them.
func checkModel(t *testing.T, s *serialize.Scene, sceneText, prefabText string) {
	t.Helper()
	sr, pr := readRawText(t, sceneText), readRawText(t, prefabText)
	want := map[int64]flatEnt{}
	for i := range sr.Entities {
		root := &sr.Entities[i]
		if root.Prefab == "" {
			continue
		}
		recs := map[int64]*serialize.RawEntity{}
		for j := range sr.Entities {
			if e := &sr.Entities[j]; e.Instance == root.ID {
				recs[e.Source] = e
			}
		}
		gone := map[int64]bool{}
		// Prefab entities parents first.
		order := slices.Clone(pr.Entities)
		slices.SortStableFunc(order, func(a, b serialize.RawEntity) int { return depth(pr, &a) - depth(pr, &b) })
		for _, pe := range order {
			if gone[pe.Parent] || recs[pe.ID] != nil && recs[pe.ID].Removed {
				gone[pe.ID] = true
				continue
			}
			fe := flatEnt{name: pe.Name, comps: map[string]string{}, parent: root.ID}
			if pe.Parent != 0 {
				fe.parent = int64(scene.InstanceID(uint64(root.ID), uint64(pe.Parent)))
			}
			for _, c := range pe.Components {
				fe.comps[c.Name] = c.JSON
			}
			if rec := recs[pe.ID]; rec != nil {
				if rec.HasName {
					fe.name = rec.Name
				}
				for _, c := range rec.Components {
					switch base, ok := fe.comps[c.Name]; {
					case c.JSON == "null":
						delete(fe.comps, c.Name)
					case ok:
						fe.comps[c.Name] = mergeJSON(t, base, c.JSON)
					default: // added: the fields it gives over the component's defaults
						fe.comps[c.Name] = mergeJSON(t, defaultJSON(t, c.Name), c.JSON)
					}
				}
			}
			want[int64(scene.InstanceID(uint64(root.ID), uint64(pe.ID)))] = fe
		}
	}
	// The world, flattened: every entity of an instance with its values.
	w := s.World
	parts := ecs.NewMap[scene.PrefabPart](w)
	kept := ecs.NewMap[scene.PrefabKept](w)
	sids := ecs.NewMap[scene.SceneID](w)
	flat := scene.NewWorld()
	got := map[int64]flatEnt{}
	for _, e := range scene.EnsureIDs(w) {
		if k, _ := kept.TryGet(e); !parts.Has(e) || k.Orphan {
			continue
		}
		clone := flat.Spawn()
		for _, id := range w.ComponentsOf(e) {
			info := w.ComponentInfo(id)
			if info.Computed || scene.IsTransient(info) || info.Name == "SceneID" || info.Name == "Name" {
				continue
			}
			v, _ := w.Get(e, id)
			fid, _ := flat.ComponentByName(info.Name)
			_ = flat.Add(clone, fid, v)
		}
		fe := flatEnt{parent: int64(sids.Get(w.Parent(e)).ID), comps: map[string]string{}}
		n, _ := ecs.NewMap[scene.Name](w).TryGet(e)
		fe.name = n.Value
		raw := readRawText(t, saveWorld(t, flat))
		for _, c := range raw.Entities[0].Components {
			fe.comps[c.Name] = c.JSON
		}
		flat.Despawn(clone)
		got[int64(sids.Get(e).ID)] = fe
	}
	for id, we := range want {
		ge, ok := got[id]
		if !ok {
			t.Errorf("model has entity %d (%+v), the world does not", id, we)
			continue
		}
		if ge.parent != we.parent || ge.name != we.name || fmt.Sprint(ge.comps) != fmt.Sprint(we.comps) {
			t.Errorf("entity %d:\n world %+v\n model %+v", id, ge, we)
		}
	}
	for id := range got {
		if _, ok := want[id]; !ok {
			t.Errorf("the world has entity %d, the model does not", id)
		}
	}
	if t.Failed() {
		t.Logf("scene:\n%s\nprefab:\n%s", sceneText, prefabText)
	}
}

func depth(s *serialize.RawScene, e *serialize.RawEntity) int {
	d := 0
	for p := e.Parent; p != 0; p = s.Entity(p).Parent {
		d++
	}
	return d
}

// mergeJSON lays the fields of over on base (objects field by field, other values whole).
func mergeJSON(t *testing.T, base, over string) string {
	b, err1 := jsonpos.Parse([]byte(base), jsonpos.Limits{})
	o, err2 := jsonpos.Parse([]byte(over), jsonpos.Limits{})
	if err1 != nil || err2 != nil {
		t.Fatalf("merge %s %s", base, over)
	}
	var merge func(b, o *jsonpos.Value) jsonpos.Value
	merge = func(b, o *jsonpos.Value) jsonpos.Value {
		if b.Kind() != jsonpos.Object || o.Kind() != jsonpos.Object {
			return *o
		}
		out := b.Clone()
		for i := range o.Len() {
			m := o.Index(i)
			if bm := b.Get(m.Key()); bm != nil {
				out.Set(m.Key(), merge(bm, m))
			} else {
				out.Set(m.Key(), *m)
			}
		}
		return out
	}
	r := merge(&b, &o)
	return string(jsonpos.AppendInline(nil, &r))
}

// defaultJSON returns the JSON of the default value of a built-in component.
func defaultJSON(t *testing.T, name string) string {
	w := scene.NewWorld()
	id, ok := w.ComponentByName(name)
	if !ok {
		t.Fatalf("no component %s", name)
	}
	e := w.Spawn()
	_ = w.Add(e, id, nil)
	raw := readRawText(t, saveWorld(t, w))
	js, _ := raw.Entities[0].Component(name)
	return js
}
