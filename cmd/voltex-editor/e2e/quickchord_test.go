package e2e

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestQuickCtrlAInSearchField: a Ctrl+A whose A press and Ctrl release reach the editor together (a fast hand, a
// slow frame; xdotool's "ctrl+a" on a busy machine) selects the focused search field's text, so what is typed next
// replaces it. Were the chord lost, the typing would be appended: "Cube 3,4Cube 3," (and
// TestRenamedRowStaysInFilteredList would fail on busy machines).
func TestQuickCtrlAInSearchField(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p, _ := e.ReadProbe()
	sx, sy := p.HierarchySearch.Center()
	e.Click(sx, sy, 1)
	e.WaitProbe(10*time.Second, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Type("Cube 3,4")
	e.WaitProbe(10*time.Second, "the search", func(p *guitest.Probe) bool { return len(p.Hierarchy) == 1 })
	e.Xdotool("keydown", "ctrl") // handled in a frame of its own (Xdotool waits for that)
	e.Xdotool("keydown", "--delay", "0", "a", "keyup", "--delay", "0", "ctrl", "keyup", "a")
	e.Type("Cube 5,")
	p = e.WaitProbe(10*time.Second, "the new search", func(p *guitest.Probe) bool {
		_, ok := p.Row("Cube 5,6")
		return ok
	})
	if _, ok := p.Row("Cube 3,4"); ok || p.Entities != 400 || len(p.Selected) != 0 {
		t.Fatalf("after the quick Ctrl+A and typing: rows %+v, %d selected", p.Hierarchy, len(p.Selected))
	}
}
