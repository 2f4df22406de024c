package e2e

import (
	"image"
	"image/color"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// repoPath returns a path relative to the repository root.
func repoPath(rel string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", rel)
}

// failShot saves a screenshot for a person to look at when the test fails.
func failShot(t *testing.T, e *guitest.Editor, name string) {
	t.Cleanup(func() {
		if t.Failed() && e.Running() {
			p := repoPath(filepath.Join("cmd/voltex-editor/e2e/testdata/failed", name+".png"))
			e.SaveScreenshot(p)
			t.Logf("screenshot of the failure: %s", p)
		}
	})
}

func launchCubes(t *testing.T) (*guitest.Display, *guitest.Editor) {
	t.Helper()
	t.Parallel() // each test owns its Xvfb
	d := guitest.StartDisplay(t, 1600, 1000)
	e := guitest.Launch(t, d, "--size", "1600x1000", "--settings", t.TempDir(), copyScene(t, "cubes.json"))
	failShot(t, e, t.Name())
	return d, e
}

func TestEditorOpensWithDockedPanels(t *testing.T) {
	_, e := launchCubes(t)
	p := e.WaitProbe(20*time.Second, "panels", func(p *guitest.Probe) bool { return len(p.Panels) >= 5 })
	if p.Title != "Voltex Editor — cubes.json" { // the file a user opened, not the scene's internal name
		t.Errorf("title = %q, want \"Voltex Editor — cubes.json\"", p.Title)
	}
	for _, name := range []string{"Hierarchy", "Viewport", "Inspector", "Assets", "Console"} {
		if _, ok := p.Panels[name]; !ok {
			t.Errorf("panel %s missing; have %v", name, p.Panels)
		}
	}
	h, v, i := p.Panels["Hierarchy"], p.Panels["Viewport"], p.Panels["Inspector"]
	if !(h.X < v.X && v.X+v.W <= i.X+1) {
		t.Errorf("want hierarchy left of viewport left of inspector: %+v %+v %+v", h, v, i)
	}
	for _, name := range []string{"Assets", "Console"} {
		if r := p.Panels[name]; r.Y < v.Y+v.H-1 {
			t.Errorf("%s panel %+v should be below the viewport %+v", name, r, v)
		}
	}
	if v.W < 600 || v.H < 400 {
		t.Errorf("viewport panel too small: %+v", v)
	}
	checkViewportShowsCubes(t, e, p)
}

// saturated matches the cubes' colours (the grid, sky and panels are grey).
func saturated(c color.RGBA) bool {
	hi := max(c.R, c.G, c.B)
	lo := min(c.R, c.G, c.B)
	return hi-lo > 70
}

// checkViewportShowsCubes asserts that the viewport image is a real 3D picture: many colours, cubes (saturated
// pixels) in its middle, grey grid/sky elsewhere, and the sky (brighter, no cubes) at the top — right way up.
func checkViewportShowsCubes(t *testing.T, e *guitest.Editor, p *guitest.Probe) {
	t.Helper()
	img := e.ScreenshotOf(p)
	r := p.Viewport.Image()
	st := guitest.RegionStats(img, r)
	if st.Distinct < 200 {
		t.Errorf("viewport looks flat: %d distinct colours (%+v)", st.Distinct, st)
	}
	cubes := guitest.CountPixels(img, r, saturated)
	if frac := float64(cubes) / float64(r.Dx()*r.Dy()); frac < 0.05 || frac > 0.6 {
		t.Errorf("cube pixels are %.1f%% of the viewport, want 5..60%%", 100*frac)
	}
	top := image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+r.Dy()/8)
	if n := guitest.CountPixels(img, top, saturated); n > top.Dx()*top.Dy()/100 {
		t.Errorf("the top eighth of the viewport should be sky without cubes, has %d cube pixels (upside down?)", n)
	}
}

func TestQuitWithCtrlQ(t *testing.T) {
	_, e := launchCubes(t)
	e.Key("ctrl+q")
	code, err := e.Wait(15 * time.Second)
	if err != nil || code != 0 {
		t.Fatalf("after Ctrl+Q: exit code %d, err %v", code, err)
	}
}

func TestCloseRequestExitsCleanly(t *testing.T) {
	_, e := launchCubes(t)
	e.RequestClose()
	code, err := e.Wait(15 * time.Second)
	if err != nil || code != 0 {
		t.Fatalf("after WM_DELETE_WINDOW: exit code %d, err %v", code, err)
	}
}

// TestIdleEditorCostsNothing: with the default scene open, once the editor has gone idle it uses at most 100 ms
// of CPU in 5 s without input (2% of one core; CPU time, which a busy machine does not inflate the way it stretches
// wall-clock time) and builds no frames and no viewport renders.
func TestIdleEditorCostsNothing(t *testing.T) {
	_, e := launchCubes(t)
	before := e.Settle() // start-up work done, the idle delay passed: the editor sleeps until input
	cpu0 := e.CPUTime()
	time.Sleep(5 * time.Second) // the measurement window: an idle editor must do nothing in it, however long
	cpu := e.CPUTime() - cpu0
	after, err := e.ReadProbe()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("idle for 5 s: %v CPU (%.1f%% of one core), %d frames, %d viewport renders", cpu, 100*cpu.Seconds()/5,
		after.Frames-before.Frames, after.ViewportRenders-before.ViewportRenders)
	if cpu > 100*time.Millisecond {
		t.Errorf("idle editor used %v CPU in 5 s (> 2%% of one core)", cpu)
	}
	if n := after.ViewportRenders - before.ViewportRenders; n != 0 {
		t.Errorf("idle viewport rendered %d times in 5 s, want 0", n)
	}
	// The only frames allowed are the rare safety wake-ups (one per 10 s), each going straight back to sleep.
	if n := after.Frames - before.Frames; n > 1 || !after.Idle {
		t.Errorf("idle editor built %d frames in 5 s (idle now: %v), want at most 1", n, after.Idle)
	}
	// And it still answers at once.
	e.Key("ctrl+q")
	if code, err := e.Wait(10 * time.Second); err != nil || code != 0 {
		t.Fatalf("after idling, Ctrl+Q: exit code %d, err %v", code, err)
	}
}

// TestViewportFollowsWindowSize: resizing the window resizes the viewport panel and its image (re-rendered at the
// new size, still showing the cubes).
func TestViewportFollowsWindowSize(t *testing.T) {
	_, e := launchCubes(t)
	p0 := e.Settle()
	e.Resize(1200, 800)
	p := e.WaitProbe(10*time.Second, "smaller viewport", func(p *guitest.Probe) bool {
		return p.Viewport.W < p0.Viewport.W-200 && p.Viewport.H < p0.Viewport.H-100
	})
	// The render at the new size happens in the frame that sees the new size or the next one.
	p = e.WaitProbe(10*time.Second, "a render at the new size", func(q *guitest.Probe) bool {
		return (q.Frames > p.Frames || q.Idle) && q.Viewport == p.Viewport
	})
	if p.ViewportRenders <= p0.ViewportRenders {
		t.Errorf("the viewport was not re-rendered after the resize (%d → %d renders)", p0.ViewportRenders, p.ViewportRenders)
	}
	checkViewportShowsCubes(t, e, p)
}
