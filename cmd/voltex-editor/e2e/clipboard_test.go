package e2e

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestCopyPasteDuplicateNames: Ctrl+C, Ctrl+V of a cube makes "Cube 0,0 (1)" beside it, and
// Ctrl+D of that makes "Cube 0,0 (2)"; the new one is selected each time.
func TestCopyPasteDuplicateNames(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p := e.WaitProbe(10*time.Second, "rows", func(p *guitest.Probe) bool { _, ok := p.Row("Cube 0,0"); return ok })
	r, _ := p.Row("Cube 0,0")
	x, y := r.Center()
	e.Click(x, y, 1)
	e.WaitProbe(10*time.Second, "selected", func(p *guitest.Probe) bool { return len(p.Selected) == 1 })
	e.Key("ctrl+c")
	e.WaitProbe(10*time.Second, "copied", func(p *guitest.Probe) bool { return hasMessage(p, "info: copied 1 entity") })
	e.Key("ctrl+v")
	e.WaitProbe(10*time.Second, "pasted", func(p *guitest.Probe) bool { return p.Entities == 401 })
	e.Key("ctrl+d")
	p = e.WaitProbe(10*time.Second, "duplicated", func(p *guitest.Probe) bool { return p.Entities == 402 })
	if p.Inspector["id"].Shown == "" {
		t.Error("the inspector shows no id for the duplicate")
	}
	// The new rows are at the end of the list: search for them.
	sx, sy := p.HierarchySearch.Center()
	e.Click(sx, sy, 1)
	e.WaitProbe(10*time.Second, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Type("Cube 0,0")
	p = e.WaitProbe(10*time.Second, "three rows", func(p *guitest.Probe) bool { return len(p.Hierarchy) == 3 })
	for i, want := range []string{"Cube 0,0", "Cube 0,0 (1)", "Cube 0,0 (2)"} {
		if p.Hierarchy[i].Name != want {
			t.Errorf("row %d is %q, want %q (rows %+v)", i, p.Hierarchy[i].Name, want, p.Hierarchy)
		}
	}
	if !p.Hierarchy[2].Selected {
		t.Error("the duplicate is not selected")
	}
}
