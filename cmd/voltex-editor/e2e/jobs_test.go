package e2e

import (
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// Long work — opening a big scene, spawning a big grid, previewing one — runs in the background while the whole
// UI stays usable: menu bar and panels stay, a small overlay shows the progress with Cancel, and typing in the
// grid dialog never waits for the viewport. Every wait is for a condition on the probe; nothing here depends on
// how fast the machine is. With $VOLTEX_SHOTS set, the screenshots a person should look at (the progress overlay,
// the grid dialog while typing) are written into that folder.

// bigScene writes a scene of nx×ny×nz cubes into a fresh folder and returns its path.
func bigScene(t testing.TB, nx, ny, nz int) string {
	t.Helper()
	p := scene.DefaultGrid()
	p.Count = [3]int{nx, ny, nz}
	data, err := serialize.Grid(p, "Big", 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// lookShot takes a screenshot, writing it into $VOLTEX_SHOTS (if set) for a person to look at.
func lookShot(t *testing.T, e *guitest.Editor, name string) *image.RGBA {
	t.Helper()
	img := e.Screenshot()
	if dir := os.Getenv("VOLTEX_SHOTS"); dir != "" {
		if err := guitest.WritePNG(filepath.Join(dir, name), img); err != nil {
			t.Error(err)
		}
	}
	return img
}

// lastMark returns the newest timed action named what, if any.
func lastMark(p *guitest.Probe, what string) (guitest.Mark, bool) {
	for i := len(p.Marks) - 1; i >= 0; i-- {
		if p.Marks[i].What == what {
			return p.Marks[i], true
		}
	}
	return guitest.Mark{}, false
}

// uiPresent checks that the probe shows the whole UI: menu bar, every panel (and hierarchy rows, if rows).
func uiPresent(t *testing.T, p *guitest.Probe, when string, rows bool) {
	t.Helper()
	if !p.MenuBar {
		t.Errorf("%s: the menu bar is not there", when)
	}
	for _, name := range []string{"Hierarchy", "Viewport", "Inspector", "Console"} {
		if _, ok := p.Panels[name]; !ok {
			t.Errorf("%s: panel %s is missing", when, name)
		}
	}
	if rows && len(p.Hierarchy) == 0 {
		t.Errorf("%s: the hierarchy shows no rows", when)
	}
}

// launchSlowJobs launches the editor on path with every background job pausing delay after each progress step
// (the e2e build's --test-job-delay), so that a test can look at a job and act while it runs, on any machine.
func launchSlowJobs(t *testing.T, path, delay string) *guitest.Editor {
	t.Helper()
	t.Parallel() // each test owns its Xvfb
	d := guitest.StartDisplay(t, 1600, 1000)
	e := guitest.Launch(t, d, "--size", "1600x1000", "--settings", t.TempDir(), "--test-job-delay", delay, path)
	failShot(t, e, t.Name())
	return e
}

// midway waits until the probe shows the job's overlay with some of the work done and some left.
func midway(e *guitest.Editor, label string) *guitest.Probe {
	return e.WaitProbe(120*time.Second, label+" shown mid-way", func(p *guitest.Probe) bool {
		return p.Job != nil && p.Job.Shown && strings.HasPrefix(p.Job.Label, label) && p.Job.Done > 0 && p.Job.Done < p.Job.Total
	})
}

// checkCancelButton checks that the overlay's Cancel button is drawn where the probe says.
func checkCancelButton(t *testing.T, shot *image.RGBA, p *guitest.Probe) {
	t.Helper()
	if st := guitest.RegionStats(shot, p.Job.Cancel.Image()); st.Distinct < 4 || st.Spread[0] < 40 {
		t.Errorf("no Cancel button on screen at %+v (%+v)", p.Job.Cancel, st)
	}
}

// TestBigSceneOpensWithProgress: a 100,000-cube scene named on the command line opens inside the window: the
// menu bar, the panels and the progress overlay are on screen while it loads (the UI is presented before the
// scene is in it), then the scene replaces the empty one.
func TestBigSceneOpensWithProgress(t *testing.T) {
	path := bigScene(t, 100, 10, 100)
	e := launchSlowJobs(t, path, "200ms") // the load reports about 30 steps (one per MB)
	p := midway(e, "Opening big.json")
	uiPresent(t, p, "while opening", false)
	e.WaitProbe(60*time.Second, "the overlay drawn", func(q *guitest.Probe) bool { return q.Frames > p.Frames+2 })
	checkCancelButton(t, lookShot(t, e, "open-progress.png"), p)
	p = e.WaitProbe(120*time.Second, "the scene loaded", func(p *guitest.Probe) bool {
		_, ok := lastMark(p, "open")
		return ok && p.Entities == 100_000
	})
	m, _ := lastMark(p, "open")
	if m.Frames < 2 {
		t.Errorf("the scene was in the first frame (%d frames): the window was not shown while it loaded", m.Frames)
	}
	if !(m.Input < m.Result && m.Result < m.Presented) {
		t.Errorf("open mark out of order: %+v", m)
	}
	uiPresent(t, p, "after the open", true)
	if p.ScenePath != path || p.Dirty || p.Job != nil {
		t.Errorf("after the open: path %q, dirty %v, job %+v", p.ScenePath, p.Dirty, p.Job)
	}
}

// setGrid opens the grid dialog (Ctrl+G: its first field has the keyboard) and types counts, committing them.
func setGrid(e *guitest.Editor, nx, ny, nz string) {
	e.Key("ctrl+g")
	e.WaitProbe(10*time.Second, "grid dialog", func(p *guitest.Probe) bool { return p.Grid != nil })
	e.Key("ctrl+a")
	e.Type(nx)
	e.Key("Tab", "ctrl+a")
	e.Type(ny)
	e.Key("Tab", "ctrl+a")
	e.Type(nz)
	e.Key("Return") // commits the field; a second Return spawns
}

// TestBigSpawnKeepsUIAndCancels: a 100,000-cube spawn runs as a background job; while it runs the menu bar and
// the panels stay and the overlay shows its progress with Cancel; Cancel mid-way leaves the scene as it was.
func TestBigSpawnKeepsUIAndCancels(t *testing.T) {
	e := launchSlowJobs(t, copyScene(t, "cubes.json"), "1s")
	p0, _ := e.ReadProbe()
	setGrid(e, "100", "10", "100")
	e.Key("Return") // Spawn
	p := midway(e, "Spawning 100000 cubes")
	uiPresent(t, p, "during the job", true)
	if p.Entities != p0.Entities || p.Grid != nil {
		t.Fatalf("during the job: %d entities (want %d), dialog %+v", p.Entities, p0.Entities, p.Grid)
	}
	e.WaitProbe(60*time.Second, "the overlay drawn", func(q *guitest.Probe) bool { return q.Frames > p.Frames+2 || q.Job.Done > p.Job.Done })
	checkCancelButton(t, lookShot(t, e, "job-overlay.png"), p)
	e.Click(p.Job.Cancel.X+p.Job.Cancel.W/2, p.Job.Cancel.Y+p.Job.Cancel.H/2, 1)
	p = e.WaitProbe(60*time.Second, "job cancelled", func(p *guitest.Probe) bool {
		_, marked := lastMark(p, "spawn grid")
		return p.Job == nil && marked
	})
	if p.Entities != p0.Entities || p.UndoDepth != p0.UndoDepth || p.Dirty {
		t.Fatalf("after Cancel: %d entities, %d undo steps, dirty %v; want %d, %d, false",
			p.Entities, p.UndoDepth, p.Dirty, p0.Entities, p0.UndoDepth)
	}
	if !slices.ContainsFunc(p.Console, func(s string) bool { return strings.Contains(s, "cancelled: the scene was not changed") }) {
		t.Errorf("console does not say the spawn was cancelled: %q", p.Console)
	}
	if m, ok := lastMark(p, "spawn grid"); !ok || !m.Cancelled {
		t.Errorf("spawn mark %+v, want a cancelled one", m)
	}
}

// TestBigSpawnKeepsUIAndCompletes: while a 100,000-cube spawn runs, the editor stays usable — an entity is created
// and Play starts; the grid's result waits for Stop (play mode) and then arrives as one undoable step of its own.
func TestBigSpawnKeepsUIAndCompletes(t *testing.T) {
	e := launchSlowJobs(t, copyScene(t, "cubes.json"), "500ms")
	p0, _ := e.ReadProbe()
	setGrid(e, "100", "10", "100")
	e.Key("Return")
	midway(e, "Spawning 100000 cubes")
	e.Key("ctrl+shift+n") // Entity → Create Empty, during the job
	p := e.WaitProbe(60*time.Second, "created during the job", func(p *guitest.Probe) bool { return p.Entities == p0.Entities+1 })
	if p.Job == nil {
		t.Fatal("the job ended before the edit: the test did not edit during it")
	}
	e.Key("ctrl+p") // Play, during the job
	p = e.WaitProbe(120*time.Second, "result waiting for Stop", func(p *guitest.Probe) bool {
		return p.Playing && p.Job != nil && p.Job.Waiting != ""
	})
	uiPresent(t, p, "while the result waits", true)
	if p.Entities != p0.Entities+1 {
		t.Fatalf("the grid was added in play mode: %d entities", p.Entities)
	}
	e.Key("ctrl+p") // Stop: the grid goes in
	p = e.WaitProbe(120*time.Second, "grid spawned", func(p *guitest.Probe) bool {
		_, ok := lastMark(p, "spawn grid")
		return ok && p.Entities == p0.Entities+1+100_000 && p.Job == nil
	})
	uiPresent(t, p, "after the spawn", true)
	if p.UndoDepth != p0.UndoDepth+2 || p.SelectedCount != 100_000 {
		t.Errorf("after the spawn: %d undo steps (want %d), %d selected", p.UndoDepth, p0.UndoDepth+2, p.SelectedCount)
	}
	e.Key("ctrl+z")
	e.WaitProbe(60*time.Second, "grid undone", func(p *guitest.Probe) bool { return p.Entities == p0.Entities+1 })
}

// TestGridDialogTypingStaysPrompt: with 100,000 cubes in the scene and 100,000 in the preview, typing in the grid
// dialog updates the field at once: no frame that handles a keystroke re-renders the viewport (the outline of the
// grid follows instead), and the cubes follow when the field is left.
func TestGridDialogTypingStaysPrompt(t *testing.T) {
	e := launchOn(t, bigScene(t, 100, 10, 100))
	// The scene's own picture complete first: a budgeted step of it in a frame that typed a value is not the
	// dialog's render.
	e.WaitProbe(120*time.Second, "the scene's picture", func(p *guitest.Probe) bool {
		return p.Entities == 100_000 && p.Picture.Total == 100_000 && !p.Picture.Pending
	})
	// Setting the counts is not measured: a field left with Tab shows the preview of the values so far, which
	// may arrive, and be drawn, in the frame of the next field's first key.
	setGrid(e, "100", "10", "100")
	p0 := e.WaitProbe(120*time.Second, "big preview drawn", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.PreviewCubes == 100_000 &&
			p.Picture.Total == 200_000 && !p.Picture.Pending
	})
	// Edit Count X again: Ctrl+click it (text input whatever the frame rate; a double-click needs two clicks
	// within 0.3 s of frame time), select its text, type 42.
	f := p0.Grid.Fields["count"]
	e.Click(f.X+f.W/6, f.Y+f.H/2, 1, "ctrl")
	e.WaitProbe(60*time.Second, "Count X in text input", func(p *guitest.Probe) bool { return p.Grid != nil && p.Grid.Typing })
	e.Key("ctrl+a")
	e.Type("42")
	p := e.WaitProbe(60*time.Second, "field shows 42", func(p *guitest.Probe) bool { return p.Grid != nil && p.Grid.Count[0] == 42 })
	shown := p.Frames + 2 // that frame has been presented once two more began (the field is active: frames go on)
	e.WaitProbe(60*time.Second, "presented", func(p *guitest.Probe) bool { return p.Frames >= shown })
	lookShot(t, e, "grid-typing.png")
	if p.Grid.Preview != "box" {
		t.Errorf("while typing the preview is %q, want the outline (box)", p.Grid.Preview)
	}
	if n := p.Grid.EditRenders - p0.Grid.EditRenders; p.Grid.Edits <= p0.Grid.Edits || n != 0 {
		t.Errorf("typing: %d → %d edits, %d of them rendered the viewport (want none)", p0.Grid.Edits, p.Grid.Edits, n)
	}
	e.Key("Return")
	p = e.WaitProbe(120*time.Second, "cubes follow", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.PreviewCubes == 42_000
	})
	if n := p.Grid.EditRenders - p0.Grid.EditRenders; n != 0 {
		t.Errorf("%d frames that changed a value also rendered the viewport", n)
	}
	if p.Entities != 100_000 {
		t.Errorf("the preview changed the scene: %d entities", p.Entities)
	}
}

// TestBigBrokenSceneReportsInWindow: a big scene named on the command line that turns out broken (a truncated
// file: the parser meets the end late) is reported inside the window — every problem as file:line:col in the
// console and a dialog — and the editor stays open on an empty scene.
func TestBigBrokenSceneReportsInWindow(t *testing.T) {
	path := bigScene(t, 100, 10, 100)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)-200], 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchSlowJobs(t, path, "0s") // (named by its absolute path: the messages name it so)
	p := e.WaitProbe(120*time.Second, "the error dialog", func(p *guitest.Probe) bool { return p.Modal == "prompt:Cannot open scene" })
	if !hasMessage(p, "error: "+path+":") {
		t.Errorf("no positioned error for %s in the console: %q", path, p.Console)
	}
	uiPresent(t, p, "after the failed open", false)
	if p.Entities != 0 || p.ScenePath != "" || p.Dirty {
		t.Errorf("after the failed open: %d entities, path %q, dirty %v; want an empty, clean new scene", p.Entities, p.ScenePath, p.Dirty)
	}
}

