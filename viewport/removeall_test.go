package viewport

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// TestRemoveAllAsRemoveOfEach: RemoveAll leaves a list as Remove of every instance does — no instance, the content
// hash of none, nothing flagged, every changed chunk's damage unknown or covering it, the selection kept — and
// the instances added back after either give the same list.
func TestRemoveAllAsRemoveOfEach(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 9))
	var ins []Instance
	refs := []string{"builtin:cube", "builtin:plane", "models/a.obj"}
	for i := range 5000 {
		in := Instance{World: mgl32.Translate3D(r.Float32()*400, r.Float32()*40, r.Float32()*400), ID: uint32(i + 1)}
		if r.IntN(5) == 0 {
			in.Flags |= FlagSelected
		}
		ins = append(ins, in)
	}
	fill := func(d *DrawList) {
		for i, in := range ins {
			d.Set(refs[i%len(refs)], in)
		}
	}
	each, all := NewDrawList(), NewDrawList()
	empty := NewDrawList().ContentHash()
	for _, d := range []*DrawList{each, all} {
		fill(d)
		d.SetSelection([]uint32{3, 7, 4999})
	}
	full := each.ContentHash()
	changes := map[*Chunk]uint64{}
	for _, b := range all.Batches() {
		for _, c := range b.Chunks() {
			changes[c] = c.Changes()
		}
	}
	v := all.Version()
	for _, in := range ins {
		each.Remove(in.ID)
	}
	all.RemoveAll()
	for name, d := range map[string]*DrawList{"Remove of each": each, "RemoveAll": all} {
		if err := d.Check(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d.Len() != 0 || d.Flagged() != 0 || d.ContentHash() != empty || d.SelectionLen() != 3 || !d.Selected(4999) {
			t.Fatalf("%s: %d instances, %d flagged, hash %x (none's %x), %d selected", name, d.Len(), d.Flagged(),
				d.ContentHash(), empty, d.SelectionLen())
		}
	}
	if all.Version() == v {
		t.Error("RemoveAll left the version")
	}
	for _, b := range all.Batches() {
		for _, c := range b.Chunks() {
			if c.Len() != 0 || c.Changes() == changes[c] {
				t.Fatalf("chunk of %s: %d instances, changes %d (before %d)", b.Ref, c.Len(), c.Changes(), changes[c])
			}
			if _, _, ok := c.Damage(); ok {
				t.Fatalf("chunk of %s: its damage is known after RemoveAll", b.Ref)
			}
		}
	}
	for _, d := range []*DrawList{each, all} {
		fill(d)
		if err := d.Check(); err != nil {
			t.Fatal(err)
		}
	}
	if each.ContentHash() != full || all.ContentHash() != full || all.Len() != len(ins) || all.Flagged() != each.Flagged() {
		t.Fatalf("added back: hashes %x, %x (before %x), %d instances", each.ContentHash(), all.ContentHash(), full, all.Len())
	}
}

// TestBuilderSweepsAnEmptiedWorld: once every entity is gone (a delete of all) the builder empties the list at
// once, hidden and broken entities' records too, and the entities spawned back are drawn as before.
func TestBuilderSweepsAnEmptiedWorld(t *testing.T) {
	w, cubes := flatGrid(30, 2, 30)
	b := NewBuilder(w, BuiltinMeshes{})
	hidden := cubes[7]
	b.SetHide(func(e ecs.Entity) bool { return e == hidden })
	b.Update()
	dl := b.DrawList()
	before, n := dl.ContentHash(), dl.Len()
	if n != len(cubes)-1 || len(b.hidden) != 1 {
		t.Fatalf("%d instances, %d hidden", n, len(b.hidden))
	}
	cols := copyAll(t, w, cubes)
	w.DespawnAll(cubes)
	if !b.Update() {
		t.Fatal("Update after every entity went reports no change")
	}
	if err := dl.Check(); err != nil || dl.Len() != 0 || len(b.hidden) != 0 || len(b.broken) != 0 {
		t.Fatalf("after every entity went: %v, %d instances, %d hidden, %d broken", err, dl.Len(), len(b.hidden), len(b.broken))
	}
	cubes = w.SpawnValues(cols, 0, len(cubes))
	hidden = cubes[7]
	b.SetHide(func(e ecs.Entity) bool { return e == hidden })
	b.Update()
	if err := dl.Check(); err != nil || dl.Len() != n || dl.ContentHash() != before {
		t.Fatalf("spawned back: %v, %d instances (want %d), hash %x (before %x)", err, dl.Len(), n, dl.ContentHash(), before)
	}
	dl.IDs(func(id uint32) {
		if e, ok := b.Entity(id); !ok || dl.Len() == 0 || e == hidden {
			t.Fatal(fmt.Sprint("instance ", id, " of ", e, ": not a drawn entity"))
		}
	})
}

