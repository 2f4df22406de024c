package e2e

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestSelectAllTintsEveryCube: Ctrl+A in a grid of 20,000 cubes selects them all, and the viewport shows it — the
// picture tinted and outlined; Invert Selection (Ctrl+I) deselects them and the picture is as before, again selects
// them all; Deselect All (Ctrl+Shift+A) deselects them. With $VOLTEX_SHOTS set it keeps both screenshots for a person to look at.
func TestSelectAllTintsEveryCube(t *testing.T) {
	const nx, ny, nz = 100, 2, 100
	path := filepath.Join(t.TempDir(), "grid.json")
	if runTool(t, "grid", "--nx", strconv.Itoa(nx), "--ny", strconv.Itoa(ny), "--nz", strconv.Itoa(nz), "-o", path) != 0 {
		t.Fatal("grid failed")
	}
	e := launchOn(t, path)
	e.WaitProbe(60*time.Second, "the grid", func(p *guitest.Probe) bool { return p.Entities == nx*ny*nz })
	p := e.Settle()
	vp := p.Viewport.Image()
	e.Move(p.Viewport.Center()) // the keys go to the viewport, as a user's would
	e.Settle()
	before := lookShot(t, e, "selectall-before.png")

	e.Key("ctrl+a")
	e.WaitProbe(60*time.Second, "all selected", func(p *guitest.Probe) bool { return p.SelectedCount == nx*ny*nz })
	e.Settle()
	all := lookShot(t, e, "selectall-all.png")
	if changed, area := guitest.DiffPixels(before, all, vp, 24), vp.Dx()*vp.Dy(); changed < area/10 {
		t.Fatalf("with every cube selected only %d of the viewport's %d pixels changed: the picture is not tinted", changed, area)
	}

	// Invert Selection (Ctrl+I) of all is none: the picture as before; inverted again, all.
	e.Key("ctrl+i")
	e.WaitProbe(60*time.Second, "nothing selected", func(p *guitest.Probe) bool { return p.SelectedCount == 0 })
	e.Settle()
	none := lookShot(t, e, "selectall-none.png")
	if changed := guitest.DiffPixels(before, none, vp, 24); changed > vp.Dx()*vp.Dy()/100 {
		t.Fatalf("with nothing selected, %d pixels of the viewport differ from the picture before", changed)
	}
	e.Key("ctrl+i")
	e.WaitProbe(60*time.Second, "all selected again", func(p *guitest.Probe) bool { return p.SelectedCount == nx*ny*nz })
	// Deselect All (Ctrl+Shift+A).
	e.Key("ctrl+shift+a")
	e.WaitProbe(60*time.Second, "nothing selected", func(p *guitest.Probe) bool { return p.SelectedCount == 0 })
}
