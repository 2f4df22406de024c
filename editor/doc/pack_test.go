package doc

import (
	"errors"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// A delete of every cube moves their table's storage into the pack; its undo gives it back (the pack lent), its
// redo takes it back into the same pack, and each undo brings back the scene as it was. The history counts the
// storage only while it holds it.
func TestDeleteAllMovesTheTableIntoThePack(t *testing.T) {
	d := cubeScene(t, 2000)
	before := content(t, d)
	d.Selection().SelectAll()
	must(t, d.DeleteSelection())
	c := d.hist.steps[d.hist.pos-1].cmd.(*treeCmd)
	p := c.rm.pack
	if len(p.groups) != 1 || p.groups[0].det == nil || p.lent {
		t.Fatalf("the delete's pack: %d groups, moved %v, lent %v", len(p.groups), p.groups[0].det != nil, p.lent)
	}
	held := d.History().Bytes()
	for round := range 3 {
		must(t, d.History().Undo())
		if !p.lent || p.groups[0].det != nil || content(t, d) != before {
			t.Fatalf("round %d: undo: lent %v, the scene as before %v", round, p.lent, content(t, d) == before)
		}
		// The world holds the table's storage again: the history no longer counts it.
		if b := d.History().Bytes(); b > held-200*2000 {
			t.Fatalf("round %d: undo: the history counts %d bytes, %d after the delete", round, b, held)
		}
		must(t, d.History().Redo())
		if c.rm.pack != p || p.lent || p.groups[0].det == nil || d.Len() != 0 {
			t.Fatalf("round %d: redo: the same pack %v, lent %v, %d entities", round, c.rm.pack == p, p.lent, d.Len())
		}
		if b := d.History().Bytes(); b != held {
			t.Fatalf("round %d: redo: the history counts %d bytes, %d after the delete", round, b, held)
		}
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("the last undo: the scene differs")
	}
}

// When the entities a lent pack gave its storage to changed behind the history (a light added to one: a sparse-set
// component, so the table no longer moves whole), the redo makes a new pack of them as they are, and its undo
// brings them back so.
func TestRedoRemakesAPackWhoseTableChanged(t *testing.T) {
	d := cubeScene(t, 500)
	d.Selection().SelectAll()
	must(t, d.DeleteSelection())
	c := d.hist.steps[d.hist.pos-1].cmd.(*treeCmd)
	p := c.rm.pack
	must(t, d.History().Undo())
	e := d.Roots()[7]
	lid, _ := ecs.ComponentIDOf[scene.Light](d.world)
	must(t, d.world.Add(e, lid, scene.Light{Intensity: 2}))
	changed := content(t, d)
	must(t, d.History().Redo())
	if c.rm.pack == p || d.Len() != 0 {
		t.Fatalf("redo: the same pack %v, %d entities", c.rm.pack == p, d.Len())
	}
	must(t, d.History().Undo())
	if got := content(t, d); got != changed {
		t.Fatal("the undo after the changed redo: the scene differs from the changed one")
	}
}

// Deleting the last cube of a table once grown for many copies it (a small step), rather than moving all the
// table's room into the history, where the step would count that room and push the older steps out.
func TestDeleteOfTheLastFewKeepsOlderSteps(t *testing.T) {
	d := cubeScene(t, 20000)
	d.opts.MaxHistoryBytes = 6 << 20
	roots := d.Roots()
	must(t, d.Delete(roots[1:]...))
	must(t, d.Delete(roots[0]))
	if d.History().Undos() != 2 {
		t.Fatalf("%d undos after the two deletes, want 2 (the history holds %d bytes)", d.History().Undos(), d.History().Bytes())
	}
	c := d.hist.steps[d.hist.pos-1].cmd.(*treeCmd)
	if c.rm.pack.groups[0].det != nil || c.size() > 10_000 {
		t.Fatalf("the delete of the last cube: moved %v, %d bytes", c.rm.pack.groups[0].det != nil, c.size())
	}
}

// The history counts what the steps on prefab instances hold (their packs keep the instances' prefab sources) and
// what a step that failed half-way gave back, as its steps hold them counted afresh.
func TestHistoryCountsWhatItsStepsHold(t *testing.T) {
	check := func(d *Document, what string) {
		t.Helper()
		if msg := miscounted(&d.hist); msg != "" {
			t.Fatalf("%s: %s", what, msg)
		}
	}
	d, _ := openPrefabScene(t)
	_, err := d.Duplicate(ent(t, d, 10))
	must(t, err)
	check(d, "duplicate an instance")
	must(t, d.Delete(ent(t, d, 10)))
	check(d, "delete an instance")
	must(t, d.History().Undo())
	check(d, "undo")
	must(t, d.History().Redo())
	check(d, "redo")
	must(t, d.History().Undo())
	must(t, d.Prefabs().Unpack(ent(t, d, 10)))
	check(d, "unpack")

	d = cubeScene(t, 2000)
	d.Selection().SelectAll()
	must(t, d.DeleteSelection())
	st := &d.hist.steps[d.hist.pos-1]
	st.cmd = &multiCmd{name: "Delete and fail", cmds: []command{failingCmd{}, st.cmd}}
	if err := d.History().Undo(); err == nil {
		t.Fatal("the undo of a failing step did not fail")
	}
	check(d, "an undo that failed after giving a table back")
}

// failingCmd is a command whose undo fails.
type failingCmd struct{}

func (failingCmd) apply(*core) error  { return nil }
func (failingCmd) revert(*core) error { return errors.New("failing step") }
func (failingCmd) label() string      { return "fail" }
func (failingCmd) size() int          { return 0 }
