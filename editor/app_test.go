package editor

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/viewport"
)

// fakeWindow is the master window of a windowless App.
type fakeWindow struct {
	title  string
	closed bool
}

func (w *fakeWindow) SetTitle(t string)     { w.title = t }
func (w *fakeWindow) SetShouldClose(b bool) { w.closed = b }

// noWait is an idle loop that never sleeps.
type noWait struct{}

func (noWait) prepare() bool      { return false }
func (noWait) wait(time.Duration) {}

// appFixture is the whole editor — App.frame, as the GUI loop runs it — in a windowless ImGui context, with a fake
// renderer and window and the test probe on, driven with real input events.
type appFixture struct {
	ui  *uiContext
	a   *App
	r   *fakeRenderer
	win *fakeWindow
	st  *probe.State
}

func newAppFixture(t testing.TB, opts Options) *appFixture {
	t.Helper()
	f := newAppUnbuilt(t, opts)
	f.frames(3)
	return f
}

// newAppUnbuilt is newAppFixture before its first frame.
func newAppUnbuilt(t testing.TB, opts Options) *appFixture {
	t.Helper()
	t.Setenv("VOLTEX_PROBE", filepath.Join(t.TempDir(), "probe.json"))
	if opts.SettingsDir == "" {
		opts.SettingsDir = t.TempDir()
	}
	f := &appFixture{ui: newUIContext(t), r: &fakeRenderer{}, win: &fakeWindow{}}
	a, err := newApp(opts, func() (viewport.Renderer, error) { return f.r, nil })
	if err != nil {
		t.Fatal(err)
	}
	f.a, f.st = a, a.probe.st()
	a.win = f.win
	a.idle.waiter = noWait{}
	a.openScene()
	a.initContext()
	a.start()
	t.Cleanup(func() {
		a.ws.Close()
	})
	return f
}

func (f *appFixture) frame()       { f.ui.frame(f.a.frame) }
func (f *appFixture) frames(n int) { f.ui.frames(n, f.a.frame) }

// frameUntil runs frames until cond holds (what a background goroutine does reaches the loop in some frame).
func (f *appFixture) frameUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		f.frame()
		time.Sleep(time.Millisecond)
	}
}

// key presses a chord.
func (f *appFixture) key(c imgui.KeyChord) { f.ui.key(c, f.a.frame) }

// click clicks the centre of r.
func (f *appFixture) click(t *testing.T, what string, r probe.Rect) {
	t.Helper()
	if r.W == 0 {
		t.Fatalf("%s is not on the screen", what)
	}
	x, y := centre(r)
	f.ui.click(imgui.MouseButtonLeft, x, y, f.a.frame)
}

// menu opens the top-level menu and clicks item in it.
func (f *appFixture) menu(t *testing.T, menu, item string) {
	t.Helper()
	f.click(t, "menu "+menu, f.st.Menus[menu])
	f.frame()
	f.click(t, menu+"/"+item, f.st.Menus[menu+"/"+item])
	f.frames(2)
}

// typeText types s into the field that has the keyboard.
func (f *appFixture) typeText(s string) { f.ui.typeText(s, f.a.frame) }

func TestAppDocksPanelsAndRendersOnce(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	for _, p := range []string{panelHierarchy, panelViewport, panelInspector} {
		if r := f.st.Panels[p]; r.W < 100 || r.H < 100 {
			t.Errorf("panel %s at %+v", p, r)
		}
	}
	if !f.st.MenuBar || !strings.HasPrefix(f.st.Status, "testdata/solar.json  |  saved  |  8 entities") || f.win.title != "Voltex Editor — solar.json" {
		t.Fatalf("menu bar %v, status %q, title %q", f.st.MenuBar, f.st.Status, f.win.title)
	}
	if len(f.st.Hierarchy) != 2 || f.st.Entities != 8 {
		t.Fatalf("hierarchy rows %+v", f.st.Hierarchy)
	}
	renders := f.r.renders
	f.frames(5)
	if f.r.renders != renders || renders == 0 {
		t.Fatalf("%d renders, then %d more in idle frames", renders, f.r.renders-renders)
	}
	// View → a panel off and on, Reset Layout, Stats Overlay.
	f.menu(t, "View", "Reset Layout")
	f.click(t, "menu View", f.st.Menus["View"])
	f.frame()
	f.ui.click(imgui.MouseButtonLeft, float32(f.st.Menus["View/Reset Layout"].X+20), float32(f.st.Menus["View/Reset Layout"].Y+f.st.Menus["View/Reset Layout"].H*3), f.a.frame)
	f.frames(2)
	f.menu(t, "View", "Stats Overlay")
	if !f.a.vp.showStats || !f.a.ws.Settings().ShowStats {
		t.Fatal("View → Stats Overlay")
	}
}

