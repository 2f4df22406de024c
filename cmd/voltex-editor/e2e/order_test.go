package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// rowNames lists the hierarchy's root rows, top to bottom. (Children are left out: a drag that hovers a closed
// row for 0.7 s opens it, as ImGui does, and on a slow machine a drag takes that long.)
func rowNames(p *guitest.Probe) string {
	var names []string
	for _, r := range p.Hierarchy {
		if r.Depth == 0 {
			names = append(names, r.Name)
		}
	}
	return strings.Join(names, ", ")
}

// TestHierarchyDragAboveReorders: dropping a row on the upper edge of another puts it before that one
// among its siblings — one undo step that changes one line of the file (the moved entity's order).
func TestHierarchyDragAboveReorders(t *testing.T) {
	path := copyScene(t, "solar.json")
	orig, _ := os.ReadFile(path)
	e := launchOn(t, path)
	p := e.WaitProbe(10*time.Second, "rows", func(p *guitest.Probe) bool { _, ok := p.Row("Game camera"); return ok })
	if got := rowNames(p); got != "Sun, Game camera" {
		t.Fatalf("rows %q", got)
	}
	cam, _ := p.Row("Game camera")
	cx, cy := cam.Center()
	e.DragOnto(cx, cy, 1, func(p *guitest.Probe) (int, int) { // the upper edge of the Sun's row
		sun, _ := p.Row("Sun")
		return sun.X + sun.W/2, sun.Y + 1
	})
	e.WaitProbe(10*time.Second, "reordered", func(p *guitest.Probe) bool {
		return p.UndoDepth == 1 && rowNames(p) == "Game camera, Sun"
	})
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	saved, _ := os.ReadFile(path)
	var changed []string
	a, b := strings.Split(string(orig), "\n"), strings.Split(string(saved), "\n")
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			changed = append(changed, strings.TrimSpace(b[i]))
		}
	}
	if len(a) != len(b) || len(changed) != 1 || changed[0] != `"order": 0,` {
		t.Errorf("the reorder changed %q (want only the camera's order key)", changed)
	}
	e.Key("ctrl+z")
	e.WaitProbe(10*time.Second, "undone", func(p *guitest.Probe) bool {
		return p.UndoDepth == 0 && rowNames(p) == "Sun, Game camera"
	})
	// The lower edge: the Sun below the camera.
	p, _ = e.ReadProbe()
	sun, _ := p.Row("Sun")
	sx, sy := sun.Center()
	e.DragOnto(sx, sy, 1, func(p *guitest.Probe) (int, int) { // the lower edge of the camera's row
		cam, _ := p.Row("Game camera")
		return cam.X + cam.W/2, cam.Y + cam.H - 2
	})
	e.WaitProbe(10*time.Second, "reordered below", func(p *guitest.Probe) bool {
		return p.UndoDepth == 1 && rowNames(p) == "Game camera, Sun"
	})
}
