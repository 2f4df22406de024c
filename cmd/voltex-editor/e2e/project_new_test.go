package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestProjectFileCreatedWhileOpen: a user opens a scene whose game components nothing declares yet (they show as
// Unknown), then writes voltex.project.json next to it, as the README says: the editor picks the new file up,
// registers its components and moves the open scene over, with nothing lost.
func TestProjectFileCreatedWhileOpen(t *testing.T) {
	path := arenaCopy(t)
	pf := filepath.Join(filepath.Dir(path), "voltex.project.json")
	decl, err := os.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(pf); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, path)
	failShot(t, e, t.Name())
	selectRow(t, e, "Knight", "header:Unknown")

	replaceFile(t, pf, string(decl))
	p := e.WaitProbe(20*time.Second, "the declared components", func(p *guitest.Probe) bool { return p.Inspector["Unit.team"].W > 0 })
	if got := p.Inspector["Unit.team"].Shown; got != "Red" {
		t.Errorf("the Knight's team shows %q after the project file appeared, want Red (from the scene)", got)
	}
	if !hasMessage(p, "info: project file voltex.project.json changed") {
		t.Errorf("no console message about the new project file: %v", p.Console)
	}
	if _, ok := p.Inspector["header:Unknown"]; ok {
		t.Error("the Knight still has Unknown components")
	}
}
