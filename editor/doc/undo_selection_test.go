package doc

import (
	"context"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// The undo of a delete selects again what was selected, each id naming its entity: when the step brought back
// exactly the selected entities (taken from the step, not looked up), when it brought back more, and when the
// selection was not in the order the entities came back in.
func TestUndoOfDeleteSelectsWhatWasSelected(t *testing.T) {
	d, _ := gridOf800(t)
	all := d.Selection().Entities()
	for _, c := range []struct {
		name string
		pick func()
	}{
		{"all", d.Selection().SelectAll},
		{"reversed", func() {
			es := slices.Clone(all)
			slices.Reverse(es)
			d.Selection().Select(es...)
		}},
		{"some", func() { d.Selection().Select(all[:len(all)/3]...) }},
	} {
		c.pick()
		want := d.Selection().IDs()
		if err := d.DeleteSelection(); err != nil {
			t.Fatal(err)
		}
		bulk, lookedUp := bulkResolve, false
		bulkResolve = func(n, world int) bool { lookedUp = true; return bulk(n, world) }
		err := d.History().Undo()
		bulkResolve = bulk
		if err != nil {
			t.Fatal(err)
		}
		if c.name == "all" && lookedUp {
			t.Errorf("all: the undo looked the selected ids up instead of taking the entities it brought back")
		}
		if got := d.Selection().IDs(); !slices.Equal(got, want) {
			t.Fatalf("%s: %d ids selected after the undo, want the %d before the delete", c.name, len(got), len(want))
		}
		es := d.Selection().Entities()
		if len(es) != len(want) {
			t.Fatalf("%s: %d entities selected, want %d", c.name, len(es), len(want))
		}
		for i, e := range es {
			if got := d.ID(e); got != want[i] || !d.Selection().IsSelected(e) {
				t.Fatalf("%s: selected entity %d has id %d, want %d", c.name, i, got, want[i])
			}
		}
	}
}

// A spawn of a grid selects the cubes it made, and so does its redo, each id naming its cube: taken from the spawn,
// not looked up.
func TestGridSpawnAndRedoSelectTheirCubes(t *testing.T) {
	d, p := gridOf800(t)
	p.Count = [3]int{10, 2, 10}
	p.Origin[0] += 100
	bulk := bulkResolve
	defer func() { bulkResolve = bulk }()
	var lookedUp bool
	bulkResolve = func(n, world int) bool { lookedUp = true; return bulk(n, world) }
	check := func(what string, cubes []ecs.Entity) {
		t.Helper()
		if lookedUp {
			t.Errorf("%s: the selection's ids were looked up", what)
		}
		es := d.Selection().Entities()
		if len(es) != 200 || len(cubes) != 200 {
			t.Fatalf("%s: %d selected, %d cubes made; want 200", what, len(es), len(cubes))
		}
		ids := d.Selection().IDs()
		for i, e := range es {
			if e != cubes[i] || d.ID(e) != ids[i] || !d.Selection().IsSelected(e) {
				t.Fatalf("%s: selected %d is %v with id %d, want the cube %v with id %d", what, i, e, d.ID(e), cubes[i], ids[i])
			}
		}
	}
	_, cubes, err := d.SpawnGrid(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("spawn", cubes)
	want := d.Selection().IDs()
	if err := d.History().Undo(); err != nil {
		t.Fatal(err)
	}
	lookedUp = false
	if err := d.History().Redo(); err != nil {
		t.Fatal(err)
	}
	if got := d.Selection().IDs(); !slices.Equal(got, want) {
		t.Fatalf("redo selected %d ids, want the spawn's %d", len(got), len(want))
	}
	var again []ecs.Entity
	for _, id := range want {
		e, _ := d.Entity(id)
		again = append(again, e)
	}
	check("redo", again)
}

// gridOf800 is a document with a spawned grid of 20 × 2 × 20 root cubes (selected), and the grid's parameters.
func gridOf800(t *testing.T) (*Document, scene.GridParams) {
	t.Helper()
	d := New("", Options{})
	p := grid100k("")
	p.Count = [3]int{20, 2, 20}
	if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	return d, p
}