// TestAppMenusShortcutsAndFileDialog: Entity → Create Cube, Ctrl+Z, Ctrl+Y; Ctrl+S of a new scene asks for a name
// in the file dialog, Enter saves, the title follows.
func TestAppMenusShortcutsAndFileDialog(t *testing.T) {
	f := newAppFixture(t, Options{})
	f.menu(t, "Entity", "Create Cube")
	if f.st.Entities != 1 || !f.st.Dirty || f.win.title != "*Voltex Editor — Untitled" {
		t.Fatalf("Create Cube: %d entities, dirty %v, title %q", f.st.Entities, f.st.Dirty, f.win.title)
	}
	f.key(ctrl | key(imgui.KeyZ))
	if f.st.Entities != 0 {
		t.Fatal("Ctrl+Z")
	}
	f.key(ctrl | key(imgui.KeyY))
	if f.st.Entities != 1 {
		t.Fatal("Ctrl+Y")
	}
	f.key(ctrl | key(imgui.KeyS))
	if f.st.Modal != "file:Save Scene As" {
		t.Fatalf("Ctrl+S of a new scene: modal %q", f.st.Modal)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "level.json")
	f.key(ctrl | key(imgui.KeyA))
	f.typeText(path)
	f.key(key(imgui.KeyEnter))
	if f.st.Modal != "" || f.st.ScenePath != path || f.st.Dirty || f.win.title != "Voltex Editor — level.json" {
		t.Fatalf("after Enter: modal %q, path %q, dirty %v, title %q", f.st.Modal, f.st.ScenePath, f.st.Dirty, f.win.title)
	}
	// Save As onto the same file asks before replacing it; Cancel keeps the dialog, Replace saves.
	f.key(ctrl | shift | key(imgui.KeyS))
	f.key(key(imgui.KeyEnter))
	f.frames(2)
	if f.st.Modal != "file:Save Scene As" {
		t.Fatalf("replacing a file: modal %q", f.st.Modal)
	}
	f.key(key(imgui.KeyEnter)) // Replace
	if f.st.Modal != "" {
		t.Fatalf("after Replace: modal %q", f.st.Modal)
	}
	// Open: the dialog lists the folder; Escape closes it.
	f.key(ctrl | key(imgui.KeyO))
	if f.st.Modal != "file:Open Scene" {
		t.Fatalf("Ctrl+O: modal %q", f.st.Modal)
	}
	f.key(key(imgui.KeyEscape))
	if f.st.Modal != "" {
		t.Fatalf("Escape: modal %q", f.st.Modal)
	}
}

// TestAppPromptAnswersByKey: the unsaved-changes question answers to its buttons' first letters and to Escape.
func TestAppPromptAnswersByKey(t *testing.T) {
	f := newAppFixture(t, Options{})
	f.key(ctrl | shift | key(imgui.KeyN)) // Create Empty
	f.key(ctrl | key(imgui.KeyN))
	if f.st.Modal != "prompt:Unsaved changes" || !strings.Contains(f.st.Prompt, "before you create a new scene") {
		t.Fatalf("New on a modified scene: %q %q", f.st.Modal, f.st.Prompt)
	}
	f.key(key(imgui.KeyEscape))
	if f.st.Modal != "" || f.st.Entities != 1 {
		t.Fatalf("Escape: modal %q, %d entities", f.st.Modal, f.st.Entities)
	}
	f.key(ctrl | key(imgui.KeyN))
	f.key(key(imgui.KeyD)) // Don't Save
	if f.st.Modal != "" || f.st.Entities != 0 || f.st.Dirty {
		t.Fatalf("D: modal %q, %d entities", f.st.Modal, f.st.Entities)
	}
	// Closing the window: a clean scene closes; a modified one asks, and Don't Save closes it.
	f.key(ctrl | shift | key(imgui.KeyN))
	if f.a.onCloseRequest() || f.st.Modal != "" {
		f.frame()
	}
	f.frame()
	if f.st.Modal != "prompt:Unsaved changes" {
		t.Fatalf("close request: modal %q", f.st.Modal)
	}
	f.key(key(imgui.KeyD))
	if !f.win.closed {
		t.Fatal("Don't Save did not close the window")
	}
}