// TestChunkBoundsIsTheUnionOfBoxes: a chunk's box is, bit for bit, the union of its instances' boxes that are
// finite (finiteBox of the mesh's box transformed by the world matrix), for rotated, scaled, mirrored, -0, huge and
// non-finite matrices, of a unit cube, a mesh's box, a flat and an empty one.
func TestChunkBoundsIsTheUnionOfBoxes(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	negZero := float32(math.Copysign(0, -1))
	odd := []float32{negZero, 0, 3e38, -3e38, float32(math.Inf(1)), float32(math.NaN()), 1e-40}
	meshes := []*assets.Mesh{nil, {Min: mgl32.Vec3{-2, 0, -1}, Max: mgl32.Vec3{3, 5, 0.25}},
		{Min: mgl32.Vec3{-1, 0, -1}, Max: mgl32.Vec3{1, 0, 1}}, {Min: mgl32.Vec3{1, 1, 1}, Max: mgl32.Vec3{-1, -1, -1}}}
	for round := range 200 {
		mesh := meshes[round%len(meshes)]
		d := NewDrawList()
		for i := range 1 + r.IntN(300) {
			tr := ecs.Transform{
				Position: mgl32.Vec3{(r.Float32() - 0.5) * 1000, r.Float32() * 10, negZero},
				Rotation: mgl32.Vec3{r.Float32() * 360, r.Float32() * 360, r.Float32() * 360},
				Scale:    mgl32.Vec3{r.Float32()*4 - 2, 1, r.Float32() + 0.1},
			}
			m := tr.Matrix()
			if r.IntN(10) == 0 {
				m[r.IntN(16)] = odd[r.IntN(len(odd))]
			}
			d.Set("m", Instance{World: m, ID: uint32(i + 1)})
		}
		d.SetMesh("m", mesh)
		for _, c := range d.Batches()[0].Chunks() {
			want := EmptyAABB()
			for i := range c.Instances {
				want = want.Union(finiteBox(MeshBounds(mesh).Transform(c.Instances[i].World)))
			}
			c.boundsValid = false
			got := c.Bounds()
			for k := range 3 {
				if math.Float32bits(got.Min[k]) != math.Float32bits(want.Min[k]) ||
					math.Float32bits(got.Max[k]) != math.Float32bits(want.Max[k]) {
					t.Fatalf("round %d: box %v, the union of the boxes %v", round, got, want)
				}
			}
		}
	}
}

// TestInstancesGoToTheirRefsBatch: instances of several meshes, in runs and alternating, each land in the batch
// of their own reference (the batch found last is asked first).
func TestInstancesGoToTheirRefsBatch(t *testing.T) {
	d := NewDrawList()
	refs := []string{"a", "a", "b", "a", "c", "c", "b", "a"}
	for i, ref := range refs {
		d.Set(ref, Instance{World: mgl32.Translate3D(float32(i), 0, 0), ID: uint32(i + 1)})
		if b := d.Batch(ref); b.Ref != ref {
			t.Fatalf("Batch(%q) is %q", ref, b.Ref)
		}
	}
	for i, ref := range refs {
		if _, got, ok := d.Get(uint32(i + 1)); !ok || got != ref {
			t.Fatalf("instance %d in batch %q, want %q", i+1, got, ref)
		}
	}
	if len(d.Batches()) != 3 || d.Check() != nil {
		t.Fatalf("%d batches, check %v", len(d.Batches()), d.Check())
	}
}

