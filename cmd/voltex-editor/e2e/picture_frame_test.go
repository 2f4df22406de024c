package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestFieldEditPictureInSameFrame: a field edit in the Inspector moves a cube; the viewport's picture
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
			if before.RGBAAt(xx, yy) != after.RGBAAt(xx, yy) {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Error("the viewport's picture did not change after the field edit")
	}
}

// TestUndoDeletePictureEqualsBefore: undoing the delete of every cube draws them back over the empty
// picture (an additive patch, with the grid blended over the pixels they win), and redoing and undoing again
// removes and adds them once more; each time the viewport shows exactly the picture it showed before the delete
// (all selected, as the undo selects them again), pixel for pixel.
func TestUndoDeletePictureEqualsBefore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cubes.json")
	if runTool(t, "grid", "--nx", "20", "--ny", "5", "--nz", "20", "-o", path) != 0 {
		t.Fatal("grid failed")
	}
	e := launchOn(t, path)
	e.WaitProbe(60*time.Second, "the scene drawn", func(p *guitest.Probe) bool {
		return p.Entities == 2000 && p.Picture.Drawn > 0 && !p.Picture.Pending
	})
	step := func(what, key string, entities int) *guitest.Probe {
		e.Key(key)
		return e.WaitProbe(60*time.Second, what, func(p *guitest.Probe) bool {
			return p.Entities == entities && p.SelectedCount == entities && p.Idle && !p.Picture.Pending
		})
	}
	before := viewportPixels(e, step("all selected", "ctrl+a", 2000))
	step("deleted", "Delete", 0)
	for i, k := range []string{"ctrl+z", "ctrl+y", "ctrl+z"} {
		entities := 2000
		if k == "ctrl+y" {
			entities = 0
		}
		p := step(fmt.Sprintf("step %d (%s)", i+1, k), k, entities)
		if entities == 0 {
			continue
		}
		if diff := differ(viewportPixels(e, p), before); diff != 0 {
			if dir := os.Getenv("VOLTEX_SHOTS"); dir != "" {
				_ = guitest.WritePNG(filepath.Join(dir, fmt.Sprintf("undo-delete-%d.png", i+1)), e.ScreenshotOf(p))
			}
			t.Errorf("step %d (%s): the viewport differs from the picture before the delete in %d bytes", i+1, k, diff)
		}
	}
	if dir := os.Getenv("VOLTEX_SHOTS"); dir != "" {
		_ = guitest.WritePNG(filepath.Join(dir, "undo-delete.png"), e.ScreenshotNow())
	}
}

// viewportPixels is the viewport's part of a screenshot of the editor showing p.
func viewportPixels(e *guitest.Editor, p *guitest.Probe) []byte {
	img := e.ScreenshotOf(p)
	v := p.Viewport
	var px []byte
	for y := v.Y; y < v.Y+v.H; y++ {
		px = append(px, img.Pix[y*img.Stride+v.X*4:y*img.Stride+(v.X+v.W)*4]...)
	}
	return px
}

// differ counts the bytes in which a and b differ (all of a's when their lengths differ).
func differ(a, b []byte) int {
	if len(a) != len(b) {
		return len(a)
	}
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// TestSpawnUndoRedoPictures: a grid spawned beside the scene is drawn over the picture (only the new cubes,
// selected), its undo clears and redraws the rectangle they covered, its redo draws them over again, selected
// again: after the undo the viewport equals the picture before the spawn, after the redo the picture after the
// spawn, pixel for pixel.
func TestSpawnUndoRedoPictures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cubes.json")
	if runTool(t, "grid", "--nx", "20", "--ny", "5", "--nz", "20", "-o", path) != 0 {
		t.Fatal("grid failed")
	}
	e := launchOn(t, path)
	settled := func(what string, entities int) *guitest.Probe {
		return e.WaitProbe(60*time.Second, what, func(p *guitest.Probe) bool {
			return p.Entities == entities && p.Grid == nil && p.Job == nil && p.Idle && !p.Picture.Pending
		})
	}
	before := viewportPixels(e, settled("the scene drawn", 2000))
	setGrid(e, "20", "5", "20")
	e.WaitProbe(60*time.Second, "the grid's preview", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.PreviewCubes == 2000
	})
	e.Key("Return") // spawn: the new cubes are selected, and so they are again after the redo
	spawned := viewportPixels(e, settled("spawned", 4000))
	if differ(spawned, before) == 0 {
		t.Fatal("the picture did not change after the spawn")
	}
	e.Key("ctrl+z")
	if d := differ(viewportPixels(e, settled("the spawn undone", 2000)), before); d != 0 {
		t.Errorf("after the undo the viewport differs from the picture before the spawn in %d bytes", d)
	}
	e.Key("ctrl+y")
	p := settled("the spawn redone", 4000)
	if d := differ(viewportPixels(e, p), spawned); d != 0 {
		t.Errorf("after the redo the viewport differs from the picture after the spawn in %d bytes", d)
	}
	if dir := os.Getenv("VOLTEX_SHOTS"); dir != "" {
		_ = guitest.WritePNG(filepath.Join(dir, "spawn-redone.png"), e.ScreenshotOf(p))
		e.Key("ctrl+z")
		_ = guitest.WritePNG(filepath.Join(dir, "spawn-undone.png"), e.ScreenshotOf(settled("undone again", 2000)))
	}
}
