package e2e

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// saneLayout reports what is wrong with the layout of a w×h window ("" when nothing): the menus and the toolbar
// overlap, a panel leaves the window or the space below the menu bar, two panels overlap, or the view cube is not
// inside the viewport.
func saneLayout(p *guitest.Probe, w, h int) string {
	win := guitest.Rect{W: w, H: h}
	for a, ra := range p.Menus {
		for b, rb := range p.Menus {
			if a < b && ra.Overlaps(rb) {
				return a + " and " + b + " overlap in the menu bar"
			}
		}
	}
	play := p.Menus["toolbar:Play"]
	if play.W == 0 || !win.Holds(play) {
		return "the toolbar's Play is not in the window"
	}
	panels := []string{"Hierarchy", "Viewport", "Inspector", "Console"}
	for _, a := range panels {
		if r := p.Panels[a]; !win.Holds(r) || r.Y < play.Y+play.H {
			return "the " + a + " panel is not in the window below the menu bar"
		}
		for _, b := range panels {
			if a < b && p.Panels[a].Overlaps(p.Panels[b]) {
				return "the " + a + " and " + b + " panels overlap"
			}
		}
	}
	if p.ViewCube.W > 0 && !p.Viewport.Holds(p.ViewCube) {
		return "the view cube is not inside the viewport"
	}
	if p.Viewport.W < w/3 || p.Viewport.H < h/3 {
		return "the viewport is too small"
	}
	return ""
}

// TestSmallWindowLayout: in a window of 520×360 — opened so, or made so from 1600×1000 — the menus, the toolbar
// and the panels do not overlap, the panels keep their proportions (the viewport keeps most of the window) and the
// view cube stays inside the viewport.
func TestSmallWindowLayout(t *testing.T) {
	t.Parallel()
	d := guitest.StartDisplay(t, 1600, 1000)
	e := guitest.Launch(t, d, "--size", "520x360", "--settings", t.TempDir(), copyScene(t, "cubes.json"))
	failShot(t, e, t.Name())
	p := e.WaitProbe(20*time.Second, "the scene", func(p *guitest.Probe) bool { return p.Entities > 0 && p.Viewport.W > 0 })
	if what := saneLayout(p, 520, 360); what != "" {
		t.Errorf("opened at 520×360: %s (probe: menus %v, panels %v, viewport %v, view cube %v)", what, p.Menus, p.Panels, p.Viewport, p.ViewCube)
	}
	lookShot(t, e, "small-window.png")

	e2 := guitest.Launch(t, guitest.StartDisplay(t, 1600, 1000), "--size", "1600x1000", "--settings", t.TempDir(), copyScene(t, "cubes.json"))
	failShot(t, e2, t.Name()+"-resized")
	e2.WaitProbe(20*time.Second, "the scene", func(p *guitest.Probe) bool { return p.Entities > 0 && p.Viewport.W > 0 })
	e2.Resize(520, 360)
	p = e2.WaitProbe(10*time.Second, "the small window", func(p *guitest.Probe) bool { return p.Panels["Hierarchy"].H < 400 })
	if what := saneLayout(p, 520, 360); what != "" {
		t.Errorf("made 520×360: %s (probe: menus %v, panels %v, viewport %v, view cube %v)", what, p.Menus, p.Panels, p.Viewport, p.ViewCube)
	}
	lookShot(t, e2, "small-window-resized.png")
}
