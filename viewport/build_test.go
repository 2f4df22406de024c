package viewport

import (
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// gridWorld is a 3×3 cube grid under a group entity.
func gridWorld(t *testing.T) (*ecs.World, ecs.Entity, []ecs.Entity) {
	t.Helper()
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = [3]int{3, 1, 3}
	p.ColorFrom, p.ColorTo = [4]float32{1, 0, 0, 1}, [4]float32{0, 0, 1, 1}
	p.Group = "Cubes"
	p.Origin = mgl32.Vec3{8, 0.5, 8} // every cube in one cell (chunk) of the draw list
	g, cubes := scene.SpawnGrid(w, p)
	return w, g, cubes
}

func dirty(dl *DrawList) int {
	n := 0
	for _, b := range dl.Batches() {
		for _, c := range b.Chunks() {
			n += c.DirtyCount()
		}
	}
	return n
}

func clearDirty(dl *DrawList) {
	for _, b := range dl.Batches() {
		for _, c := range b.Chunks() {
			c.ClearDirty()
		}
	}
}

func TestBuilder(t *testing.T) {
	w, group, cubes := gridWorld(t)
	b := NewBuilder(w, BuiltinMeshes{})
	dl := b.DrawList()
	tr := ecs.NewMap[ecs.Transform](w)
	colors := ecs.NewMap[scene.Color](w)
	meshes := ecs.NewMap[scene.Mesh](w)
	check := func(step string, wantChanged bool, wantDirty, wantLen int) {
		t.Helper()
		if got := b.Update(); got != wantChanged {
			t.Errorf("%s: Update() = %v, want %v", step, got, wantChanged)
		}
		if n := dirty(dl); n != wantDirty {
			t.Errorf("%s: %d dirty instances, want %d", step, n, wantDirty)
		}
		if dl.Len() != wantLen {
			t.Errorf("%s: %d instances, want %d", step, dl.Len(), wantLen)
		}
		if err := dl.Check(); err != nil {
			t.Errorf("%s: %v", step, err)
		}
		// Every instance matches its entity.
		dl.IDs(func(id uint32) {
			e, ok := b.Entity(id)
			in, ref, _ := dl.Get(id)
			if !ok || in.World != w.WorldMatrix(e) {
				t.Errorf("%s: instance %d (%v) world %v, entity's %v", step, id, e, in.World, w.WorldMatrix(e))
			}
			if c := colors.Get(e).RGBA; in.Color != c {
				t.Errorf("%s: instance %d colour %v, entity's %v", step, id, in.Color, c)
			}
			if m := meshes.Get(e).Asset; ref != m && !(ref == "builtin:placeholder" && m == "models/missing.obj") {
				t.Errorf("%s: instance %d in batch %q, entity's mesh %q", step, id, ref, m)
			}
		})
		clearDirty(dl)
	}
	check("first build: every cube", true, 9, 9)
	check("idle: nothing", false, 0, 9)

	tr.Set(cubes[4], ecs.Transform{Position: mgl32.Vec3{0, 2, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	check("one transform edit", true, 1, 9)

	if err := w.SetField(cubes[2], mustID[scene.Color](t, w), "rgba[1]", float32(0.5)); err != nil {
		t.Fatal(err)
	}
	check("one colour field edit", true, 1, 9)

	meshes.Set(cubes[0], scene.Mesh{Asset: scene.MeshSphere})
	check("mesh change moves batch", true, 2, 9) // new slot in the sphere batch + the cube moved into the hole
	if _, ref, _ := dl.Get(EntityID(cubes[0])); ref != assets.BuiltinSphere {
		t.Errorf("cube 0 in batch %q", ref)
	}

	meshes.Set(cubes[1], scene.Mesh{Asset: "models/missing.obj"})
	check("a broken reference draws the placeholder", true, 2, 9)

	g := tr.Get(group)
	g.Position = g.Position.Add(mgl32.Vec3{10, 0, 0})
	tr.Set(group, g)
	check("moving the parent moves every child", true, 9, 9)

	cb := dl.Batch(assets.BuiltinCube).Chunks()[1] // (the first chunk, of the cells before the move, is empty)
	if cb.Len() != 7 {
		t.Fatalf("the moved cubes are in %d chunks", len(dl.Batch(assets.BuiltinCube).Chunks()))
	}
	last, _ := b.Entity(cb.Instances[cb.Len()-1].ID)
	w.Despawn(last)
	check("despawn the last slot: nothing moves", true, 0, 8)
	first, _ := b.Entity(cb.Instances[0].ID)
	w.Despawn(first)
	check("despawn the first slot: the last moves in", true, 1, 7)
	if _, ok := b.Entity(EntityID(first)); ok {
		t.Error("Entity of a despawned id still resolves")
	}
	second, _ := b.Entity(cb.Instances[1].ID)
	if err := w.Remove(second, mustID[scene.Mesh](t, w)); err != nil {
		t.Fatal(err)
	}
	check("losing the Mesh component", true, 1, 6)

	sel := []ecs.Entity{cubes[4], cubes[2]}
	v, sv := dl.Version(), dl.SelectionVersion()
	b.SetSelection(slices.Values(sel))
	check("selection", false, 0, 6) // no instance changes: the selection is the list's own
	if dl.Version() != v || dl.SelectionVersion() == sv {
		t.Errorf("selecting changed the list's version (%d → %d) or not its selection version (%d → %d)", v, dl.Version(), sv, dl.SelectionVersion())
	}
	for _, c := range sel {
		if !dl.Selected(EntityID(c)) {
			t.Errorf("%v not selected", c)
		}
	}
	// A new entity that is already selected appears selected.
	e := w.Spawn(&ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}}, &scene.Mesh{Asset: scene.MeshCube}, &scene.Color{RGBA: [4]float32{0, 1, 0, 1}})
	b.SetSelection(slices.Values([]ecs.Entity{e}))
	clearDirty(dl)
	check("spawn", true, 1, 7)
	if !dl.Selected(EntityID(e)) {
		t.Error("spawned selected entity not selected")
	}
	check("idle again", false, 0, 7)

	// Reloading meshes re-points batches without touching instances.
	before := dl.Version()
	b.ReloadMeshes()
	if dl.Version() != before || dirty(dl) != 0 {
		t.Errorf("ReloadMeshes with unchanged meshes changed the list")
	}
}

func mustID[T any](t *testing.T, w *ecs.World) ecs.ComponentID {
	id, ok := ecs.ComponentIDOf[T](w)
	if !ok {
		t.Fatalf("component not registered")
	}
	return id
}

// TestIdleViewportRendersNothing checks the idle rule without a
// display: an idle editor renders 0 frames over 2 s (120 frames at 60 Hz),
// and exactly one after a single field edit.
func TestIdleViewportRendersNothing(t *testing.T) {
	w, _, cubes := gridWorld(t)
	b := NewBuilder(w, BuiltinMeshes{})
	cam := DefaultCamera()
	var p RedrawPolicy
	frame := func() Reason {
		b.Update()
		return p.Decide(FrameState{SceneTick: b.DrawList().Version(), Camera: cam, Width: 800, Height: 600})
	}
	if frame() == 0 {
		t.Fatal("first frame did not render")
	}
	start := p.Renders()
	for range 120 {
		frame()
	}
	if n := p.Renders() - start; n != 0 {
		t.Fatalf("idle for 2 s: %d renders, want 0", n)
	}
	if err := w.SetField(cubes[0], mustID[ecs.Transform](t, w), "position[1]", float32(3)); err != nil {
		t.Fatal(err)
	}
	for range 120 {
		frame()
	}
	if n := p.Renders() - start; n != 1 {
		t.Fatalf("one field edit: %d renders, want 1", n)
	}
}

func BenchmarkBuilderIdle(b *testing.B) {
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 1, 100}
	scene.SpawnGrid(w, p)
	bl := NewBuilder(w, BuiltinMeshes{})
	bl.Update()
	for b.Loop() {
		bl.Update()
	}
	b.ReportMetric(float64(bl.DrawList().Len()), "instances")
}

func BenchmarkBuilderSpin(b *testing.B) {
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 1, 100}
	p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 45}
	scene.SpawnGrid(w, p)
	bl := NewBuilder(w, BuiltinMeshes{})
	bl.Update()
	for b.Loop() {
		scene.ApplySpin(w, 1.0/60)
		bl.Update()
		clearDirty(bl.DrawList())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(bl.DrawList().Len()), "ns/instance")
}