// TestAppGridDialogSpawns: Ctrl+G opens the tool window with its fields; Enter spawns the grid as one step.
func TestAppGridDialogSpawns(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/cubes.json"})
	before := f.st.Entities
	f.key(ctrl | key(imgui.KeyG))
	f.frames(3)
	if f.st.Grid == nil || f.st.Grid.Count != [3]int{10, 1, 10} || f.st.Modal != "grid" || f.st.Grid.Fields["spawn"].W == 0 {
		t.Fatalf("Ctrl+G: grid %+v, modal %q", f.st.Grid, f.st.Modal)
	}
	// The preview comes (computed in the background) and the viewport draws it instead of the scene.
	deadline := time.Now().Add(10 * time.Second)
	for f.st.Grid.Preview != "cubes" {
		if time.Now().After(deadline) {
			t.Fatalf("no preview: %+v", f.st.Grid)
		}
		f.frame()
		time.Sleep(time.Millisecond)
	}
	// The dialog takes the preview after the viewport drew this frame, and a busy machine may spread the drawing
	// over frames: wait for it.
	for f.r.list == f.a.vp.sceneList() && time.Now().Before(deadline) {
		f.frame()
		time.Sleep(time.Millisecond)
	}
	if f.r.list == f.a.vp.sceneList() {
		t.Fatal("the viewport does not draw the preview")
	}
	f.click(t, "Spawn", f.st.Grid.Fields["spawn"])
	f.frames(2)
	if f.st.Grid != nil || f.st.Entities != before+100 || f.st.UndoDepth != 1 {
		t.Fatalf("Spawn: grid %+v, %d entities (before %d), %d undo steps", f.st.Grid, f.st.Entities, before, f.st.UndoDepth)
	}
	if v := f.a.ws.Settings().Grid; v == nil || v.Count != [3]int{10, 1, 10} {
		t.Fatalf("the dialog's values are not remembered: %+v", v)
	}
	// Escape closes it without spawning.
	f.key(ctrl | key(imgui.KeyG))
	f.frames(2)
	f.key(key(imgui.KeyEscape))
	if f.st.Grid != nil || f.st.Entities != before+100 {
		t.Fatal("Escape")
	}
}

