package e2e

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestHistoryPanelClickGoesBack: three steps (create, delete all, create), View → History, a click on the first
// step: the scene is as after it (the 400 cubes and the new entity back), the two later steps greyed for redo.
func TestHistoryPanelClickGoesBack(t *testing.T) {
	_, e := launchCubes(t)
	e.WaitProbe(20*time.Second, "scene open", func(p *guitest.Probe) bool { return p.Entities == 400 })
	e.Key("ctrl+shift+n")
	e.WaitProbe(10*time.Second, "step 1", func(p *guitest.Probe) bool { return p.Entities == 401 && p.UndoDepth == 1 })
	e.Key("ctrl+a")
	e.WaitProbe(10*time.Second, "all selected", func(p *guitest.Probe) bool { return p.SelectedCount == 401 })
	e.Key("Delete")
	e.WaitProbe(10*time.Second, "step 2", func(p *guitest.Probe) bool { return p.Entities == 0 && p.UndoDepth == 2 })
	e.Key("ctrl+shift+n")
	e.WaitProbe(10*time.Second, "step 3", func(p *guitest.Probe) bool { return p.Entities == 1 && p.UndoDepth == 3 })

	menu(t, e, "View", "History")
	p := e.WaitProbe(10*time.Second, "the History panel", func(p *guitest.Probe) bool { return len(p.History) == 4 })
	if !p.History[3].Current || p.History[1].Redo {
		t.Fatalf("rows %+v: the last step is not the current one", p.History)
	}
	x, y := p.History[1].Center()
	e.Move(x, y)
	e.Click(x, y, 1)
	p = e.WaitProbe(10*time.Second, "back at step 1", func(p *guitest.Probe) bool {
		return p.Entities == 401 && p.UndoDepth == 1 && len(p.History) == 4 && p.History[1].Current
	})
	if !p.History[2].Redo || !p.History[3].Redo || p.History[1].Redo {
		t.Fatalf("rows %+v: steps 2 and 3 are not greyed for redo", p.History)
	}
	e.Settle()
	docShot(t, e, "history-panel.png")
}
