package e2e

import (
	"image"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// Input the editor gets right: the view cube, orbit presses, the font's glyphs, an idle focused text field.

// TestViewCubeClickKeepsSelection: clicking a face of the view cube turns the camera and leaves the selection
// alone (it does not pick what is behind the cube: nothing, which would clear the selection).
func TestViewCubeClickKeepsSelection(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p := clickCube(t, e)
	sel := p.Selected[0]
	cam := p.Camera
	if p.ViewCube.W == 0 {
		t.Fatal("the probe does not report the view cube")
	}
	cx, cy := p.ViewCube.Center()
	e.Click(cx, cy, 1)
	e.WaitProbe(15*time.Second, "the camera to turn to the clicked face", func(p *guitest.Probe) bool { return p.Camera != cam })
	p = settled(t, e)
	if len(p.Selected) != 1 || p.Selected[0] != sel {
		t.Errorf("after clicking the view cube the selection is %v, want [%d]", p.Selected, sel)
	}
	t.Logf("camera %+v → %+v", cam, p.Camera)
}

// settled waits until the camera has stopped moving (the view cube animates the turn) and returns the probe: the
// editor goes idle only once nothing moves, however slowly its frames come.
func settled(t *testing.T, e *guitest.Editor) *guitest.Probe {
	t.Helper()
	return e.Settle()
}

// TestOrbitIgnoresMotionBeforePress: a move and a middle-button press that arrive in the same frame (a slow
// frame, or xdotool) must not orbit by the move, which happened before the press; only motion after it orbits.
// Play mode keeps frames coming, so the move and the press always land in one frame.
func TestOrbitIgnoresMotionBeforePress(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p, _ := e.ReadProbe()
	vp := p.Viewport
	e.Key("ctrl+p")
	e.WaitProbe(10*time.Second, "play mode", func(p *guitest.Probe) bool { return p.Playing })
	e.Move(vp.X+60, vp.Y+vp.H/2)
	for i, to := range [][2]int{{vp.X + vp.W - 160, vp.Y + vp.H/2}, {vp.X + 60, vp.Y + vp.H - 40}, {vp.X + vp.W/2, vp.Y + 60}} {
		before := e.WaitProbe(5*time.Second, "probe", func(*guitest.Probe) bool { return true })
		e.Xdotool("mousemove", strconv.Itoa(to[0]), strconv.Itoa(to[1]), "mousedown", "2") // handled when it returns
		e.Xdotool("mouseup", "2")
		frames := before.Frames
		after := e.WaitProbe(10*time.Second, "frames after the release", func(p *guitest.Probe) bool { return p.Frames > frames+5 })
		if after.Camera != before.Camera {
			t.Errorf("press %d without a drag moved the camera: %+v → %+v", i, before.Camera, after.Camera)
		}
	}
	// Motion after the press still orbits.
	before, _ := e.ReadProbe()
	e.Drag(vp.X+vp.W/2, vp.Y+vp.H/2, vp.X+vp.W/2+200, vp.Y+vp.H/2, 2)
	e.WaitProbe(10*time.Second, "a middle drag to orbit", func(p *guitest.Probe) bool { return p.Camera.Yaw != before.Camera.Yaw })
}

// TestEditorTextsHaveGlyphs: every character beyond ASCII that the editor's texts use ("…", "—", "°", "→") is in the
// font atlas; a missing one is drawn as '?' ("Spawning 100000 cubes?").
func TestEditorTextsHaveGlyphs(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p := e.WaitProbe(10*time.Second, "the glyph check (frame 3)", func(p *guitest.Probe) bool { return p.Frames > 3 })
	if p.MissingGlyphs != "" {
		t.Errorf("the font lacks %q (drawn as '?')", p.MissingGlyphs)
	}
}

// TestFocusedTextFieldIdles: a text field that has the keyboard but gets no input must not keep the editor
// drawing flat out (it used to: 97 % CPU with the hierarchy search focused). The idle loop sleeps between caret
// blinks: a handful of frames per sleep, counted by the probe, instead of never sleeping; the caret still blinks.
func TestFocusedTextFieldIdles(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p, _ := e.ReadProbe()
	if p.HierarchySearch.W == 0 {
		t.Fatal("the probe does not report the hierarchy search field")
	}
	sx, sy := p.HierarchySearch.Center()
	e.Click(sx, sy, 1)
	p = e.WaitProbe(10*time.Second, "the search field to have the keyboard", func(p *guitest.Probe) bool { return p.TextInput })
	w0 := p.Waits
	p = e.WaitProbe(30*time.Second, "the idle loop to sleep with the search field focused", func(p *guitest.Probe) bool {
		return p.Waits > w0 && p.TextInput
	})
	f1, w1 := p.Frames, p.Waits
	p = e.WaitProbe(60*time.Second, "six more sleeps", func(p *guitest.Probe) bool { return p.Waits >= w1+6 })
	if !p.TextInput {
		t.Fatal("the search field lost the keyboard")
	}
	frames, waits := p.Frames-f1, p.Waits-w1
	t.Logf("%d frames over %d sleeps with the search field focused", frames, waits)
	if frames > 3*waits+3 {
		t.Errorf("%d frames over %d idle sleeps: a focused text field keeps the editor drawing", frames, waits)
	}
	// The caret blinks: the field's pixels change while nobody types.
	r := p.HierarchySearch.Image()
	first := e.Screenshot()
	e.WaitScreen(15*time.Second, "the caret of the focused search field blink", func(img *image.RGBA) bool {
		return guitest.DiffPixels(first, img, r, 40) > 0
	})
}

// TestInputAtLowFrameRate: at a few frames a second (--test-frame-delay: each frame lasts 0.3 s longer, as a big
// scene on a software renderer makes it), every press and release still reaches the editor, in order: a click
// whose press and release come within one frame brings a dock tab to the front and selects a row, a double-click
// on a row starts its rename and the name typed right after it lands in the field, and digits typed right after
// Ctrl+G all land in the grid dialog's first field (a quick Tab then moves to the next one, once).
func TestInputAtLowFrameRate(t *testing.T) {
	e := launchOnWith(t, copyScene(t, "cubes.json"), "--test-frame-delay", "300ms")
	p := e.Settle()
	shown := func(p *guitest.Probe, name string) bool { return slices.Contains(p.Shown, name) }
	if !shown(p, "Console") || shown(p, "Assets") {
		t.Fatalf("the bottom panels start with %v shown, want the Console in front", p.Shown)
	}
	tab := p.Tabs["Assets"]
	if tab.W == 0 {
		t.Fatalf("the probe does not report the Assets tab: %+v", p.Tabs)
	}
	// A click whose press and release come back to back.
	quickClick := func(x, y int) {
		e.Xdotool("mousemove", strconv.Itoa(x), strconv.Itoa(y), "mousedown", "1", "mouseup", "1")
	}
	x, y := tab.Center()
	quickClick(x, y)
	arrives(t, e, "the Assets tab in front after a quick click on it", func(p *guitest.Probe) bool {
		return shown(p, "Assets") && !shown(p, "Console")
	})
	x, y = rowCentre(t, p, "Cube 3,0")
	quickClick(x, y)
	arrives(t, e, "Cube 3,0 selected after a quick click on its row", func(p *guitest.Probe) bool {
		r, ok := p.Row("Cube 3,0")
		return ok && r.Selected
	})

	// A double-click on a row, and the new name typed and entered right after it.
	e.Move(rowCentre(t, p, "Cube 5,0"))
	e.Xdotool("click", "--repeat", "2", "--delay", "60", "1", "type", "--delay", "20", "Lamp") // type takes the rest
	e.Key("Return")
	arrives(t, e, "Cube 5,0 renamed to Lamp by a double-click and typing", func(p *guitest.Probe) bool {
		_, lamp := p.Row("Lamp")
		_, old := p.Row("Cube 5,0")
		return lamp && !old && p.Renaming == ""
	})

	// Ctrl+G and the digits typed right after it: they all land in the Count X field, in order; a quick Tab moves
	// to Count Y, once.
	e.Xdotool("key", "--delay", "20", "ctrl+g", "7", "8", "9", "Tab", "4", "Tab")
	p = arrives(t, e, "the grid dialog with counts 789, 4, 10", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Count == [3]int{789, 4, 10}
	})
	docShot(t, e, "input-low-frame-rate.png")
	if p != nil && p.Grid != nil {
		t.Logf("grid dialog counts %v; frame times %v ms", p.Grid.Count, p.FrameMs[max(0, len(p.FrameMs)-5):])
	}
}

// rowCentre returns the centre of the hierarchy row named name.
func rowCentre(t *testing.T, p *guitest.Probe, name string) (x, y int) {
	t.Helper()
	r, ok := p.Row(name)
	if !ok {
		t.Fatalf("no hierarchy row %q among %+v", name, p.Hierarchy)
	}
	return r.Center()
}

// arrives waits until cond holds for the editor's probe and returns that probe; unlike WaitProbe it reports a
// timeout as an error and goes on, so one run tells every input that was lost.
func arrives(t *testing.T, e *guitest.Editor, what string, cond func(*guitest.Probe) bool) *guitest.Probe {
	t.Helper()
	d := guitest.Timeout(10 * time.Second)
	deadline := time.Now().Add(d)
	for {
		p, err := e.ReadProbe()
		if err == nil && cond(p) {
			return p
		}
		if time.Now().After(deadline) {
			t.Errorf("lost input: no %s within %v", what, d)
			return p
		}
		time.Sleep(50 * time.Millisecond) // a poll interval: the condition, not this pause, decides
	}
}