// NewBuilder registers nothing in the caller's world: a world without the scene components is a
// programmer error with the fix in the message.
func TestNewBuilderLeavesRegistrationAlone(t *testing.T) {
	w := ecs.NewWorld()
	n := len(w.ComponentIDs())
	defer func() {
		r := recover()
		if msg, _ := r.(string); !strings.Contains(msg, "scene.Register(w)") {
			t.Fatalf("panic %v, want one naming scene.Register", r)
		}
		if len(w.ComponentIDs()) != n {
			t.Fatalf("NewBuilder registered %d components in the caller's world", len(w.ComponentIDs())-n)
		}
	}()
	NewBuilder(w, BuiltinMeshes{})
}

// BenchmarkBuilderFirstBuild: the first Update of a new builder over a grid of 200,000 cubes (the list a scene's
// open builds; a million cubes' is five times this).
func BenchmarkBuilderFirstBuild(b *testing.B) {
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = [3]int{200, 10, 100}
	scene.SpawnGrid(w, p)
	w.PropagateTransforms()
	benchFirstBuild(b, w)
}

// BenchmarkBuilderFirstBuildShuffled is BenchmarkBuilderFirstBuild over cubes whose places are shuffled among
// them: a scene read from a file holds its entities in id order, which is no order of their places.
func BenchmarkBuilderFirstBuildShuffled(b *testing.B) {
	w, _ := shuffledGrid([3]int{200, 10, 100}, scene.DefaultGrid().Spacing[0])
	benchFirstBuild(b, w)
}

