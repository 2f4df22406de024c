package e2e

import (
	"fmt"
	"image"
	"image/color"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestPanelBackgroundsAreTheClear: the dockspace and the docked panels draw no background of their own — the
// window's clear colour is their background (editor.App.clearIsBg: on llvmpipe a panel-sized blended rectangle
// costs about as much as the rest of the frame) — so the window must look as before: the panels' empty space in the
// style's window colour, exactly, and a floating window over the viewport (the grid dialog) opaque in it, not
// showing the picture behind it.
func TestPanelBackgroundsAreTheClear(t *testing.T) {
	_, e := launchCubes(t)
	e.WaitProbe(60*time.Second, "the scene drawn", func(p *guitest.Probe) bool {
		return p.Entities > 0 && p.Picture.Drawn > 0 && !p.Picture.Pending && len(p.Panels) >= 5 && p.WindowBg != ""
	})
	p := e.Settle()
	var want color.RGBA
	if _, err := fmt.Sscanf(p.WindowBg, "#%02x%02x%02x", &want.R, &want.G, &want.B); err != nil {
		t.Fatalf("probe's windowBg %q: %v", p.WindowBg, err)
	}
	want.A = 0xff
	img := e.ScreenshotOf(p)
	// Empty space: the Inspector below "Nothing selected", the Console (in front of Assets) below its lines.
	for _, name := range []string{"Inspector", "Console"} {
		r, ok := p.Panels[name]
		if !ok {
			t.Fatalf("no %s panel in %v", name, p.Panels)
		}
		block := image.Rect(r.X+r.W/2-20, r.Y+r.H-40, r.X+r.W/2+20, r.Y+r.H-20)
		if name == "Console" {
			// its lines are in a bordered child: the left edge of the panel, inside the window's padding
			block = image.Rect(r.X+2, r.Y+r.H/2-20, r.X+5, r.Y+r.H/2+20)
		}
		if bad := countOther(img, block, want); bad > 0 {
			t.Errorf("%s's empty space %v: %d pixels are not the window colour %s (e.g. %v)", name, block, bad,
				p.WindowBg, img.RGBAAt(block.Min.X, block.Min.Y))
		}
	}
	// A floating window over the viewport keeps its own, opaque, background.
	e.Key("ctrl+g")
	e.WaitProbe(20*time.Second, "the grid dialog", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Fields["window"].W > 0
	})
	p = e.Settle()
	img = e.ScreenshotOf(p)
	w, vp := p.Grid.Fields["window"], p.Viewport
	if !image.Rect(w.X, w.Y, w.X+w.W, w.Y+w.H).In(image.Rect(vp.X, vp.Y, vp.X+vp.W, vp.Y+vp.H)) {
		t.Fatalf("the grid dialog %+v is not over the viewport %+v", w, vp)
	}
	// the window's left padding, below its title bar, beside the fields
	block := image.Rect(w.X+2, w.Y+w.H/3, w.X+5, w.Y+2*w.H/3)
	if bad := countOther(img, block, want); bad > 0 {
		t.Errorf("the grid dialog's padding %v: %d pixels are not the window colour %s (e.g. %v): the viewport shows through",
			block, bad, p.WindowBg, img.RGBAAt(block.Min.X, block.Min.Y))
	}
}

// countOther counts the pixels of r in img that are not c.
func countOther(img *image.RGBA, r image.Rectangle, c color.RGBA) int {
	r = r.Intersect(img.Bounds())
	return r.Dx()*r.Dy() - guitest.CountPixels(img, r, func(p color.RGBA) bool { return p == c })
}
