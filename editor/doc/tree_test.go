package doc

import (
	"context"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Long sibling lists: deleting or moving children out of the middle of a 20,000-child group and
// undoing must keep the order, and references to the parent stay valid (how fast: see
// BenchmarkHierarchyOpsShapes, the "wide" shape).
func TestLongSiblingListsKeepOrder(t *testing.T) {
	d := New("", testOpts)
	p := scene.DefaultGrid()
	p.Count = [3]int{200, 1, 100}
	p.Group = "G"
	g, cubes, err := d.SpawnGrid(context.Background(), p, nil)
	must(t, err)
	gid := d.ID(g)
	f, err := d.Spawn("Follower", ecs.Entity{}, "F", Follow{Target: g, Others: []ecs.Entity{cubes[5]}})
	must(t, err)
	start := saved(t, d)
	order := children(t, d, gid)
	mid := cubes[len(cubes)/2 : len(cubes)/2+3]
	must(t, d.Delete(mid...))
	if len(children(t, d, gid)) != len(cubes)-3 {
		t.Fatal("delete from the middle")
	}
	must(t, d.History().Undo())
	if !slices.Equal(children(t, d, gid), order) {
		t.Fatal("order after undoing a delete from the middle")
	}
	if get[Follow](t, d, d.world, d.ID(f)).Target != ent(t, d, gid) {
		t.Fatal("the reference to the parent changed")
	}
	// Move the first half out to the root and back by undo.
	must(t, d.Reparent(ecs.Entity{}, cubes[:len(cubes)/2]...))
	if len(children(t, d, gid)) != len(cubes)/2 || !d.world.Parent(cubes[0]).IsZero() {
		t.Fatal("reparent half")
	}
	must(t, d.History().Undo())
	if !slices.Equal(children(t, d, gid), order) || saved(t, d) != start {
		t.Fatal("order after undoing the reparent")
	}
	// Delete every cube (all children of one parent), undo.
	must(t, d.Delete(cubes...))
	must(t, d.History().Undo())
	if !slices.Equal(children(t, d, gid), order) || saved(t, d) != start {
		t.Fatal("order after undoing deleting all children")
	}
}
