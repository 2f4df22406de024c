package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestFieldEditPictureInSameFrame (issue 16): a field edit in the Inspector moves a cube; the viewport's picture
// shows it in the very frame that shows the new value (the Inspector is built after the viewport: the change is
// drawn in place, as a patch, after the panels), not one or more frames later.
func TestFieldEditPictureInSameFrame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cubes.json")
	if runTool(t, "grid", "--nx", "10", "--ny", "1", "--nz", "10", "-o", path) != 0 {
		t.Fatal("grid failed")
	}
	e := launchOn(t, path)
	p := e.WaitProbe(60*time.Second, "the scene drawn", func(p *guitest.Probe) bool {
		return p.Entities == 100 && p.Picture.Drawn > 0 && !p.Picture.Pending && len(p.Hierarchy) > 1
	})
	row := p.Hierarchy[len(p.Hierarchy)/2]
	x, y := row.Center()
	e.Click(x, y, 1)
	p = e.WaitProbe(60*time.Second, "an entity selected, its Transform shown", func(p *guitest.Probe) bool {
		return len(p.Selected) == 1 && p.Inspector["Transform.position[0]"].W > 0
	})
	before := e.ScreenshotOf(p)
	w := p.Inspector["Transform.position[0]"]
	e.Click(w.X+w.W/2, w.Y+w.H/2, 1, "ctrl")
	e.Key("ctrl+a")
	e.Type("3.2")
	settle(e)
	sent := time.Now()
	e.Key("5")
	m := waitMark(e, "field edit", sent.UnixNano()-int64(time.Second))
	if m.Picture != m.Presented {
		t.Errorf("the field edit's picture came %v after the frame that showed its value (%d frames to the result)",
			time.Duration(m.Picture-m.Presented), m.Frames)
	}
	e.Key("Return")
	p = settle(e)
	after := e.ScreenshotOf(p)
	if dir := os.Getenv("VOLTEX_SHOTS"); dir != "" {
		_ = guitest.WritePNG(filepath.Join(dir, "field-edit-before.png"), before)
		_ = guitest.WritePNG(filepath.Join(dir, "field-edit-after.png"), after)
	}
	// The cube moved in the picture: the viewport's pixels changed.
	vp := p.Viewport
	changed := 0
	for yy := vp.Y; yy < vp.Y+vp.H; yy += 2 {
		for xx := vp.X; xx < vp.X+vp.W; xx += 2 {
			if before.RGBAAt(int(xx), int(yy)) != after.RGBAAt(int(xx), int(yy)) {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Error("the viewport's picture did not change after the field edit")
	}
}
