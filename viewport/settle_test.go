package viewport

import (
	"maps"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// chunkIDs maps each chunk of the list (by batch and index) to the ids it holds, sorted.
func chunkIDs(dl *DrawList) map[[2]int][]uint32 {
	out := map[[2]int][]uint32{}
	for bi, b := range dl.Batches() {
		for ci, c := range b.Chunks() {
			var ids []uint32
			for _, in := range c.Instances {
				ids = append(ids, in.ID)
			}
			slices.Sort(ids)
			out[[2]int{bi, ci}] = ids
		}
	}
	return out
}

// sameInstances fails unless dl holds, for every drawn entity of w, the instance a list built anew has.
func sameInstances(t *testing.T, dl *DrawList, w *ecs.World) {
	t.Helper()
	fresh := NewBuilder(w, BuiltinMeshes{})
	fresh.Update()
	if dl.Len() != fresh.DrawList().Len() {
		t.Fatalf("%d instances, a list built anew has %d", dl.Len(), fresh.DrawList().Len())
	}
	fresh.DrawList().IDs(func(id uint32) {
		want, wref, _ := fresh.DrawList().Get(id)
		got, ref, ok := dl.Get(id)
		if !ok || got != want || ref != wref {
			t.Fatalf("id %d: %+v in %q, a list built anew has %+v in %q", id, got, ref, want, wref)
		}
	})
}

// Cubes that move together into other cells (a field set on all of them, and its undo) change cell with their
// chunks: every chunk keeps its instances, and each instance is in a chunk of its cell.
func TestMovedTogetherKeepTheirChunks(t *testing.T) {
	w, cubes := flatGrid(40, 4, 40)
	b := NewBuilder(w, BuiltinMeshes{})
	b.Update()
	before := chunkIDs(b.DrawList())
	ts := ecs.NewMap[ecs.Transform](w)
	xs := make([]float32, len(cubes))
	for i, e := range cubes {
		xs[i] = ts.Get(e).Position.X()
	}
	for step, x := range []func(i int) float32{func(int) float32 { return 3 }, func(i int) float32 { return xs[i] }} {
		w.AdvanceTick()
		for i, e := range cubes {
			ts.Mut(e).Position[0] = x(i)
		}
		b.Update()
		if err := b.DrawList().Check(); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if got := chunkIDs(b.DrawList()); !maps.EqualFunc(got, before, slices.Equal) {
			t.Fatalf("step %d: instances changed chunk (%d chunks, %d before)", step, len(got), len(before))
		}
		sameInstances(t, b.DrawList(), w)
	}
}

// Instances of a chunk that leave it for different cells move one by one, each to a chunk of its own cell, as
// without deferred moves; so do those of a chunk too small to change cell as a whole.
func TestStraysMoveOneByOne(t *testing.T) {
	w, cubes := flatGrid(40, 4, 40)
	b := NewBuilder(w, BuiltinMeshes{})
	b.Update()
	ts := ecs.NewMap[ecs.Transform](w)
	w.AdvanceTick()
	for i, e := range cubes {
		switch i % 3 {
		case 0: // far away, spread over many cells
			ts.Mut(e).Position[1] = 500 + float32(i%97)*20
		case 1: // a little: some stay in their cell
			ts.Mut(e).Position[2]++
		}
	}
	b.Update()
	if err := b.DrawList().Check(); err != nil {
		t.Fatal(err)
	}
	sameInstances(t, b.DrawList(), w)

	// A handful of cubes alone in a far cell, moved together to a cell that has a chunk with room: fewer than
	// rekeyMin, they join it instead of bringing a second chunk there.
	far := func(es []ecs.Entity, y float32) {
		w.AdvanceTick()
		for _, e := range es {
			ts.Mut(e).Position = [3]float32{-900, y, -900}
		}
		b.Update()
	}
	far(cubes[:rekeyMin/4], -900)
	far(cubes[rekeyMin/4:rekeyMin/2], -700)
	far(cubes[rekeyMin/4:rekeyMin/2], -900)
	if err := b.DrawList().Check(); err != nil {
		t.Fatal(err)
	}
	sameInstances(t, b.DrawList(), w)
	dl := b.DrawList()
	at, _ := dl.slot(EntityID(cubes[0]))
	bt := dl.batches[at.batch-1]
	if cs := bt.cells[bt.chunks[at.chunk].cell]; len(cs) != 1 || bt.chunks[cs[0]].Len() != rekeyMin/2 {
		t.Fatalf("the far cell has %d chunks (want one, of %d cubes)", len(cs), rekeyMin/2)
	}
}