// checkProgressFirst checks that the spawn's progress overlay was drawn in the frame that handled Enter and was on
// the screen before the cubes went into the scene (the loop thread's share of the work comes after it).
func checkProgressFirst(t *testing.T, m guitest.Mark) {
	t.Helper()
	if m.Progress == 0 || m.ProgressFrames != 0 {
		t.Errorf("the progress overlay: presented at %d, %d frames after the frame of Enter; want it in that frame", m.Progress, m.ProgressFrames)
	}
	if m.Frames == 0 || m.Progress > m.Result {
		t.Errorf("the cubes were added %d frames after Enter, at %d, the overlay presented at %d: want them after it", m.Frames, m.Result, m.Progress)
	}
}

// TestBigSpawnShowsProgressAtOnce: Enter in the grid dialog of 100×10×100 cubes shows the progress overlay in the
// next frame presented (the one that handled Enter), before any of the work on the loop thread.
func TestBigSpawnShowsProgressAtOnce(t *testing.T) {
	_, e := launchCubes(t)
	p0 := e.Settle()
	setGrid(e, "100", "10", "100")
	e.Key("Return")
	p := e.WaitProbe(120*time.Second, "the cubes added", func(p *guitest.Probe) bool {
		m, ok := lastMark(p, "spawn grid")
		return ok && m.Presented != 0
	})
	if p.Entities != p0.Entities+100_000 {
		t.Fatalf("after the spawn: %d entities, want %d", p.Entities, p0.Entities+100_000)
	}
	m, _ := lastMark(p, "spawn grid")
	checkProgressFirst(t, m)
}

