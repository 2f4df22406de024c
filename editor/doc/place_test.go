package doc

import (
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

func rootIDs(d *Document) []uint64 { return d.idsOf(d.Roots()) }

// TestMoveNextToReorders: dropping a row on the upper or lower edge of another reorders siblings
// as one step, changing only the moved entity's order key.
func TestMoveNextToReorders(t *testing.T) {
	d := openSmall(t) // Root(1): A(2) [A1(4), A2(8)], B(3); Solo(5) [Mystery(7)]; Follower(6)
	start := content(t, d)
	must(t, d.MoveNextTo(ent(t, d, 2), false, false, ent(t, d, 3))) // B above A
	if !eqIDs(children(t, d, 1), []uint64{3, 2}) || d.History().UndoLabel() != "Reorder" || d.History().Undos() != 1 {
		t.Fatalf("children %v, label %q", children(t, d, 1), d.History().UndoLabel())
	}
	if ch := changedLines(t, start, content(t, d)); len(ch) != 1 || ch[0] != `"order": 0,` {
		t.Fatalf("changed lines %q; want only B's order", ch)
	}
	must(t, d.History().Undo())
	if content(t, d) != start || !eqIDs(children(t, d, 1), []uint64{2, 3}) {
		t.Fatal("undo of the reorder")
	}
	must(t, d.History().Redo())
	if !eqIDs(children(t, d, 1), []uint64{3, 2}) {
		t.Fatal("redo of the reorder")
	}
	// Roots: Follower between Root and Solo (keys 1 and 2 → 1.5).
	must(t, d.MoveNextTo(ent(t, d, 1), true, false, ent(t, d, 6)))
	if !eqIDs(rootIDs(d), []uint64{1, 6, 5}) || get[scene.SceneID](t, d, d.world, 6).Order != 1.5 {
		t.Fatalf("roots %v", rootIDs(d))
	}
	// No change: B is already above A.
	n := d.History().Undos()
	must(t, d.MoveNextTo(ent(t, d, 2), false, false, ent(t, d, 3)))
	must(t, d.MoveNextTo(ent(t, d, 3), true, false, ent(t, d, 3)))
	if d.History().Undos() != n {
		t.Fatal("a move that changes nothing made a step")
	}
	// Next to its own descendant: refused.
	mustErr(t, d.MoveNextTo(ent(t, d, 4), true, false, ent(t, d, 2)), ErrCycle)
}

// TestMoveNextToReparentsKeepingWorld: a row dropped next to a row of another parent joins that
// parent, in place, staying where it is in the world (one step).
func TestMoveNextToReparentsKeepingWorld(t *testing.T) {
	d := openSmall(t)
	start := content(t, d)
	d.world.PropagateTransforms()
	before := d.world.WorldMatrix(ent(t, d, 4))
	must(t, d.MoveNextTo(ent(t, d, 2), true, true, ent(t, d, 4), ent(t, d, 7))) // A1 and Mystery below A
	if !eqIDs(children(t, d, 1), []uint64{2, 4, 7, 3}) || !eqIDs(children(t, d, 2), []uint64{8}) ||
		len(children(t, d, 5)) != 0 || d.History().UndoLabel() != "Reparent" || d.History().Undos() != 1 {
		t.Fatalf("root %v, A %v, label %q", children(t, d, 1), children(t, d, 2), d.History().UndoLabel())
	}
	d.world.PropagateTransforms()
	if after := d.world.WorldMatrix(ent(t, d, 4)); !after.ApproxEqualThreshold(before, 1e-5) {
		t.Fatalf("A1 moved in the world:\n%v\n%v", before, after)
	}
	must(t, d.History().Undo())
	if content(t, d) != start {
		t.Fatal("undo of the reparenting move")
	}
	// To the roots: next to Solo.
	must(t, d.MoveNextTo(ent(t, d, 5), false, false, ent(t, d, 8)))
	if !eqIDs(rootIDs(d), []uint64{1, 8, 5, 6}) || parentID(t, d, 8) != 0 {
		t.Fatalf("roots %v", rootIDs(d))
	}
}

// TestMoveNextToRenumbersWhenKeysAreTooClose: siblings sharing a key (as after a merge where both
// sides appended) leave no key between them; the move renumbers the siblings in the same step.
func TestMoveNextToRenumbersWhenKeysAreTooClose(t *testing.T) {
	d := New("", testOpts)
	p, err := d.SpawnEmpty(ecs.Entity{})
	must(t, err)
	var kids []ecs.Entity
	for range 3 {
		e, err := d.SpawnEmpty(p)
		must(t, err)
		kids = append(kids, e)
	}
	for _, e := range kids[:2] { // give the first two the same key (as a merge can)
		d.sids.Mut(e).Order = 5
	}
	d.sids.Mut(kids[2]).Order = 9
	d.sortChildren(p)
	cur := d.idsOf(d.world.Children(p))
	start := content(t, d)
	x := ent(t, d, cur[2])
	must(t, d.MoveNextTo(ent(t, d, cur[0]), true, false, x))
	got := d.idsOf(d.world.Children(p))
	if !eqIDs(got, []uint64{cur[0], cur[2], cur[1]}) {
		t.Fatalf("children %v, want %v", got, []uint64{cur[0], cur[2], cur[1]})
	}
	for i, id := range got {
		if k := get[scene.SceneID](t, d, d.world, id).Order; k != float64(i+1) {
			t.Errorf("child %d key %v, want %d", i, k, i+1)
		}
	}
	must(t, d.History().Undo())
	if content(t, d) != start {
		t.Fatal("undo of a renumbering move")
	}
}

// TestRootsAfterUndoOfDeleteAll: the undo of a delete of a whole flat scene hands its restored entities to the next
// Roots (no pass over a million to find them), and Roots lists exactly what scene.Roots lists, also after a reorder
// and when the restored entities are not in sibling order.
func TestRootsAfterUndoOfDeleteAll(t *testing.T) {
	d := New("", Options{})
	spawnRootCubes(t, d, 5)
	check := func(when string, hinted bool) {
		t.Helper()
		if got := d.roots != nil && d.roots.version == d.version; got != hinted {
			t.Errorf("%s: a list kept for Roots %v, want %v", when, got, hinted)
		}
		if got, want := d.Roots(), scene.Roots(d.World()); !slices.Equal(got, want) {
			t.Errorf("%s: Roots %v, want %v", when, got, want)
		}
	}
	deleteAllAndUndo := func() {
		t.Helper()
		if err := d.Delete(d.Roots()...); err != nil {
			t.Fatal(err)
		}
		if err := d.History().Undo(); err != nil {
			t.Fatal(err)
		}
	}
	deleteAllAndUndo()
	check("undo of a delete of all", true)

	// A list kept but not read before a reorder is not read after it.
	deleteAllAndUndo()
	roots := scene.Roots(d.World())
	if err := d.MoveNextTo(roots[0], false, false, roots[len(roots)-1]); err != nil {
		t.Fatal(err)
	}
	check("a reorder after the undo", false)

	// The entities come back in slot order, which is no longer sibling order: the list is sorted.
	deleteAllAndUndo()
	check("undo of a delete of all out of sibling order", true)

	// The redo of the undone delete and its undo again, through the same steps.
	if err := d.History().Redo(); err != nil {
		t.Fatal(err)
	}
	if d.World().Len() != 0 {
		t.Fatalf("%d entities after the redo of the delete", d.World().Len())
	}
	if err := d.History().Undo(); err != nil {
		t.Fatal(err)
	}
	check("undo again", true)
}

// spawnRootCubes spawns n cubes at the root of d and returns them.
func spawnRootCubes(t *testing.T, d *Document, n int) []ecs.Entity {
	t.Helper()
	es := make([]ecs.Entity, n)
	for i := range es {
		e, err := d.SpawnCube(ecs.Entity{})
		if err != nil {
			t.Fatal(err)
		}
		es[i] = e
	}
	return es
}
