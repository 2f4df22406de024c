package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/game"
)

// fixture returns the content of testdata/NAME: the tests' own copies of the example scenes (a user edits the ones
// in scenes/).
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// writeScenes writes files (name → text) into a fresh project's scenes folder (TEMP/my-game/scenes) and returns
// the folder.
func writeScenes(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "my-game", "scenes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// copyScene copies a scene from testdata/ into a fresh project folder (TEMP/my-game/scenes/NAME), so tests can save
// over it, and returns its absolute path.
func copyScene(t testing.TB, name string) string {
	t.Helper()
	data := fixture(t, name)
	p := filepath.Join(t.TempDir(), "my-game", "scenes", name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// launchOn opens the scene at path as a user would from a shell: in the project folder (the scene's folder, or the
// one above a "scenes" folder), with the path relative to it ("scenes/cubes.json", "arena.json"), and the
// project's parent as the home folder (file dialogs show "~/my-game/scenes"). So the status bar, console and
// dialogs (and the README's screenshots) show what a user sees, not the test's temporary folders.
func launchOn(t *testing.T, path string) *guitest.Editor {
	t.Helper()
	return launchOnWith(t, path)
}

// launchOnWith is launchOn with more command-line flags for the editor (e.g. the e2e build's --test-frame-delay).
func launchOnWith(t *testing.T, path string, flags ...string) *guitest.Editor {
	t.Helper()
	return launchOnEnv(t, path, nil, flags...)
}

// launchOnEnv is launchOnWith with more variables in the editor's environment (e.g. its own XDG_STATE_HOME).
func launchOnEnv(t *testing.T, path string, env []string, flags ...string) *guitest.Editor {
	t.Helper()
	t.Parallel() // each test owns its Xvfb
	project := filepath.Dir(path)
	if filepath.Base(project) == "scenes" {
		project = filepath.Dir(project)
	}
	rel, err := filepath.Rel(project, path)
	if err != nil {
		t.Fatal(err)
	}
	d := guitest.StartDisplay(t, 1600, 1000)
	e := guitest.LaunchIn(t, d, project, append([]string{"HOME=" + filepath.Dir(project)}, env...),
		append([]string{"--size", "1600x1000", "--settings", t.TempDir()}, append(flags, rel)...)...)
	failShot(t, e, t.Name())
	return e
}

// clickCube clicks a cube near the middle of the viewport and waits until exactly one entity is selected.
func clickCube(t *testing.T, e *guitest.Editor) *guitest.Probe {
	t.Helper()
	x, y := cubePixel(t, e)
	e.Click(x, y, 1)
	return e.WaitProbe(10*time.Second, "one selected entity", func(p *guitest.Probe) bool {
		return len(p.Selected) == 1 && p.Inspector["Color.rgba"].W > 0
	})
}

// cubePixel returns a pixel well inside a cube near the middle of the viewport.
func cubePixel(t *testing.T, e *guitest.Editor) (x, y int) {
	t.Helper()
	p, err := e.ReadProbe()
	if err != nil {
		t.Fatal(err)
	}
	x, y, ok := cubeIn(e.ScreenshotOf(p), p.Viewport)
	if !ok {
		t.Fatal("no cube found near the middle of the viewport")
	}
	return x, y
}

// cubeIn returns a pixel well inside a cube (it and its neighbours are cube-coloured) in r of img, the nearest to
// r's middle.
func cubeIn(img *image.RGBA, r guitest.Rect) (x, y int, ok bool) {
	cx, cy := r.Center()
	for d := 0; d < min(r.W, r.H)/2-4; d += 2 {
		for _, o := range [][2]int{{d, 0}, {-d, 0}, {0, d}, {0, -d}, {d, d}, {-d, -d}, {d, -d}, {-d, d}} {
			x, y := cx+o[0], cy+o[1]
			if saturated(img.RGBAAt(x, y)) && saturated(img.RGBAAt(x+2, y)) && saturated(img.RGBAAt(x-2, y)) &&
				saturated(img.RGBAAt(x, y+2)) && saturated(img.RGBAAt(x, y-2)) {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}

// widget returns an inspector widget from the probe.
func widget(t *testing.T, p *guitest.Probe, name string) guitest.Widget {
	t.Helper()
	w, ok := p.Inspector[name]
	if !ok || w.W == 0 {
		var names []string
		for k := range p.Inspector {
			names = append(names, k)
		}
		t.Fatalf("inspector widget %q not on screen; have %v", name, names)
	}
	return w
}

// typeIntoChannel Ctrl+clicks channel ch of a multi-channel widget (n channels, the last swatchW pixels being a
// colour swatch) to edit it as text, replaces its text and presses Enter. (Ctrl+click, not a double-click: ImGui
// times a double-click in frames, which a loaded machine can stretch past its 0.3 s.)
func typeIntoChannel(e *guitest.Editor, w guitest.Widget, ch, n, swatchW int, text string) {
	chW := (w.W - swatchW) / n
	x := w.X + chW*ch + chW/2
	y := w.Y + w.H/2
	e.Click(x, y, 1, "ctrl")
	e.Key("ctrl+a")
	e.Type(text)
	e.Key("Return")
}

func viewportRect(p *guitest.Probe) image.Rectangle { return p.Viewport.Image() }

// TestWorkflowEditColourUndoRedoSave is workflow (a): open cubes.json, click a cube, change its colour in the
// inspector, undo, redo, save — the file on disk has the new colour and nothing else changed.
func TestWorkflowEditColourUndoRedoSave(t *testing.T) {
	path := copyScene(t, "cubes.json")
	before, _ := os.ReadFile(path)
	e := launchOn(t, path)
	p := clickCube(t, e)
	orig := widget(t, p, "Color.rgba").Shown
	shot0 := e.ScreenshotOf(p)

	typeIntoChannel(e, widget(t, p, "Color.rgba"), 0, 4, widget(t, p, "Color.rgba").H, "0.05")
	p = e.WaitProbe(10*time.Second, "new colour", func(p *guitest.Probe) bool {
		return strings.HasPrefix(p.Inspector["Color.rgba"].Shown, "0.05,") && p.Dirty
	})
	if p.UndoDepth != 1 {
		t.Errorf("typing a colour made %d undo steps, want 1", p.UndoDepth)
	}
	if !strings.HasPrefix(p.Title, "*") {
		t.Errorf("title %q should start with * when modified", p.Title)
	}
	if n := guitest.DiffPixels(shot0, e.ScreenshotOf(p), viewportRect(p), 20); n < 20 {
		t.Errorf("the viewport did not change after the colour edit (%d pixels differ)", n)
	}
	docShot(t, e, "workflow-edit.png")

	e.Key("ctrl+z")
	e.WaitProbe(10*time.Second, "undo", func(p *guitest.Probe) bool { return p.Inspector["Color.rgba"].Shown == orig && !p.Dirty })
	e.Key("ctrl+y")
	e.WaitProbe(10*time.Second, "redo", func(p *guitest.Probe) bool {
		return strings.HasPrefix(p.Inspector["Color.rgba"].Shown, "0.05,") && p.Dirty
	})
	e.Key("ctrl+s")
	p = e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	if strings.HasPrefix(p.Title, "*") {
		t.Errorf("title %q still marked modified after saving", p.Title)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := diffLines(before, after)
	if len(changed) != 1 || !strings.Contains(changed[0], `"rgba": [0.05,`) {
		t.Fatalf("want exactly the colour line changed, got %d changed lines:\n%s", len(changed), strings.Join(changed, "\n"))
	}
	if _, err := os.Stat(path + ".bak"); err != nil {
		t.Errorf("no backup of the previous version: %v", err)
	}
}

// diffLines returns the lines of b that differ from a at the same line number (the files must have the same
// number of lines, as an edit of one value keeps them).
func diffLines(a, b []byte) []string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	if len(la) != len(lb) {
		return []string{fmt.Sprintf("line count changed: %d → %d", len(la), len(lb))}
	}
	var out []string
	for i := range la {
		if !bytes.Equal(la[i], lb[i]) {
			out = append(out, fmt.Sprintf("%d: %s → %s", i+1, bytes.TrimSpace(la[i]), bytes.TrimSpace(lb[i])))
		}
	}
	return out
}

// TestInspectorDragIsOneUndoStep: select a cube, drag its position X, release → one undo step; type a colour →
// the viewport changes; Ctrl+Z restores both, in order.
func TestInspectorDragIsOneUndoStep(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p := clickCube(t, e)
	x0 := widget(t, p, "Transform.position[0]")
	startX := x0.Shown
	shot0 := e.ScreenshotOf(p)
	cx, cy := x0.Center()
	e.Drag(cx, cy, cx+150, cy, 1)
	p = e.WaitProbe(10*time.Second, "drag applied", func(p *guitest.Probe) bool {
		return p.Inspector["Transform.position[0]"].Shown != startX && p.UndoDepth > 0
	})
	if p.UndoDepth != 1 {
		t.Fatalf("a drag made %d undo steps, want 1", p.UndoDepth)
	}
	draggedX := p.Inspector["Transform.position[0]"].Shown
	col := p.Inspector["Color.rgba"].Shown
	typeIntoChannel(e, widget(t, p, "Color.rgba"), 1, 4, widget(t, p, "Color.rgba").H, "0.9")
	p = e.WaitProbe(10*time.Second, "colour typed", func(p *guitest.Probe) bool { return p.UndoDepth == 2 })
	if n := guitest.DiffPixels(shot0, e.ScreenshotOf(p), viewportRect(p), 20); n < 20 {
		t.Errorf("viewport unchanged after moving and recolouring a cube (%d pixels differ)", n)
	}
	e.Key("ctrl+z")
	p = e.WaitProbe(10*time.Second, "colour undone", func(p *guitest.Probe) bool { return p.UndoDepth == 1 })
	if got := p.Inspector["Color.rgba"].Shown; got != col {
		t.Errorf("after the first undo the colour is %s, want %s", got, col)
	}
	if got := p.Inspector["Transform.position[0]"].Shown; got != draggedX {
		t.Errorf("the first undo changed position X to %s; it should undo only the colour", got)
	}
	e.Key("ctrl+z")
	p = e.WaitProbe(10*time.Second, "drag undone", func(p *guitest.Probe) bool { return p.UndoDepth == 0 })
	if got := p.Inspector["Transform.position[0]"].Shown; got != startX {
		t.Errorf("after undoing the drag position X is %s, want %s", got, startX)
	}
	if p.Dirty {
		t.Error("undoing everything should leave the scene unmodified")
	}
}

// TestWorkflowSpawnGridUndoRedo is workflow (b): Spawn Cube Grid 30×1×30 from the dialog → 900 more cubes
// visible; Ctrl+Z removes them; Ctrl+Y restores them.
func TestWorkflowSpawnGridUndoRedo(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p0 := e.WaitProbe(5*time.Second, "ready", func(*guitest.Probe) bool { return true })
	shot0 := e.ScreenshotOf(p0)
	e.Key("ctrl+g")
	e.WaitProbe(10*time.Second, "grid dialog", func(p *guitest.Probe) bool { return p.Modal == "grid" })
	// The Count X field has the keyboard: type 30, Tab to Y (1), Tab to Z, 30, Enter commits, Enter spawns.
	e.Key("ctrl+a")
	e.Type("30")
	e.Key("Tab")
	e.Key("ctrl+a")
	e.Type("1")
	e.Key("Tab")
	e.Key("ctrl+a")
	e.Type("30")
	e.Key("Return")
	// The preview is built in the background: wait until the viewport shows it (a condition, not a delay).
	e.WaitScreen(30*time.Second, "the live preview of the grid", func(img *image.RGBA) bool {
		return guitest.DiffPixels(shot0, img, viewportRect(p0), 30) >= 500
	})
	docShot(t, e, "workflow-grid.png")
	e.Key("Return")
	p := e.WaitProbe(15*time.Second, "grid spawned", func(p *guitest.Probe) bool { return p.Entities == p0.Entities+900 })
	if p.UndoDepth != 1 {
		t.Errorf("spawning the grid made %d undo steps, want 1", p.UndoDepth)
	}
	spawned := e.ScreenshotOf(p)
	cubes0 := guitest.CountPixels(shot0, viewportRect(p), saturated)
	cubes1 := guitest.CountPixels(spawned, viewportRect(p), saturated)
	if cubes1 < cubes0+cubes0/4 {
		t.Errorf("cube pixels %d → %d: the 900 new cubes are not visible", cubes0, cubes1)
	}
	e.Key("ctrl+z")
	p = e.WaitProbe(15*time.Second, "grid undone", func(p *guitest.Probe) bool { return p.Entities == p0.Entities && !p.Dirty })
	if n := guitest.DiffPixels(shot0, e.ScreenshotOf(p), viewportRect(p), 30); n > 50 {
		t.Errorf("after undo the viewport differs from before the spawn in %d pixels", n)
	}
	e.Key("ctrl+y")
	e.WaitProbe(15*time.Second, "grid redone", func(p *guitest.Probe) bool { return p.Entities == p0.Entities+900 })
}

// TestQuitWithUnsavedChangesAsks is workflow (d): quitting with unsaved changes asks; Cancel keeps the editor open
// with the changes; the window's close button asks too; Don't Save quits.
func TestQuitWithUnsavedChangesAsks(t *testing.T) {
	path := copyScene(t, "cubes.json")
	before, _ := os.ReadFile(path)
	e := launchOn(t, path)
	e.Key("ctrl+shift+n") // Entity → Create Empty
	e.WaitProbe(10*time.Second, "modified", func(p *guitest.Probe) bool { return p.Dirty && p.Entities == 401 })
	e.Key("ctrl+q")
	e.WaitProbe(10*time.Second, "save prompt", func(p *guitest.Probe) bool { return p.Modal == "prompt:Unsaved changes" })
	e.Key("Escape") // Cancel
	e.WaitProbe(10*time.Second, "prompt closed", func(p *guitest.Probe) bool { return p.Modal == "" })
	p := e.WaitFrames(10) // Cancel must not quit a few frames later either
	if !e.Running() || !p.Dirty || p.Entities != 401 || !strings.HasPrefix(p.Title, "*") {
		t.Fatalf("after Cancel: running %v, probe %+v", e.Running(), p)
	}
	e.RequestClose()
	e.WaitProbe(10*time.Second, "save prompt on close", func(p *guitest.Probe) bool { return p.Modal == "prompt:Unsaved changes" })
	e.Key("d") // Don't Save
	if code, err := e.Wait(15 * time.Second); err != nil || code != 0 {
		t.Fatalf("Don't Save should quit with 0: code %d, %v", code, err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("Don't Save changed the file on disk")
	}
}

// TestWorkflowExportForGame is workflow (c): File → Export for Game writes an export that the game-side loader
// reads with the scene's entity count and world matrices (here the hierarchy example, so parents matter).
func TestWorkflowExportForGame(t *testing.T) {
	path := copyScene(t, "solar.json")
	e := launchOn(t, path)
	e.Key("ctrl+e")
	e.WaitProbe(10*time.Second, "export dialog", func(p *guitest.Probe) bool { return p.Modal == "file:Export for Game" })
	out := filepath.Join(filepath.Dir(path), "solar.export.json")
	e.Settle() // the dialog drawn (a shot right after the probe named it once showed the scene without it)
	docShot(t, e, "workflow-export.png")
	e.Key("ctrl+a")
	e.Type(filepath.Base(out)) // the dialog starts in the scene's folder
	e.Key("Return")
	e.WaitProbe(10*time.Second, "dialog closed", func(p *guitest.Probe) bool { return p.Modal == "" })
	var ex *game.Scene
	guitest.WaitFor(t, 10*time.Second, "the export to be written and load", func() (err error) {
		ex, err = game.LoadFile(out)
		return err
	})
	s, err := serialize.LoadFile(context.Background(), path, serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Entities) != s.World.Len() {
		t.Fatalf("export has %d entities, the scene %d", len(ex.Entities), s.World.Len())
	}
	names := ecs.NewMap[scene.Name](s.World)
	want := map[string]mgl32.Mat4{}
	s.World.EachEntity(func(en ecs.Entity) bool {
		if names.Has(en) {
			want[names.Get(en).Value] = s.World.WorldMatrix(en)
		}
		return true
	})
	nested := 0
	for _, xe := range ex.Entities {
		w, ok := want[xe.Name]
		if !ok {
			t.Fatalf("exported entity %q is not in the scene", xe.Name)
		}
		if !mgl32.Mat4(xe.World).ApproxEqualThreshold(w, 1e-4) {
			t.Errorf("%s: exported world matrix %v, scene %v", xe.Name, xe.World, w)
		}
		if xe.Parent >= 0 {
			nested++
		}
	}
	if nested == 0 {
		t.Fatal("the hierarchy example exported no parented entities")
	}
}

// TestInspectorShowsEveryKind opens an entity carrying a component with a field of every kind (fieldstest.Showcase,
// registered by --test-components) and checks that the inspector shows a widget for each.
func TestInspectorShowsEveryKind(t *testing.T) {
	t.Parallel()
	d := guitest.StartDisplay(t, 1600, 1500)
	dir := repoPath("cmd/voltex-editor/e2e") // opened as a user would: a path relative to where the editor runs
	e := guitest.LaunchIn(t, d, dir, []string{"HOME=" + filepath.Dir(dir)}, "--size", "1600x1500", "--settings", t.TempDir(),
		"--test-components", "testdata/everything.json")
	failShot(t, e, t.Name())
	p := e.WaitProbe(10*time.Second, "inspector", func(p *guitest.Probe) bool { return p.Inspector["header:Showcase"].W > 0 })
	for _, name := range []string{
		"header:Transform", "header:Mesh", "header:Color", "header:Showcase", "header:Marker",
		"Showcase.enabled", "Showcase.count", "Showcase.small", "Showcase.flags", "Showcase.speed", "Showcase.precise",
		"Showcase.angle", "Showcase.title", "Showcase.notes", "Showcase.offset[0]", "Showcase.position[2]",
		"Showcase.rotation[1]", "Showcase.tint", "Showcase.rgb", "Showcase.fixed",
	} {
		widget(t, p, name)
	}
	if w := p.Inspector["Showcase.title"]; w.Shown != "Hero" {
		t.Errorf("title shows %q, want Hero", w.Shown)
	}
	if _, ok := p.Inspector["Showcase.secret"]; ok {
		t.Error("a hidden field got a widget")
	}
	// Open the nested struct and the slices: their elements get widgets too.
	for _, tree := range [][2]string{{"Showcase.inner", "Showcase.inner.label"}, {"Showcase.weights", "Showcase.weights[2]"},
		{"Showcase.tags", "Showcase.tags[1]"}, {"Showcase.points", "Showcase.points[0]"}} {
		w := widget(t, p, tree[0])
		e.Click(w.X+w.H, w.Y+w.H/2, 1)
		// Wait for its first element: the rows below move down, and the next click needs their new place.
		p = e.WaitProbe(10*time.Second, "tree "+tree[0]+" open", func(p *guitest.Probe) bool { return p.Inspector[tree[1]].W > 0 })
	}
	p = e.WaitProbe(10*time.Second, "nested widgets", func(p *guitest.Probe) bool {
		return p.Inspector["Showcase.inner.label"].W > 0 && p.Inspector["Showcase.tags[1]"].W > 0 &&
			p.Inspector["Showcase.weights[2]"].W > 0
	})
	if got := p.Inspector["Showcase.tags[1]"].Shown; got != "hero" {
		t.Errorf("tags[1] shows %q, want hero", got)
	}
	docShot(t, e, "inspector.png")
}

// docShot saves a screenshot into $VOLTEX_DOCS_SHOTS (make docs-shots sets it to docs/) for the documentation.
func docShot(t *testing.T, e *guitest.Editor, name string) {
	t.Helper()
	dir := os.Getenv("VOLTEX_DOCS_SHOTS")
	if dir == "" {
		return
	}
	if err := guitest.WritePNG(filepath.Join(dir, name), e.ScreenshotNow()); err != nil {
		t.Fatal(err)
	}
}

// TestOutsideEditReloadsOrAsks: the open scene changed by another program reloads when there are no unsaved
// changes, and asks when there are ("Keep mine" keeps them).
func TestOutsideEditReloadsOrAsks(t *testing.T) {
	path := copyScene(t, "solar.json")
	e := launchOn(t, path)
	p0 := e.WaitProbe(10*time.Second, "the scene", func(p *guitest.Probe) bool { return p.Entities > 0 })
	grid := filepath.Join(filepath.Dir(path), "grid.json")
	if code := runTool(t, "grid", "--nx", "3", "--nz", "2", "-o", grid); code != 0 {
		t.Fatal("grid failed")
	}
	data, _ := os.ReadFile(grid)
	// Another program saves over the scene the way editors do: write a temporary file, rename it over.
	replace := func(content []byte) {
		tmp := path + ".other-editor.tmp"
		if err := os.WriteFile(tmp, content, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	replace(data)
	e.WaitProbe(10*time.Second, "reloaded", func(p *guitest.Probe) bool { return p.Entities == 6 && !p.Dirty })
	e.Key("ctrl+shift+n")
	e.WaitProbe(10*time.Second, "modified", func(p *guitest.Probe) bool { return p.Dirty && p.Entities == 7 })
	orig := fixture(t, "solar.json")
	replace(orig)
	e.WaitProbe(10*time.Second, "asked", func(p *guitest.Probe) bool { return p.Modal == "prompt:Scene changed on disk" })
	e.Key("k") // Keep mine
	p := e.WaitProbe(10*time.Second, "kept", func(p *guitest.Probe) bool { return p.Modal == "" })
	if p.Entities != 7 || !p.Dirty {
		t.Fatalf("after Keep mine: %d entities, dirty %v (want 7, true; the file had %d)", p.Entities, p.Dirty, p0.Entities)
	}
}

// runTool runs a voltex-editor subcommand with the test binary's build of the editor.
func runTool(t *testing.T, args ...string) int {
	t.Helper()
	cmd := exec.Command(guitest.Binary(t), args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Logf("%s: %v\n%s", strings.Join(args, " "), err, out)
		return 1
	}
	return 0
}

// TestPlayModeAnimatesAndStopRestores: Play rotates the cubes (Spin): the viewport keeps re-rendering and each
// picture differs from the one before, however slowly frames come; Stop restores the scene and the picture exactly.
func TestPlayModeAnimatesAndStopRestores(t *testing.T) {
	path := copyScene(t, "cubes.json")
	e := launchOn(t, path)
	p := e.WaitProbe(5*time.Second, "ready", func(p *guitest.Probe) bool { return true })
	before := e.ScreenshotOf(p)
	e.Key("ctrl+p")
	p = e.WaitProbe(5*time.Second, "playing", func(p *guitest.Probe) bool { return p.Playing })
	// Animates: the viewport renders frame after frame without input, and the picture moves on between two
	// screenshots. Counted in renders and compared as images; no frame rate is assumed.
	r0 := p.ViewportRenders
	p = e.WaitProbe(10*time.Second, "play mode to keep rendering", func(q *guitest.Probe) bool {
		return q.ViewportRenders >= r0+5
	})
	a := e.ScreenshotOf(p)
	e.WaitScreen(30*time.Second, "the spinning cubes move on", func(b *image.RGBA) bool {
		return guitest.DiffPixels(a, b, viewportRect(p), 20) >= 200
	})
	e.Key("ctrl+p")
	p = e.WaitProbe(5*time.Second, "stopped", func(p *guitest.Probe) bool { return !p.Playing })
	if p.Dirty {
		t.Error("play mode left the scene modified")
	}
	if n := guitest.DiffPixels(before, e.ScreenshotOf(p), viewportRect(p), 20); n > 50 {
		t.Errorf("after Stop the viewport differs from before Play in %d pixels", n)
	}
}

// TestOBJHotReload: a model the scene uses, changed on disk by another program, is reloaded and redrawn; a broken
// version keeps the previous mesh and says why in the console.
func TestOBJHotReload(t *testing.T) {
	objs := repoPath("../shared/testdata/obj")
	if _, err := os.Stat(objs); err != nil {
		t.Skip("../shared/testdata is not beside this checkout")
	}
	dir := t.TempDir()
	copyFile := func(src, dst string) {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		tmp := dst + ".tmp"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, dst); err != nil { // rename-over, as editors save
			t.Fatal(err)
		}
	}
	copyFile(filepath.Join(objs, "box.obj"), filepath.Join(dir, "model.obj"))
	scenePath := filepath.Join(dir, "model.json")
	scene := `{
  "format": "voltex.scene",
  "version": 1,
  "name": "Model",
  "editor": { "camera": { "pivot": [0, 0, 0], "yaw": 30, "pitch": -25, "distance": 6 } },
  "entities": [
    { "id": 1, "name": "Model", "components": { "Color": { "rgba": [1, 0.4, 0.1, 1] }, "Mesh": { "asset": "model.obj" }, "Transform": { "position": [0, 0, 0], "rotation": [0, 0, 0], "scale": [2, 2, 2] } } }
  ]
}
`
	if err := os.WriteFile(scenePath, []byte(scene), 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, scenePath)
	p := e.WaitProbe(5*time.Second, "ready", func(p *guitest.Probe) bool { return true })
	box := e.ScreenshotOf(p)
	copyFile(filepath.Join(objs, "teapot.obj"), filepath.Join(dir, "model.obj"))
	p = e.WaitProbe(10*time.Second, "reloaded", func(p *guitest.Probe) bool { return hasMessage(p, "info: reloaded model.obj") })
	teapot := e.ScreenshotOf(p)
	if n := guitest.DiffPixels(box, teapot, viewportRect(p), 30); n < 500 {
		t.Errorf("the viewport did not change after the model changed (%d pixels)", n)
	}
	if err := os.WriteFile(filepath.Join(dir, "model.obj"), []byte("v 0 0 0\nv 1 0 0\nf 1 2 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p = e.WaitProbe(10*time.Second, "reload error", func(p *guitest.Probe) bool { return hasMessage(p, "error: reloading model.obj") })
	if n := guitest.DiffPixels(teapot, e.ScreenshotOf(p), viewportRect(p), 30); n > 50 {
		t.Errorf("a broken model replaced the previous mesh (%d pixels changed)", n)
	}
}

func hasMessage(p *guitest.Probe, prefix string) bool {
	for _, m := range p.Console {
		if strings.HasPrefix(m, prefix) {
			return true
		}
	}
	return false
}

// TestGizmoDragIsOneUndoStep: dragging the move gizmo's centre moves the selected cube in the screen plane as ONE
// undo step; Ctrl+Z puts it back.
func TestGizmoDragIsOneUndoStep(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	clickCube(t, e)
	p := e.WaitProbe(5*time.Second, "gizmo", func(p *guitest.Probe) bool { return p.Gizmo != [2]int{} })
	x0 := p.Inspector["Transform.position[0]"].Shown
	z0 := p.Inspector["Transform.position[2]"].Shown
	gx, gy := p.Gizmo[0], p.Gizmo[1]
	e.Drag(gx, gy, gx+120, gy+40, 1)
	p = e.WaitProbe(10*time.Second, "moved", func(p *guitest.Probe) bool {
		return p.UndoDepth > 0 && (p.Inspector["Transform.position[0]"].Shown != x0 || p.Inspector["Transform.position[2]"].Shown != z0)
	})
	if p.UndoDepth != 1 {
		t.Fatalf("a gizmo drag made %d undo steps, want 1", p.UndoDepth)
	}
	if len(p.Selected) != 1 {
		t.Fatalf("the drag changed the selection: %v", p.Selected)
	}
	e.Key("ctrl+z")
	p = e.WaitProbe(10*time.Second, "undone", func(p *guitest.Probe) bool { return p.UndoDepth == 0 })
	if p.Inspector["Transform.position[0]"].Shown != x0 || p.Inspector["Transform.position[2]"].Shown != z0 {
		t.Fatalf("undo left the cube at x=%s z=%s, want %s %s", p.Inspector["Transform.position[0]"].Shown,
			p.Inspector["Transform.position[2]"].Shown, x0, z0)
	}
}

// TestOpenBrokenFileKeepsScene: File → Open on a broken scene reports every problem with file:line:col and leaves
// the open scene as it was.
func TestOpenBrokenFileKeepsScene(t *testing.T) {
	path := copyScene(t, "cubes.json")
	bad := filepath.Join(filepath.Dir(path), "broken.json")
	if err := os.WriteFile(bad, []byte("{\n  \"format\": \"voltex.scene\",\n  \"version\": 1,\n  \"entities\": [\n    {\"id\": 1, \"parent\": 5}\n  ]\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, path)
	e.Key("ctrl+o")
	e.WaitProbe(10*time.Second, "open dialog", func(p *guitest.Probe) bool { return p.Modal == "file:Open Scene" })
	e.Key("ctrl+a")
	e.Type("broken.json") // the dialog starts in the open scene's folder, as a person sees
	e.Key("Return")
	p := e.WaitProbe(10*time.Second, "error prompt", func(p *guitest.Probe) bool { return p.Modal == "prompt:Cannot open scene" })
	if !hasMessage(p, "error: "+bad+":5:25: entities[0].parent") {
		t.Errorf("console lacks the positioned error; have %q", p.Console)
	}
	e.Key("Return")
	p = e.WaitProbe(10*time.Second, "prompt closed", func(p *guitest.Probe) bool { return p.Modal == "" })
	if p.ScenePath == "" || !strings.HasSuffix(path, p.ScenePath) || p.Entities != 400 || p.Dirty {
		t.Fatalf("the open scene changed: %s, %d entities, dirty %v", p.ScenePath, p.Entities, p.Dirty)
	}
}

// TestCopyPasteBetweenTwoEditors: the clipboard holds scene JSON, so a cube copied in one editor window pastes into
// another editor process (with a new id).
func TestCopyPasteBetweenTwoEditors(t *testing.T) {
	t.Parallel()
	d := guitest.StartDisplay(t, 1600, 1000)
	a := guitest.Launch(t, d, "--size", "1600x1000", "--settings", t.TempDir(), copyScene(t, "cubes.json"))
	failShot(t, a, t.Name()+"-a")
	clickCube(t, a)
	a.Key("ctrl+c")
	a.WaitProbe(5*time.Second, "copied", func(p *guitest.Probe) bool { return hasMessage(p, "info: copied 1 entity") })
	b := guitest.Launch(t, d, "--size", "1600x1000", "--settings", t.TempDir(), copyScene(t, "empty.json"))
	failShot(t, b, t.Name()+"-b")
	b.Focus()
	b.Key("ctrl+v")
	p := b.WaitProbe(10*time.Second, "pasted", func(p *guitest.Probe) bool { return p.Entities == 1 })
	if !p.Dirty || p.UndoDepth != 1 || len(p.Selected) != 1 {
		t.Fatalf("after paste: %+v", p)
	}
}

// TestSaveAsAsksBeforeReplacing: Save As onto the open file asks before replacing it; Save As under a new name
// makes that the scene's file.
func TestSaveAsAsksBeforeReplacing(t *testing.T) {
	path := copyScene(t, "cubes.json")
	e := launchOn(t, path)
	e.Key("ctrl+shift+n")
	e.WaitProbe(10*time.Second, "modified", func(p *guitest.Probe) bool { return p.Dirty })
	e.Key("ctrl+shift+s")
	e.WaitProbe(10*time.Second, "save dialog", func(p *guitest.Probe) bool { return p.Modal == "file:Save Scene As" })
	e.Key("Return") // the name is prefilled with cubes.json, which exists
	// A few frames later it is still asking.
	if p := e.WaitFrames(10); !p.Dirty || p.Modal != "file:Save Scene As" {
		t.Fatalf("saving over an existing file did not ask first: %+v", p)
	}
	e.Key("Return") // Replace
	e.WaitProbe(10*time.Second, "replaced", func(p *guitest.Probe) bool { return !p.Dirty && p.Modal == "" })
	if s, err := serialize.LoadFile(context.Background(), path, serialize.LoadOptions{}); err != nil || s.World.Len() != 401 {
		t.Fatalf("the replaced file does not hold the new scene: %v", err)
	}
	other := filepath.Join(filepath.Dir(path), "other.json")
	e.Key("ctrl+shift+s")
	e.WaitProbe(10*time.Second, "save dialog", func(p *guitest.Probe) bool { return p.Modal == "file:Save Scene As" })
	e.Key("ctrl+a")
	e.Type("other")
	e.Key("Return")
	p := e.WaitProbe(10*time.Second, "saved as", func(p *guitest.Probe) bool { return p.ScenePath == other && p.Modal == "" })
	if p.Dirty {
		t.Error("dirty after Save As")
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatal(err)
	}
}

// TestInspectorShowsLiveValuesInPlayMode: while playing, the inspector shows the values the systems write (the
// Spin system turning the selected cube).
func TestInspectorShowsLiveValuesInPlayMode(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p := clickCube(t, e)
	r0 := p.Inspector["Transform.rotation[1]"].Shown
	e.Key("ctrl+p")
	p = e.WaitProbe(10*time.Second, "rotating", func(p *guitest.Probe) bool {
		return p.Playing && p.Inspector["Transform.rotation[1]"].Shown != r0
	})
	r1 := p.Inspector["Transform.rotation[1]"].Shown
	e.WaitProbe(10*time.Second, "the rotation to keep changing", func(p *guitest.Probe) bool {
		return p.Inspector["Transform.rotation[1]"].Shown != r1
	})
	e.Key("ctrl+p")
	p = e.WaitProbe(10*time.Second, "stopped", func(p *guitest.Probe) bool { return !p.Playing })
	p = e.Presented(p) // a frame or two after Stop: the inspector shows the restored scene
	if got := p.Inspector["Transform.rotation[1]"].Shown; got != r0 {
		t.Errorf("after Stop the rotation is %s, want %s", got, r0)
	}
}

// TestHierarchyDragReparentRenameSearch: drag an entity onto another to reparent it (one undo step; Ctrl+Z puts it
// back), rename with F2, and search keeps the ancestors of matches.
func TestHierarchyDragReparentRenameSearch(t *testing.T) {
	e := launchOn(t, copyScene(t, "solar.json"))
	p := e.WaitProbe(10*time.Second, "rows", func(p *guitest.Probe) bool { _, ok := p.Row("Game camera"); return ok })
	cam, _ := p.Row("Game camera")
	sun, _ := p.Row("Sun")
	if cam.Depth != 0 {
		t.Fatalf("Game camera starts at depth %d", cam.Depth)
	}
	cx, cy := cam.Center()
	sx, sy := sun.Center()
	e.Drag(cx, cy, sx, sy, 1)
	e.WaitProbe(10*time.Second, "reparented", func(p *guitest.Probe) bool {
		r, ok := p.Row("Game camera")
		return p.UndoDepth == 1 && (!ok || r.Depth == 1)
	})
	e.Key("ctrl+z")
	p = e.WaitProbe(10*time.Second, "undone", func(p *guitest.Probe) bool {
		r, ok := p.Row("Game camera")
		return p.UndoDepth == 0 && ok && r.Depth == 0
	})
	// Rename: select the row, F2, type, Enter.
	cam, _ = p.Row("Game camera")
	cx, cy = cam.Center()
	e.Click(cx, cy, 1)
	e.Key("F2")
	e.Key("ctrl+a")
	e.Type("Main camera")
	e.Key("Return")
	e.WaitProbe(10*time.Second, "renamed", func(p *guitest.Probe) bool { _, ok := p.Row("Main camera"); return ok && p.Dirty })
	// Search: "moon" shows the Moon and its ancestors only.
	sx, sy = p.HierarchySearch.Center()
	e.Click(sx, sy, 1)
	e.WaitProbe(10*time.Second, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Type("moon")
	p = e.WaitProbe(10*time.Second, "search", func(p *guitest.Probe) bool {
		_, moon := p.Row("Moon")
		_, camRow := p.Row("Main camera")
		return moon && !camRow
	})
	names := []string{}
	for _, r := range p.Hierarchy {
		names = append(names, r.Name)
	}
	if len(names) < 2 || names[0] != "Sun" || names[len(names)-1] != "Moon" {
		t.Errorf("search rows %v: want the Sun … Moon chain", names)
	}
}
