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

// uiPresent checks that the probe shows the whole UI: menu bar, every panel, hierarchy rows.
func uiPresent(t *testing.T, p *guitest.Probe, when string) {
	t.Helper()
	if !p.MenuBar {
		t.Errorf("%s: the menu bar is not there", when)
	}
	for _, name := range []string{"Hierarchy", "Viewport", "Inspector", "Console"} {
		if _, ok := p.Panels[name]; !ok {
			t.Errorf("%s: panel %s is missing", when, name)
		}
	}
	if len(p.Hierarchy) == 0 {
		t.Errorf("%s: the hierarchy shows no rows", when)
	}
}

// TestBigSceneOpensWithProgress: a 100,000-cube scene named on the command line opens inside the window: the UI
// (with the progress) is presented before the scene is in it, then the scene replaces the empty one.
func TestBigSceneOpensWithProgress(t *testing.T) {
	path := bigScene(t, 100, 10, 100)
	e := launchOn(t, path)
	p := e.WaitProbe(120*time.Second, "the scene loaded", func(p *guitest.Probe) bool {
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
	uiPresent(t, p, "after the open")
	if p.ScenePath != path || p.Dirty || p.Job != nil {
		t.Errorf("after the open: path %q, dirty %v, job %+v", p.ScenePath, p.Dirty, p.Job)
	}
	t.Logf("launch → first frame with the scene presented: %v (%d frames drawn while it loaded)",
		time.Duration(m.Presented-m.Input), m.Frames)
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

// TestBigSpawnKeepsUIAndCancels: a million-cube spawn runs as a background job; the menu bar, the panels and the
// rest of the UI stay (Play works meanwhile), the overlay shows the job with Cancel, and Cancel leaves the scene as
// it was. (Play holds the job's result — a grid is added only when play mode ends — so Cancel is pressed while
// the job is certainly not merged, on any machine.)
func TestBigSpawnKeepsUIAndCancels(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p0, _ := e.ReadProbe()
	setGrid(e, "1000", "1", "1000")
	e.WaitProbe(20*time.Second, "counts", func(p *guitest.Probe) bool { return p.Grid != nil && p.Grid.Count == [3]int{1000, 1, 1000} })
	e.KeysAtOnce("Return", "ctrl+p") // Spawn, then Play at once
	p := e.WaitProbe(60*time.Second, "job shown and waiting for Stop", func(p *guitest.Probe) bool {
		return p.Job != nil && p.Job.Shown && p.Job.Waiting != "" && p.Playing
	})
	settled := p.Frames + 3 // (play mode draws every frame)
	p = e.WaitProbe(60*time.Second, "a few frames more", func(p *guitest.Probe) bool { return p.Frames > settled && p.Job != nil })
	if p.Entities != p0.Entities || p.Grid != nil {
		t.Fatalf("while the job waits: %d entities (want %d), dialog %+v", p.Entities, p0.Entities, p.Grid)
	}
	uiPresent(t, p, "during the job")
	if !strings.HasPrefix(p.Job.Label, "Spawning 1000000 cubes") || p.Job.Done != p.Job.Total || p.Job.Total == 0 {
		t.Errorf("job %+v", p.Job)
	}
	shot := lookShot(t, e, "job-overlay.png")
	// The overlay is drawn where the probe says its Cancel button is: not the dark panel background there.
	if st := guitest.RegionStats(shot, p.Job.Cancel.Image()); st.Distinct < 4 || st.Spread[0] < 40 {
		t.Errorf("no Cancel button on screen at %+v (%+v)", p.Job.Cancel, st)
	}
	e.Click(p.Job.Cancel.X+p.Job.Cancel.W/2, p.Job.Cancel.Y+p.Job.Cancel.H/2, 1)
	p = e.WaitProbe(30*time.Second, "job cancelled", func(p *guitest.Probe) bool { return p.Job == nil })
	e.Key("ctrl+p") // Stop
	p = e.WaitProbe(30*time.Second, "stopped", func(p *guitest.Probe) bool { return !p.Playing })
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

// TestBigSpawnKeepsUIAndCompletes: a 100,000-cube spawn next to the scene: the menu bar and panels are there in
// every probe the test reads while it runs, and the grid arrives as one undoable step.
func TestBigSpawnKeepsUIAndCompletes(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p0, _ := e.ReadProbe()
	setGrid(e, "100", "10", "100")
	e.WaitProbe(60*time.Second, "preview of the cubes", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.PreviewCubes == 100_000
	})
	e.Key("Return")
	p := e.WaitProbe(120*time.Second, "grid spawned", func(p *guitest.Probe) bool {
		if p.Entities != p0.Entities+100_000 {
			uiPresent(t, p, "while spawning")
		}
		_, ok := lastMark(p, "spawn grid")
		return ok && p.Entities == p0.Entities+100_000
	})
	uiPresent(t, p, "after the spawn")
	if p.UndoDepth != p0.UndoDepth+1 || len(p.Selected) != 100_000 {
		t.Errorf("after the spawn: %d undo steps, %d selected", p.UndoDepth, len(p.Selected))
	}
	m, _ := lastMark(p, "spawn grid")
	t.Logf("key → result %v, key → first frame with it presented %v", time.Duration(m.Result-m.Input), time.Duration(m.Presented-m.Input))
	e.Key("ctrl+z")
	e.WaitProbe(60*time.Second, "undone", func(p *guitest.Probe) bool { return p.Entities == p0.Entities && !p.Dirty })
}

// TestGridDialogTypingStaysPrompt: with 100,000 cubes in the scene and 100,000 in the preview, typing in the grid
// dialog updates the field at once: no frame that handles a keystroke re-renders the viewport (the outline of the
// grid follows instead), and the cubes follow when the field is left.
func TestGridDialogTypingStaysPrompt(t *testing.T) {
	e := launchOn(t, bigScene(t, 100, 10, 100))
	e.WaitProbe(120*time.Second, "the scene loaded", func(p *guitest.Probe) bool { return p.Entities == 100_000 })
	setGrid(e, "100", "10", "100")
	p0 := e.WaitProbe(120*time.Second, "big preview shown", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.PreviewCubes == 100_000
	})
	if p0.Grid.EditRenders != 0 {
		t.Errorf("%d frames that changed a value also rendered the viewport", p0.Grid.EditRenders)
	}
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
	if p.Grid.Edits <= p0.Grid.Edits || p.Grid.EditRenders != 0 {
		t.Errorf("typing: %d → %d edits, %d of them rendered the viewport (want none)", p0.Grid.Edits, p.Grid.Edits, p.Grid.EditRenders)
	}
	e.Key("Return")
	p = e.WaitProbe(120*time.Second, "cubes follow", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.PreviewCubes == 42_000
	})
	if p.Grid.EditRenders != 0 {
		t.Errorf("%d frames that changed a value also rendered the viewport", p.Grid.EditRenders)
	}
	if p.Entities != 100_000 {
		t.Errorf("the preview changed the scene: %d entities", p.Entities)
	}
}