// TestAppHelpAndJobOverlay: F1 shows the shortcuts and closes them; a long job shows its overlay, whose Cancel
// stops it with the scene unchanged.
func TestAppHelpAndJobOverlay(t *testing.T) {
	f := newAppFixture(t, Options{JobStepDelay: 100 * time.Millisecond})
	f.key(key(imgui.KeyF1))
	if f.st.Panels["Shortcuts"].W == 0 {
		t.Fatal("F1 did not show the shortcuts")
	}
	f.key(key(imgui.KeyF1))
	if _, ok := f.st.Panels["Shortcuts"]; ok {
		t.Fatal("F1 did not close the shortcuts")
	}
	f.menu(t, "Help", "About Voltex Editor")
	if !f.a.help.about {
		t.Fatal("Help → About")
	}
	v := workspace.DefaultGrid()
	v.Count = [3]int{100, 5, 100}
	f.a.ws.RememberGrid(v) // the dialog opens with the values it was last closed with
	f.key(ctrl | key(imgui.KeyG))
	deadline := time.Now().Add(10 * time.Second)
	for f.st.Grid == nil || f.st.Grid.Preview != "cubes" { // the button moves up once the preview is in
		if time.Now().After(deadline) {
			t.Fatalf("no preview: %+v", f.st.Grid)
		}
		f.frame()
		time.Sleep(time.Millisecond)
	}
	f.frames(2)
	f.click(t, "Spawn", f.st.Grid.Fields["spawn"])
	for f.st.Job == nil || !f.st.Job.Shown {
		if time.Now().After(deadline) {
			t.Fatalf("no job overlay: %+v %v %+v", f.st.Job, f.st.Console, f.st.Grid)
		}
		f.frame()
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(f.st.Status, "Spawning 50000 cubes") {
		t.Fatalf("status %q", f.st.Status)
	}
	f.click(t, "Cancel", f.st.Job.Cancel)
	for f.st.Job != nil {
		if time.Now().After(deadline) {
			t.Fatal("Cancel did not end the job")
		}
		f.frame()
		time.Sleep(5 * time.Millisecond)
	}
	if f.st.Entities != 0 || !strings.Contains(strings.Join(f.st.Console, "\n"), "cancelled: the scene was not changed") {
		t.Fatalf("after Cancel: %d entities, console %v", f.st.Entities, f.st.Console)
	}
}

// TestAppInspectorResolvesConflicts: a scene with merge conflicts lists them; the inspector resolves them with
// its buttons.
func TestAppInspectorResolvesConflicts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "merged.json")
	if err := os.WriteFile(path, []byte(conflictedScene), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newAppFixture(t, Options{ScenePath: path})
	if f.st.Conflicts != 2 || !strings.Contains(strings.Join(f.st.Console, "\n"), "2 unresolved merge conflicts") {
		t.Fatalf("conflicts %d, console %v", f.st.Conflicts, f.st.Console)
	}
	// The scene-level conflict shows at once; the entity's once it is selected ("Select next conflicted entity").
	f.click(t, "Use Theirs", f.st.Inspector["conflict:scene.name:Use Theirs"].Rect)
	if f.st.Conflicts != 1 || !strings.Contains(f.win.title, "merged.json") || !f.st.Dirty {
		t.Fatalf("after Use Theirs: %d conflicts", f.st.Conflicts)
	}
	if f.st.Inspector["conflict:components.Color.rgba"].W != 0 {
		t.Fatal("the entity's conflict shows before it is selected")
	}
	f.a.insp.selectNextConflict()
	f.frames(2)
	f.click(t, "Use Ours", f.st.Inspector["conflict:components.Color.rgba:Use Ours"].Rect)
	if f.st.Conflicts != 0 || !strings.Contains(strings.Join(f.st.Console, "\n"), "all merge conflicts are resolved") {
		t.Fatalf("after Use Ours: %d conflicts, console %v", f.st.Conflicts, f.st.Console)
	}
}

// TestAppRevealsNestedConflicts: an entity with merge conflicts deep in the tree (under collapsed parents) gets its
// marked row when the scene opens, so the hierarchy shows every conflicted entity.
func TestAppRevealsNestedConflicts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "merged.json")
	if err := os.WriteFile(path, []byte(nestedConflictScene), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newAppFixture(t, Options{ScenePath: path})
	if f.st.Conflicts != 1 {
		t.Fatalf("conflicts %d, console %v", f.st.Conflicts, f.st.Console)
	}
	r, ok := f.st.Row("Deep")
	if !ok || !r.Conflict || r.Depth != 2 {
		t.Fatalf("the conflicted entity has no marked row: %+v (rows %+v)", r, f.st.Hierarchy)
	}
	if _, ok := f.st.Row("Other"); ok {
		t.Errorf("a parent without conflicts under it was expanded too: %+v", f.st.Hierarchy)
	}
}

// TestAppPlaceConflictNamesParents: a "parent and order" conflict names the parents (not bare ids) in the console and
// the Inspector, and a side that would make a cycle is refused with one plain message.
func TestAppPlaceConflictNamesParents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "merged.json")
	if err := os.WriteFile(path, []byte(placeConflictScene), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newAppFixture(t, Options{ScenePath: path})
	const line = `warning:   "Root" (id 1): parent and order: ours a root, order 1, theirs under "Child" (id 2), order 1.5`
	if !slices.Contains(f.st.Console, line) {
		t.Fatalf("the console does not say %q:\n%s", line, strings.Join(f.st.Console, "\n"))
	}
	f.a.insp.selectNextConflict()
	f.frames(2)
	f.click(t, "Use Theirs", f.st.Inspector["conflict:place:Use Theirs"].Rect)
	f.frames(2)
	const refused = "error: Use Theirs parent and order: an entity cannot become a child of itself or of its descendants"
	if f.st.Conflicts != 1 || !slices.Contains(f.st.Console, refused) {
		t.Fatalf("Use Theirs on a cycle: %d conflicts, console:\n%s", f.st.Conflicts, strings.Join(f.st.Console, "\n"))
	}
}