// benchFirstBuild times the first Update of a new builder over w.
func benchFirstBuild(b *testing.B, w *ecs.World) {
	var n int
	for b.Loop() {
		bl := NewBuilder(w, BuiltinMeshes{})
		bl.Update()
		n = bl.DrawList().Len()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/instance")
}

// The builder's arrays by entity index grow to the world's room for entities at once (World.IndexCap): spawns
// the world has room for grow none of them, and every entity keeps its place.
func TestBuilderArraysFollowWorldRoom(t *testing.T) {
	w, cubes := flatGrid(10, 1, 10)
	w.ReserveLike(cubes[0], 500)
	b := NewBuilder(w, BuiltinMeshes{})
	b.Update()
	if len(b.ents) < w.IndexCap() || len(b.placed) != len(b.ents) {
		t.Fatalf("after the first build: %d entities, %d placed marks for a world with room for %d", len(b.ents), len(b.placed), w.IndexCap())
	}
	ents, placed, room := &b.ents[0], &b.placed[0], w.IndexCap()
	p := scene.DefaultGrid()
	p.Count = [3]int{20, 1, 20}
	p.Origin = mgl32.Vec3{0, 10, 0}
	_, more := scene.SpawnGrid(w, p)
	b.Update()
	if w.IndexCap() != room {
		t.Fatalf("the world's room changed (%d -> %d): the test spawns too many", room, w.IndexCap())
	}
	if &b.ents[0] != ents || &b.placed[0] != placed {
		t.Fatal("a spawn the world had room for grew the builder's arrays")
	}
	for _, e := range append(cubes, more...) {
		if got, ok := b.Entity(EntityID(e)); !ok || got != e {
			t.Fatalf("entity %v not found by its id", e)
		}
	}
	// Past the room, they grow with the world's records.
	p.Count = [3]int{30, 1, 30}
	p.Origin = mgl32.Vec3{0, 20, 0}
	_, most := scene.SpawnGrid(w, p)
	b.Update()
	last := most[len(most)-1]
	if got, ok := b.Entity(EntityID(last)); len(b.ents) < w.IndexCap() || !ok || got != last {
		t.Fatalf("past the room: %d entities for a world with room for %d", len(b.ents), w.IndexCap())
	}
}
