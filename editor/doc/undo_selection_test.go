package doc

import (
	"context"
	"slices"
	"testing"
)

// The undo of a delete selects again what was selected, each id naming its entity: when the step brought back
// exactly the selected entities (taken from the step, not looked up), when it brought back more, and when the
// selection was not in the order the entities came back in.
func TestUndoOfDeleteSelectsWhatWasSelected(t *testing.T) {
	d := New("", Options{})
	p := grid100k("")
	p.Count = [3]int{20, 2, 20}
	if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
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
