package e2e

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// fileDialogLeft is the left edge of the file dialog in a 1600-pixel-wide window (820 wide, centred).
const fileDialogLeft = (1600 - 820) / 2

// TestPlayPicturesAreComplete: in play mode, 30,000 spinning cubes change in every frame and a picture of them costs
// more than a frame; the viewport shows complete pictures only, each finished over as many frames as it takes while
// the last complete one stays on screen — never a thinned one (it showed about a hundred scattered cubes throughout)
// — and so it does with the Open dialog up over it (the cubes beside the dialog are all there), and after Stop.
func TestPlayPicturesAreComplete(t *testing.T) {
	e, p := launchOnGrid(t, 30000, "--nx", "100", "--ny", "3", "--nz", "100", "--spin", "90")
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
	// Stop: the edited scene's picture replaces the last one of play once complete; none on screen is thinned.
	e.Key("Escape")
	e.WaitProbe(20*time.Second, "the dialog closed", func(p *guitest.Probe) bool { return p.Modal == "" })
	e.Key("ctrl+p")
	stopped := false
	e.WaitProbe(5*time.Minute, "the picture after Stop", func(p *guitest.Probe) bool {
		if p.Picture.Stride != 1 && !stopped {
			stopped = true
			t.Errorf("after Stop the picture on screen is thinned: %+v", p.Picture)
		}
		return !p.Playing && !p.Picture.Pending && p.Idle
	})
}

// launchOnGrid writes a scene of n cubes with the grid tool's flags and opens it in the editor; it returns once its
// picture is complete.
func launchOnGrid(t *testing.T, n int, flags ...string) (*guitest.Editor, *guitest.Probe) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "grid.json")
	if runTool(t, append(append([]string{"grid"}, flags...), "-o", path)...) != 0 {
		t.Fatal("grid failed")
	}
	e := launchOn(t, path)
	p := e.WaitProbe(2*time.Minute, "the scene drawn", func(p *guitest.Probe) bool {
		return p.Entities == n && p.Picture.Drawn > 0 && !p.Picture.Pending
	})
	return e, p
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

// TestOrbitEndsOnTheFullPicture: while an orbit of 100,000 cubes moves the view the pictures are thinned; in the
// first frame after the release the full picture replaces the thinned one, drawn at once, instead of over the many
// frames a picture that size takes (the thinned one stayed on screen meanwhile: seconds on a busy machine).
func TestOrbitEndsOnTheFullPicture(t *testing.T) {
	e, _ := launchOnGrid(t, 100000, "--nx", "100", "--ny", "10", "--nz", "100")
	still := settle(e)
	vp := still.Viewport
	x, y := vp.X+vp.W/3, vp.Y+vp.H/2
	e.Move(x, y)
	e.Xdotool("mousedown", "2")
	e.Sync()
	for i := 1; i <= 12; i++ {
		e.Xdotool("mousemove", strconv.Itoa(x+i*20), strconv.Itoa(y+i*2))
		e.Sync()
	}
	moving, _ := e.ReadProbe()
	if moving.Picture.Stride <= 1 {
		t.Fatalf("no thinned picture while the view moved: %+v", moving.Picture)
	}
	e.Xdotool("mouseup", "2")
	e.Sync() // the release's frame, and one after
	p, _ := e.ReadProbe()
	if p.Picture.Stride != 1 {
		t.Errorf("the orbit ended two frames ago and the picture on screen is thinned: %+v", p.Picture)
	}
	p = e.WaitProbe(5*time.Minute, "the full picture after the orbit", func(p *guitest.Probe) bool {
		return p.Picture.Stride == 1
	})
	if p.Camera.Yaw == still.Camera.Yaw {
		t.Fatalf("the middle drag did not orbit: camera %+v", p.Camera)
	}
	if p.Picture.Steps != 1 {
		t.Errorf("the full picture after the orbit took %d frames, the thinned one on screen meanwhile: %+v", p.Picture.Steps, p.Picture)
	}
}