// placeConflictScene: ours keeps Root a root, theirs put it under its own child.
const placeConflictScene = `{ "format": "voltex.scene", "version": 2, "name": "S", "entities": [
  { "id": 1, "name": "Root", "order": 1, "components": {
    "MergeConflicts": { "items": [{ "path": "place", "base": "{ \"parent\": 0, \"order\": 1 }", "ours": "{ \"parent\": 0, \"order\": 1 }", "theirs": "{ \"parent\": 2, \"order\": 1.5 }" }] } } },
  { "id": 2, "name": "Child", "parent": 1, "order": 1, "components": {} }
] }
`

// nestedConflictScene has a conflicted entity two levels down, and another parent with a child.
const nestedConflictScene = `{ "format": "voltex.scene", "version": 2, "name": "S", "entities": [
  { "id": 1, "name": "Root", "order": 1, "components": {} },
  { "id": 2, "name": "Middle", "parent": 1, "order": 1, "components": {} },
  { "id": 3, "name": "Deep", "parent": 2, "order": 1, "components": {
    "MergeConflicts": { "items": [{ "path": "name", "base": "\"D\"", "ours": "\"Deep\"", "theirs": "\"Down\"" }] } } },
  { "id": 4, "name": "Tree", "order": 2, "components": {} },
  { "id": 5, "name": "Other", "parent": 4, "order": 1, "components": {} }
] }
`

// conflictedScene has a scene-level and an entity-level merge conflict.
const conflictedScene = `{
  "format": "voltex.scene",
  "version": 2,
  "name": "Ours",
  "editor": {
    "conflicts": [{ "path": "scene.name", "base": "\"S\"", "ours": "\"Ours\"", "theirs": "\"Theirs\"" }]
  },
  "entities": [
    {
      "id": 1,
      "name": "Box",
      "order": 1,
      "components": {
        "Transform": { "position": [0, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] },
        "Mesh": { "asset": "builtin:cube" },
        "Color": { "rgba": [1, 0, 0, 1] },
        "MergeConflicts": { "items": [{ "path": "components.Color.rgba", "base": "[1, 1, 1, 1]", "ours": "[1, 0, 0, 1]", "theirs": "[0, 0, 1, 1]" }] }
      }
    }
  ]
}
`

// TestAppAssetsPanelPlacesPrefabs: the Assets panel lists the meshes and the folder's scene files; Place puts an
// instance in the scene, and the Inspector shows its prefab section.
func TestAppAssetsPanelPlacesPrefabs(t *testing.T) {
	dir := t.TempDir()
	crate := `{"format": "voltex.scene", "version": 2, "name": "Crate", "entities": [{"id": 1, "name": "Crate", "order": 1,
  "components": {"Transform": {"position": [0, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}, "Mesh": {"asset": "builtin:cube"}}}]}`
	level := `{"format": "voltex.scene", "version": 2, "name": "Level", "entities": []}`
	for name, text := range map[string]string{"crate.json": crate, "level.json": level} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := newAppFixture(t, Options{ScenePath: filepath.Join(dir, "level.json")})
	focus := true
	f.ui.frame(func() { // the Assets tab in front of the Console
		f.a.frame()
		if focus {
			imgui.SetWindowFocusStr(panelAssets)
			focus = false
		}
	})
	f.frames(2)
	place := f.st.Inspector["place:crate.json"]
	f.click(t, "Place", place.Rect)
	if f.st.Entities != 2 || !strings.Contains(strings.Join(f.st.Console, "\n"), "an instance of crate.json") {
		t.Fatalf("Place: %d entities, console %v", f.st.Entities, f.st.Console)
	}
	f.frames(2)
	if len(f.st.Hierarchy) != 1 || f.st.Hierarchy[0].Prefab != "instance" {
		t.Fatalf("hierarchy %+v", f.st.Hierarchy)
	}
	f.click(t, "the instance's row", f.st.Hierarchy[0].Rect)
	if f.st.Inspector["prefab:Unpack"].W == 0 {
		t.Fatalf("no prefab section for the selected instance: %v", f.st.Inspector)
	}
	f.click(t, "Unpack", f.st.Inspector["prefab:Unpack"].Rect)
	f.frames(2)
	if f.st.Hierarchy[0].Prefab != "" {
		t.Fatalf("after Unpack: %+v", f.st.Hierarchy[0])
	}
}

