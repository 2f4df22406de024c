package e2e

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// fileDialogLeft is the left edge of the file dialog in a 1600-pixel-wide window (820 wide, centred).
const fileDialogLeft = (1600 - 820) / 2

// TestPlayPicturesAreComplete: in play mode, 30,000 spinning cubes change in every frame and a picture of them costs
// more than a frame; the viewport shows complete pictures only, each finished over as many frames as it takes while
// the last complete one stays on screen — never a thinned one (it showed about a hundred scattered cubes throughout)
// — and so it does with the Open dialog up over it: the cubes beside the dialog are all there.
func TestPlayPicturesAreComplete(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spin.json")
	if runTool(t, "grid", "--nx", "100", "--ny", "3", "--nz", "100", "--spin", "90", "-o", path) != 0 {
		t.Fatal("grid failed")
	}
	e := launchOn(t, path)
	p := e.WaitProbe(2*time.Minute, "the scene drawn", func(p *guitest.Probe) bool {
		return p.Entities == 30000 && p.Picture.Drawn > 0 && !p.Picture.Pending
	})
	vp := p.Viewport
	e.Move(vp.X+vp.W/2, vp.Y+vp.H/2)
	for range 4 { // closer: the cubes reach the viewport's left edge, beside where the dialog opens
		e.Xdotool("click", "4")
	}
	p = settle(e)
	beside := image.Rect(vp.X, vp.Y, fileDialogLeft-8, vp.Y+vp.H)
	still := e.ScreenshotOf(p)
	cubes := brightPixels(still, beside)
	if cubes < 1000 {
		t.Fatalf("the view shows %d cube pixels left of where the dialog opens", cubes)
	}
	e.Key("ctrl+p")
	e.WaitProbe(10*time.Second, "play mode", func(p *guitest.Probe) bool { return p.Playing })
	pictures(t, e, "play", 2)
	e.Key("ctrl+o")
	e.WaitProbe(20*time.Second, "the open dialog", func(p *guitest.Probe) bool { return p.Modal == "file:Open Scene" })
	p = pictures(t, e, "play with the Open dialog up", 2)
	shot := e.ScreenshotOf(p)
	if dir := os.Getenv("VOLTEX_SHOTS"); dir != "" {
		_ = guitest.WritePNG(filepath.Join(dir, "play-still.png"), still)
		_ = guitest.WritePNG(filepath.Join(dir, "play-open-dialog.png"), shot)
	}
	if n := brightPixels(shot, beside); n < cubes/3 {
		t.Errorf("with the Open dialog up in play mode the viewport shows %d cube pixels beside it, %d before play", n, cubes)
	}
}

// pictures waits for n more pictures completed while playing and fails the test if one on screen meanwhile is
// thinned; it returns the probe that saw the last.
func pictures(t *testing.T, e *guitest.Editor, what string, n uint64) *guitest.Probe {
	t.Helper()
	var start uint64
	thinned := 0
	p := e.WaitProbe(5*time.Minute, what+": pictures completed", func(p *guitest.Probe) bool {
		if start == 0 {
			start = p.Picture.Pictures
		}
		if p.Picture.Pictures > start && p.Picture.Stride != 1 && thinned == 0 {
			thinned++
			t.Errorf("%s: the picture on screen is thinned: %+v", what, p.Picture)
		}
		return p.Playing && p.Picture.Pictures >= start+n
	})
	return p
}

// brightPixels counts the pixels of img inside r bright in every channel: the lit white cubes (the background and
// the grid lines are darker, dimmed by a modal dialog or not).
func brightPixels(img *image.RGBA, r image.Rectangle) int {
	return guitest.CountPixels(img, r, func(c color.RGBA) bool { return c.R > 180 && c.G > 180 && c.B > 180 })
}