// TestGridSpawnMadeReadyBehindThePreview: while the grid dialog shows the preview of a big grid and its values stay
// as they are, the editor makes its spawn ready in the background (the probe's Grid.Ready); Enter then shows the
// progress overlay in the frame that handles it and adds the cubes in a following frame (a job with nothing left
// to compute), as one undoable step with the cubes selected; and the picture of the preview, which showed them
// already, is the scene's picture in that frame (adopted, not drawn again: the probe's Picture.Adopted).
func TestGridSpawnMadeReadyBehindThePreview(t *testing.T) {
	_, e := launchCubes(t)
	p0 := e.Settle()
	setGrid(e, "100", "1", "100")
	e.WaitProbe(120*time.Second, "the grid's preview, its spawn ready", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.PreviewCubes == 10_000 && p.Grid.Ready
	})
	adopted := e.Settle().Picture.Adopted // the preview's picture complete
	e.Key("Return")
	p := e.WaitProbe(120*time.Second, "the cubes added", func(p *guitest.Probe) bool {
		m, ok := lastMark(p, "spawn grid")
		return ok && m.Presented != 0 && p.Grid == nil
	})
	m, _ := lastMark(p, "spawn grid")
	checkProgressFirst(t, m)
	if p.Job != nil {
		t.Errorf("the ready spawn's job is still there: %+v", p.Job)
	}
	if p.Entities != p0.Entities+10_000 || p.SelectedCount != 10_000 || p.UndoDepth != p0.UndoDepth+1 {
		t.Fatalf("after the spawn: %d entities, %d selected, %d undo steps (want %d, 10000, %d)",
			p.Entities, p.SelectedCount, p.UndoDepth, p0.Entities+10_000, p0.UndoDepth+1)
	}
	if m.Picture != m.Presented || p.Picture.Adopted != adopted+1 {
		t.Errorf("the spawn's picture: presented at %d, picture at %d, %d adopted (was %d); want the preview's picture adopted in the frame that adds the cubes",
			m.Presented, m.Picture, p.Picture.Adopted, adopted)
	}
	e.Key("ctrl+z")
	e.WaitProbe(60*time.Second, "the spawn undone", func(p *guitest.Probe) bool { return p.Entities == p0.Entities })
}