// TestBuilderPutsBackWhatItRemoved: once every entity went, the same entities spawned back with the same values
// (the undo of a delete of everything) get their instances back in one pass, in the slots they had; anything else
// (a colour, a position, a material, one entity less, a hidden one) is placed entity by entity. Either way the list
// holds what a new builder draws of the world, every instance dirty, and a second delete and undo does the same.
// The table is compared in two halves at once (parallelRestoreMin), a change in either found.
func TestBuilderPutsBackWhatItRemoved(t *testing.T) {
	defer func(n int) { parallelRestoreMin = n }(parallelRestoreMin)
	parallelRestoreMin = 64
	cases := []struct {
		name    string
		restore bool
		change  func(w *ecs.World, cols []ecs.Values) (lo int)
		hide    bool
	}{
		{"the same", true, nil, false},
		{"a colour", false, func(w *ecs.World, cols []ecs.Values) int {
			setValue(t, w, cols, scene.Color{RGBA: [4]float32{1, 0, 0, 1}})
			return 0
		}, false},
		{"the last colour", false, func(w *ecs.World, cols []ecs.Values) int {
			setValueAt(t, cols, cols[0].Len()-1, scene.Color{RGBA: [4]float32{1, 0, 0, 1}})
			return 0
		}, false},
		{"a position", false, func(w *ecs.World, cols []ecs.Values) int {
			tr := ecs.Transform{}.Default()
			tr.Position = mgl32.Vec3{0.25, 0.5, 0.75}
			setValue(t, w, cols, tr)
			return 0
		}, false},
		{"a mesh", false, func(w *ecs.World, cols []ecs.Values) int {
			setValue(t, w, cols, scene.Mesh{Asset: "builtin:sphere"})
			return 0
		}, false},
		{"one less", false, func(*ecs.World, []ecs.Values) int { return 1 }, false},
		{"hidden", false, nil, true},
		{"a material", false, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := scene.NewWorld()
			p := scene.DefaultGrid()
			p.Count = [3]int{40, 3, 40}
			_, cubes := scene.SpawnGrid(w, p)
			b := NewBuilder(w, BuiltinMeshes{})
			b.Update()
			dl := b.DrawList()
			for round := range 2 {
				cols := copyAll(t, w, cubes)
				w.DespawnAll(cubes)
				b.Update()
				if dl.Len() != 0 || dl.removed == nil {
					t.Fatalf("round %d: %d instances after every entity went, removal kept: %v", round, dl.Len(), dl.removed != nil)
				}
				lo := 0
				if tc.change != nil && round == 0 {
					lo = tc.change(w, cols)
				}
				cubes = w.SpawnValues(cols, lo, len(cubes))
				if tc.hide && round == 0 {
					b.SetHide(func(e ecs.Entity) bool { return e == cubes[3] })
				}
				mat := ecs.NewMap[scene.Material](w)
				if tc.name == "a material" && round == 0 {
					mat.Add(cubes[5], scene.Material{BaseColor: [4]float32{0, 1, 0, 1}})
				}
				restores := dl.restores
				b.Update()
				restored := dl.restores == restores+1
				// A cube drawn with a material when the list was emptied: each entity is placed again.
				if restored != (tc.restore || round == 1 && tc.name != "a material") {
					t.Fatalf("round %d: put back in one pass: %v", round, restored)
				}
				if dl.removed != nil {
					t.Fatalf("round %d: what RemoveAll took is still kept after the list changed", round)
				}
				sameAsNew(t, w, b)
				for _, bt := range dl.Batches() {
					for _, c := range bt.Chunks() {
						if c.DirtyCount() != c.Len() {
							t.Fatalf("round %d: a chunk of %d instances has %d dirty", round, c.Len(), c.DirtyCount())
						}
					}
				}
				if tc.hide && round == 0 {
					b.SetHide(nil)
					b.Update()
				}
			}
		})
	}
}

