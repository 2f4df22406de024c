package viewport

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
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
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = [3]int{30, 2, 30}
	_, cubes := scene.SpawnGrid(w, p)
	b := NewBuilder(w, BuiltinMeshes{})
	hidden := cubes[7]
	b.SetHide(func(e ecs.Entity) bool { return e == hidden })
	b.Update()
	dl := b.DrawList()
	before, n := dl.ContentHash(), dl.Len()
	if n != len(cubes)-1 || len(b.hidden) != 1 {
		t.Fatalf("%d instances, %d hidden", n, len(b.hidden))
	}
	var cols []ecs.Values
	for _, cid := range w.AppendComponents(nil, cubes[0]) {
		if !w.ComponentInfo(cid).Computed {
			v, err := w.CopyValues(cid, cubes)
			if err != nil {
				t.Fatal(err)
			}
			cols = append(cols, v)
		}
	}
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