// TestAppConsoleFilter: the console's level toggles and filter.
func TestAppConsoleFilter(t *testing.T) {
	c := NewConsole(3)
	for i := range 5 {
		c.Add(Level(i%3), "line "+string(rune('a'+i)))
	}
	if len(c.Messages()) != 3 || c.Added() != 5 || c.Messages()[0].Text != "line c" {
		t.Fatalf("the console keeps %d: %+v", len(c.Messages()), c.Messages())
	}
	if i, w, e := c.Counts(); i != 1 || w != 1 || e != 1 {
		t.Fatalf("counts %d %d %d", i, w, e)
	}
	ui := newUIContext(t)
	c.filter = "d"
	ui.frames(2, func() { inWindow(panelConsole, 0, 0, 600, 300, c.Build) })
	c.show[LevelInfo] = false
	ui.frames(2, func() { inWindow(panelConsole, 0, 0, 600, 300, c.Build) })
	if LevelWarn.String() != "warning" || LevelError.String() != "error" || LevelInfo.String() != "info" {
		t.Fatal("level names")
	}
}

// TestAppInspectorEditsTheDocument: a value typed into the Inspector (Ctrl+click a number) is one undoable edit of
// the selected entity; a name typed into it renames.
func TestAppInspectorEditsTheDocument(t *testing.T) {
	f := newAppFixture(t, Options{})
	f.key(ctrl | shift | key(imgui.KeyN)) // Create Empty: selected
	f.menu(t, "Entity", "Create Cube")
	f.frames(2)
	x := f.st.Inspector["Transform.position[0]"]
	if x.W == 0 {
		t.Fatalf("no position field: %v", f.st.Inspector)
	}
	undos := f.st.UndoDepth
	f.ui.modifiers(true, false, false)
	f.click(t, "position x", x.Rect)
	f.ui.modifiers(false, false, false)
	f.frame()
	f.key(ctrl | key(imgui.KeyA))
	f.typeText("4.5")
	f.key(key(imgui.KeyEnter))
	f.frames(2)
	e, _ := f.a.ws.Doc().Selection().Active()
	if pos := f.a.ws.Doc().World().WorldMatrix(e).Col(3).X(); pos != 4.5 || f.st.UndoDepth != undos+1 {
		t.Fatalf("typed 4.5: x = %v, %d undo steps (before %d)", pos, f.st.UndoDepth, undos)
	}
	if f.st.Inspector["Transform.position[0]"].Shown != "4.5" && !strings.HasPrefix(f.st.Inspector["Transform.position[0]"].Shown, "4.5") {
		t.Fatalf("the field shows %q", f.st.Inspector["Transform.position[0]"].Shown)
	}
}

// TestAppAddComponentLeavesOutUnknown: Add Component offers the scene's components but never Unknown, the loader's
// holder of components the build does not know (its data is written back as those components, not under its name).
func TestAppAddComponentLeavesOutUnknown(t *testing.T) {
	f := newAppFixture(t, Options{})
	f.menu(t, "Entity", "Create Cube")
	f.frames(2)
	f.click(t, "Add Component", f.st.Inspector["add"].Rect)
	f.frames(2)
	if f.st.Inspector["add:Spin"].W == 0 {
		t.Fatalf("Add Component does not offer Spin: %v", f.st.Inspector)
	}
	if _, ok := f.st.Inspector["add:Unknown"]; ok {
		t.Fatal("Add Component offers Unknown")
	}
}