// setValue sets value 0 of the column of v's type.
func setValue(t *testing.T, w *ecs.World, cols []ecs.Values, v any) {
	t.Helper()
	setValueAt(t, cols, 0, v)
}

// setValueAt sets value i of the column of v's type.
func setValueAt(t *testing.T, cols []ecs.Values, i int, v any) {
	t.Helper()
	for _, c := range cols {
		if c.Set(i, v) {
			return
		}
	}
	t.Fatalf("no column of %T", v)
}

// copyAll copies the components of es (all of one set) out of w.
func copyAll(t testing.TB, w *ecs.World, es []ecs.Entity) []ecs.Values {
	t.Helper()
	var cols []ecs.Values
	for _, cid := range w.AppendComponents(nil, es[0]) {
		if !w.ComponentInfo(cid).Computed {
			v, err := w.CopyValues(cid, es)
			if err != nil {
				t.Fatal(err)
			}
			cols = append(cols, v)
		}
	}
	return cols
}

// sameAsNew checks b's list and what a new builder draws of w: the same instances in the same batches, the list's
// invariants kept.
func sameAsNew(t *testing.T, w *ecs.World, b *Builder) {
	t.Helper()
	fresh := NewBuilder(w, BuiltinMeshes{})
	if b.hide != nil {
		fresh.SetHide(b.hide)
	}
	fresh.Update()
	got, want := b.DrawList(), fresh.DrawList()
	if err := got.Check(); err != nil {
		t.Fatal(err)
	}
	if got.Len() != want.Len() {
		t.Fatalf("%d instances, a new builder draws %d", got.Len(), want.Len())
	}
	want.IDs(func(id uint32) {
		wi, wref, _ := want.Get(id)
		gi, gref, ok := got.Get(id)
		if !ok || gi != wi || gref != wref {
			t.Fatalf("instance %d: %v in %q, a new builder draws %v in %q", id, gi, gref, wi, wref)
		}
		if e, ok := b.Entity(id); !ok || EntityID(e) != id {
			t.Fatalf("instance %d: no entity", id)
		}
	})
}

// TestBoxStaleBoxesEveryChunk: after every instance of a big list moved, BoxStale (two goroutines) leaves each
// chunk the box a chunk boxed alone has, and the list's box is their union.
func TestBoxStaleBoxesEveryChunk(t *testing.T) {
	d := NewDrawList()
	r := rand.New(rand.NewPCG(3, 9))
	const n = 2 * parallelBoxMin
	for i := range n {
		m := mgl32.Translate3D((r.Float32()-0.5)*500, r.Float32()*50, (r.Float32()-0.5)*500)
		d.Set("m", Instance{World: m, ID: uint32(i + 1)})
	}
	d.Bounds()
	for id := uint32(1); id <= n; id++ {
		in, _, _ := d.Get(id)
		m := in.World
		m[13] += 7
		d.SetWorld(id, m)
	}
	d.BoxStale()
	all := EmptyAABB()
	stale := 0
	for _, c := range d.Batches()[0].Chunks() {
		if !c.boundsValid {
			stale++
			continue
		}
		got := c.bounds
		c.boundsValid = false
		if want := c.Bounds(); got != want {
			t.Fatalf("chunk box %v, boxed alone %v", got, want)
		}
		all = all.Union(got)
	}
	if stale != 0 {
		t.Fatalf("%d chunks left stale", stale)
	}
	if got := d.Bounds(); got != all {
		t.Fatalf("list box %v, the union of its chunks' %v", got, all)
	}
}
