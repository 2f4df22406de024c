package e2e

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestRenamedRowStaysInFilteredList: renaming a row of a filtered hierarchy keeps the row (under its new name)
// until the search changes, rather than making it vanish as if deleted.
func TestRenamedRowStaysInFilteredList(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p, _ := e.ReadProbe()
	sx, sy := p.HierarchySearch.Center()
	e.Click(sx, sy, 1)
	e.WaitProbe(10*time.Second, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Type("Cube 3,4")
	p = e.WaitProbe(10*time.Second, "the search", func(p *guitest.Probe) bool {
		_, ok := p.Row("Cube 3,4")
		return ok && len(p.Hierarchy) == 1
	})
	r, _ := p.Row("Cube 3,4")
	x, y := r.Center()
	e.Click(x, y, 1)
	e.Key("F2")
	e.Key("ctrl+a")
	e.Type("Lamp")
	e.Key("Return")
	p = e.WaitProbe(10*time.Second, "the rename", func(p *guitest.Probe) bool { return p.Dirty && p.UndoDepth == 1 })
	p = e.Presented(p) // and a few frames later
	if _, ok := p.Row("Lamp"); !ok || len(p.Hierarchy) != 1 {
		t.Fatalf("after renaming the only match to Lamp the rows are %+v; want the renamed row kept", p.Hierarchy)
	}
	// A new search shows what matches it: Lamp matches "La", the other cubes do not.
	e.Click(sx, sy, 1)
	e.WaitProbe(10*time.Second, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Key("ctrl+a")
	e.Type("Cube 3,")
	p = e.WaitProbe(10*time.Second, "the new search", func(p *guitest.Probe) bool {
		_, cube := p.Row("Cube 3,5")
		return cube
	})
	if _, ok := p.Row("Lamp"); ok {
		t.Errorf("the renamed row is still shown for a search it does not match: %+v", p.Hierarchy)
	}
}