// TestBigSceneSaysItIsBeingDrawn: once a 100,000-cube scene is open, its first picture takes several frames; until
// it is there the viewport says so over the old picture ("Drawing 100,000 entities… n %"), never showing an empty
// scene without a word. Every probe read while the picture on screen is still the empty scene's is checked (the
// unit test TestViewportShowsDrawingOfANewScene checks every frame).
func TestBigSceneSaysItIsBeingDrawn(t *testing.T) {
	e := launchOn(t, bigScene(t, 100, 10, 100))
	seen := 0
	p := e.WaitProbe(180*time.Second, "the scene's picture", func(p *guitest.Probe) bool {
		if p.Entities == 100_000 && p.Picture.Pending && p.Picture.Total == 0 {
			if !strings.HasPrefix(p.Picture.Drawing, "Drawing 100,000 entities… ") {
				t.Fatalf("frame %d: the viewport has no picture of the open scene yet and says %q", p.Frames, p.Picture.Drawing)
			}
			if seen++; seen == 3 { // on the screen for a few reads by now
				lookShot(t, e, "drawing-note.png")
			}
		}
		return p.Entities == 100_000 && !p.Picture.Pending && p.Picture.Total > 0
	})
	t.Logf("the note seen in %d probe reads", seen)
	if p.Picture.Drawing != "" {
		t.Errorf("with the picture complete the viewport says %q", p.Picture.Drawing)
	}
}
