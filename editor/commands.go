package editor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/assets/watch"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/filedialog"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
)

// The cmd* methods are the actions of the command table (actions.go). Every change to the scene goes through
// the document (editor/doc), which makes it an undoable command.

func (a *App) cmdNew() {
	a.confirmDiscard("create a new scene", func() {
		a.setDoc(doc.New("", a.docOpts))
		a.console.Infof("new scene")
	})
}

// dialogDir is where file dialogs start: the open scene's folder, else the most recent place.
func (a *App) dialogDir() string {
	if p := a.doc.Path(); p != "" {
		return filepath.Dir(p)
	}
	if len(a.settings.Places) > 0 {
		return a.settings.Places[0]
	}
	return ""
}

func (a *App) cmdOpen() {
	a.confirmDiscard("open another scene", func() {
		a.files = newFileDialog(filedialog.Open, "Open Scene", a.dialogDir(), a.settings.Places, a.openPath, ".json")
	})
}

// openPath loads a scene in the background and shows it when done. A file that does not load leaves the open
// scene as it was and lists every problem in the console.
func (a *App) openPath(path string) { a.openInBackground(path, a.beginMark("open"), false) }

// openInBackground parses the file and builds a new document on a background goroutine — touching nothing of the
// open one, which stays usable — with the progress (bytes read) in the overlay, then swaps it in on the loop.
// If the open scene was changed meanwhile, the usual Save / Don't Save / Cancel question comes first.
func (a *App) openInBackground(path string, m *mark, immediate bool) {
	var nd *doc.Document
	base := a.baseDocOptions()
	var popts doc.Options
	var pst projectState
	a.startJob("Opening "+filepath.Base(path), func(ctx context.Context, progress func(done, total int64)) error {
		popts, pst = loadProject(base, path) // the components of the project file next to the scene
		d, err := doc.Open(ctx, path, popts, progress)
		nd = d
		return err
	}, func(err error) {
		if err != nil {
			a.reportLoadError(path, err)
			if errors.Is(err, os.ErrNotExist) {
				a.settings.RemoveRecent(path)
				a.saveSettings()
			}
			return
		}
		a.confirmDiscard("open "+filepath.Base(path), func() {
			a.useProject(popts, pst)
			a.setDoc(nd)
			a.settings.AddRecent(path)
			a.saveSettings()
		})
	}, jobOptions{applies: true, mark: m, immediate: immediate, wait: func() string {
		if immediate && a.frames < 2 {
			return "showing the window first" // the first frame, with the progress, is presented before the scene
		}
		return ""
	}})
}

// reportLoadError puts every problem of a failed load in the console and says so in a dialog.
func (a *App) reportLoadError(path string, err error) {
	if errors.Is(err, context.Canceled) {
		a.console.Infof("opening %s cancelled", path)
		return
	}
	probs := serialize.ProblemsOf(err)
	for _, p := range probs {
		a.console.Errorf("%s", p)
	}
	msg := "Could not open " + path + ":\n\n"
	if len(probs) > 1 {
		msg = "Could not open " + path + " (" + words.Count(len(probs), "problem", "problems") + "):\n\n"
	}
	msg += problemLines(probs, func(p serialize.Problem) string {
		if len(probs) == 1 && p.File == "" && p.Line == 0 && p.Path == "" {
			return errText(path, err) // not a problem in the file's text (missing, unreadable…)
		}
		return problemText(path, p)
	})
	msg += "\nThe open scene was not changed."
	a.alert("Cannot open scene", msg)
}

// problemText is a problem of the file at path as a dialog lists it below "Could not open PATH": without the
// path again — "line 3, column 5: entities[0].components.Color.rgba[1]: expected a number".
func problemText(path string, p serialize.Problem) string {
	var b strings.Builder
	if p.File != "" && p.File != path {
		b.WriteString(p.File + ": ")
	}
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", p.Line, p.Col)
	}
	if p.Warning {
		b.WriteString("warning: ")
	}
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// errText is err as a dialog about the file at path shows it below "Could not … PATH": without the path again
// ("open /x/a.json: permission denied" → "permission denied").
func errText(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return pe.Err.Error()
	}
	return strings.TrimPrefix(err.Error(), path+": ")
}

func (a *App) cmdSave() {
	if a.doc.Path() == "" {
		a.cmdSaveAs()
		return
	}
	a.save(a.doc.Path(), nil)
}

func (a *App) cmdSaveAs() { a.saveAsThen(nil) }

func (a *App) saveAsThen(then func()) {
	d := newFileDialog(filedialog.Save, "Save Scene As", a.dialogDir(), a.settings.Places, func(p string) { a.save(p, then) }, ".json")
	if a.doc.Path() != "" {
		d.d.Name = filepath.Base(a.doc.Path())
	} else {
		d.d.Name = fileNameFor(a.doc.SceneName())
	}
	a.files = d
}

// fileNameFor makes a file name from a scene name.
func fileNameFor(name string) string {
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) {
			return '_'
		}
		return r
	}, strings.TrimSpace(name))
	if name == "" {
		name = "scene"
	}
	return strings.ToLower(strings.ReplaceAll(name, " ", "-")) + ".json"
}

// saveThen saves (asking for a file name if the scene has none) and runs then after a successful save.
func (a *App) saveThen(then func()) {
	if a.doc.Path() == "" {
		a.saveAsThen(then)
		return
	}
	a.save(a.doc.Path(), then)
}

// save writes the scene (with the editor camera) atomically to path; big scenes save in the background with a
// progress bar. The file watcher is told, so the editor's own save is not reported as an outside change.
func (a *App) save(path string, then func()) {
	done := func(err error) {
		a.resumeWatch() // after a Save As this also follows the new path
		if err != nil {
			if errors.Is(err, context.Canceled) {
				a.console.Infof("save cancelled; %s was not changed", path)
			} else {
				a.console.Errorf("saving %s: %v", path, err)
				a.alert("Save failed", "Could not save "+path+":\n\n"+errText(path, err)+"\n\nThe file on disk was not changed.")
			}
			return
		}
		a.console.Infof("saved %s", path)
		a.settings.AddRecent(path)
		a.saveSettings()
		if then != nil {
			then()
		}
	}
	a.pauseWatch(path)
	if a.doc.Len() < jobThreshold {
		done(a.doc.SaveAs(context.Background(), path, nil))
		return
	}
	j := a.doc.PrepareSave(path)
	d := a.doc
	if !a.startJob("Saving "+filepath.Base(path), func(ctx context.Context, progress func(done, total int64)) error {
		return j.Run(ctx, progress)
	}, func(err error) {
		if a.doc == d {
			a.doc.Finish(j, err)
		}
		done(err)
	}, jobOptions{}) {
		a.resumeWatch()
	}
}

// pauseWatch stops watching path while the editor writes it; resumeWatch watches it again, taking the file as it
// is now as known, so the editor's own save produces no event.
func (a *App) pauseWatch(path string) {
	if a.watcher != nil {
		_ = a.watcher.Remove(path)
		a.watched = nil
	}
}

func (a *App) resumeWatch() {
	if a.watcher != nil {
		a.watched = nil
		a.syncWatched()
	}
}

func (a *App) cmdExport() {
	name := strings.TrimSuffix(fileNameFor(a.doc.SceneName()), ".json") + ".export.json"
	if p := a.doc.Path(); p != "" {
		name = strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)) + ".export.json"
	}
	d := newFileDialog(filedialog.Save, "Export for Game", a.dialogDir(), a.settings.Places, a.export, ".json")
	d.d.Name = name
	d.okLabel = "Export"
	a.files = d
}

// export writes the game export (world matrices baked, editor data stripped) atomically.
func (a *App) export(path string) {
	j := a.doc.PrepareExport(path)
	finish := func(err error) {
		if err != nil {
			a.console.Errorf("export to %s: %v", path, err)
			a.alert("Export failed", "Could not export to "+path+":\n\n"+errText(path, err))
			return
		}
		a.console.Infof("exported %s to %s", words.Count(a.doc.Len(), "entity", "entities"), path)
		a.settings.AddPlace(filepath.Dir(path))
	}
	if a.doc.Len() < jobThreshold {
		finish(j.Run(context.Background(), nil))
		return
	}
	a.startJob("Exporting "+filepath.Base(path), func(ctx context.Context, progress func(done, total int64)) error {
		return j.Run(ctx, progress)
	}, finish, jobOptions{})
}

func (a *App) cmdQuit() { a.quit() }

func (a *App) report(what string, err error) {
	if err != nil {
		a.console.Errorf("%s: %v", what, err)
	}
}

func (a *App) cmdUndo() {
	label := a.doc.UndoLabel()
	if err := a.doc.Undo(); err != nil {
		a.report("undo", err)
		return
	}
	a.console.Infof("undo %s", label)
}

func (a *App) cmdRedo() {
	label := a.doc.RedoLabel()
	if err := a.doc.Redo(); err != nil {
		a.report("redo", err)
		return
	}
	a.console.Infof("redo %s", label)
}

func (a *App) cmdCopy() {
	text, err := a.doc.CopySelection()
	if err != nil {
		a.report("copy", err)
		return
	}
	imgui.SetClipboardText(text)
	a.console.Infof("copied %s", words.Count(a.doc.SelectionLen(), "entity", "entities"))
}

func (a *App) cmdPaste() {
	text := imgui.ClipboardText()
	if strings.TrimSpace(text) == "" {
		a.console.Warnf("paste: the clipboard is empty")
		return
	}
	es, err := a.doc.Paste(context.Background(), text, ecs.Entity{})
	if err != nil {
		a.report("paste", err)
		return
	}
	a.doc.Select(es...)
	a.console.Infof("pasted %s", words.Count(len(es), "entity", "entities"))
}

func (a *App) cmdDuplicate() {
	es, err := a.doc.DuplicateSelection()
	if err != nil {
		a.report("duplicate", err)
		return
	}
	a.doc.Select(es...)
}

func (a *App) cmdDelete() {
	n, before := a.doc.SelectionLen(), a.doc.Len()
	if err := a.doc.DeleteSelection(); err != nil {
		a.report("delete", err)
		return
	}
	a.console.Infof("%s", deletedText(n, before-a.doc.Len()))
}

// deletedText says what a delete of n selected entities that removed removed entities in all did: "deleted 1
// entity", "deleted 2 entities and 5 children" (children counts every descendant not selected itself).
func deletedText(n, removed int) string {
	s := "deleted " + words.Count(n, "entity", "entities")
	if kids := removed - n; kids > 0 {
		s += " and " + words.Count(kids, "child", "children")
	}
	return s
}

func (a *App) cmdSelectAll()   { a.doc.SelectAll() }
func (a *App) cmdRename()      { a.hier.startRename() }
func (a *App) cmdCreateEmpty() { a.spawnUnder(ecs.Entity{}, false) }
func (a *App) cmdCreateCube()  { a.spawnUnder(ecs.Entity{}, true) }

// spawnUnder creates an empty entity or a cube as a child of parent (zero: a root) and selects it.
func (a *App) spawnUnder(parent ecs.Entity, cube bool) {
	var e ecs.Entity
	var err error
	if cube {
		e, err = a.doc.SpawnCube(parent)
	} else {
		e, err = a.doc.SpawnEmpty(parent)
	}
	if err != nil {
		a.report("create", err)
		return
	}
	a.doc.Select(e)
	a.hier.show(e)
}

// cmdSpawnGrid opens the grid dialog with its last values (this session's, else the settings', else defaults),
// or gives it the keyboard if it is open.
func (a *App) cmdSpawnGrid() {
	if a.gridDlg != nil {
		a.gridDlg.opened, a.gridDlg.focus = false, true
		return
	}
	v := defaultGridValues()
	switch {
	case a.gridValues != nil:
		v = *a.gridValues
	case a.settings.Grid != nil:
		v = *a.settings.Grid
	}
	a.gridDlg = newGridDialog(v)
}

// Play mode: the systems run on a clone of the edit world; Stop throws the clone away.

func (a *App) cmdPlayStop() {
	if a.doc.Playing() {
		a.doc.Stop()
		a.console.Infof("stopped: the scene is as it was before Play")
	} else {
		a.doc.Play()
		a.lastTick = time.Now()
		a.console.Infof("playing")
	}
	a.vp.sync()
}

func (a *App) cmdPause() {
	a.doc.SetPaused(!a.doc.Paused())
	a.lastTick = time.Now()
}

func (a *App) cmdStep() {
	if !a.doc.Paused() {
		a.doc.SetPaused(true)
	}
	a.doc.Step()
}

// tickPlay advances play mode by the real time since the last frame.
func (a *App) tickPlay() {
	if !a.doc.Playing() || a.doc.Paused() {
		return
	}
	now := time.Now()
	dt := float32(now.Sub(a.lastTick).Seconds())
	a.lastTick = now
	a.doc.Tick(min(dt, 0.1))
}

func (a *App) cmdGizmoTranslate() { a.vp.setGizmo(gizmoTranslate) }
func (a *App) cmdGizmoRotate()    { a.vp.setGizmo(gizmoRotate) }
func (a *App) cmdGizmoScale()     { a.vp.setGizmo(gizmoScale) }
func (a *App) cmdGizmoSpace()     { a.vp.toggleGizmoSpace() }
func (a *App) cmdFrame()          { a.vp.frameSelection() }
func (a *App) cmdToggleStats() {
	a.vp.showStats = !a.vp.showStats
	a.saveSettings()
}

func (a *App) cmdResetLayout() {
	a.layoutBuilt = false
	for _, p := range panelNames {
		a.panelOpen[p] = true
	}
}
func (a *App) cmdShowShortcuts() { a.showShortcuts = !a.showShortcuts } // F1 opens and closes it
func (a *App) cmdAbout()         { a.showAbout = true }

func (a *App) canUndo() bool      { return a.doc.CanUndo() }
func (a *App) canRedo() bool      { return a.doc.CanRedo() }
func (a *App) hasSelection() bool { return a.doc.SelectionLen() > 0 && !a.doc.Playing() }
func (a *App) editable() bool     { return !a.doc.Playing() }
func (a *App) playing() bool      { return a.doc.Playing() }

// modalOpen reports whether a dialog owns the keyboard (shortcuts are off then). The grid dialog and background
// jobs are not modal: the rest of the UI stays usable beside them.
func (a *App) modalOpen() bool {
	return a.prompt != nil || a.files != nil
}

// modalName names the open dialog for the test probe.
func (a *App) modalName() string {
	switch {
	case a.prompt != nil:
		return "prompt:" + a.prompt.title
	case a.files != nil:
		return "file:" + a.files.d.Title
	case a.gridDlg != nil:
		return "grid"
	}
	return ""
}

func (a *App) buildRecentMenu() {
	if imgui.BeginMenuV("Open Recent", len(a.settings.Recent) > 0) {
		for _, p := range a.settings.Recent {
			if imgui.MenuItemBool(registerText(p)) {
				path := p
				a.confirmDiscard("open another scene", func() { a.openPath(path) })
			}
		}
		imgui.Separator()
		if imgui.MenuItemBool("Clear Recent") {
			a.settings.Recent = nil
			a.saveSettings()
		}
		imgui.EndMenu()
	}
}

// onSceneFileEvent reacts to the open scene file changing on disk: a clean scene reloads (keeping the selection
// and the camera), a modified one asks, a deleted one is reported (Save writes it back).
func (a *App) onSceneFileEvent(ev watch.Event) {
	de := doc.DiskChanged
	if ev.Kind == watch.Missing {
		de = doc.DiskRemoved
	}
	switch a.doc.OnDisk(de) {
	case doc.ActionReload:
		a.reloadFromDisk()
	case doc.ActionAsk:
		a.ask("Scene changed on disk", a.doc.Path()+" was changed by another program,\nand you have unsaved changes here.", 1,
			func(i int) {
				if i == 0 {
					a.reloadFromDisk()
				} else {
					a.doc.KeepMine()
					a.console.Warnf("kept your changes; saving will overwrite %s", a.doc.Path())
				}
			}, "Reload and lose my changes", "Keep mine")
	case doc.ActionWarnRemoved:
		a.console.Warnf("%s was deleted or moved on disk; Save writes it back", a.doc.Path())
	}
}

func (a *App) reloadFromDisk() {
	if err := a.doc.Reload(context.Background(), nil); err != nil {
		a.console.Errorf("reloading %s failed; keeping the scene as it is", a.doc.Path())
		for _, p := range serialize.ProblemsOf(err) {
			a.console.Errorf("%s", p)
		}
		return
	}
	a.vp.sync()
	a.hier.invalidate()
	a.console.Infof("reloaded %s (changed on disk)", a.doc.Path())
}

func (a *App) buildToolbar() {
	imgui.SetCursorPosX(imgui.WindowWidth()/2 - 90)
	playing := a.doc.Playing()
	label := "Play"
	if playing {
		label = "Stop"
	}
	if imgui.SmallButton(label + "##toolbarplay") {
		a.cmdPlayStop()
	}
	imgui.BeginDisabledV(!playing)
	pause := "Pause"
	if a.doc.Paused() {
		pause = "Resume"
	}
	imgui.SameLine()
	if imgui.SmallButton(pause + "##toolbarpause") {
		a.cmdPause()
	}
	imgui.SameLine()
	if imgui.SmallButton("Step##toolbarstep") {
		a.cmdStep()
	}
	imgui.EndDisabled()
	imgui.SameLine()
	imgui.TextDisabled("|")
	for _, m := range []struct {
		label string
		op    gizmoOp
	}{{"Move", gizmoTranslate}, {"Rotate", gizmoRotate}, {"Scale", gizmoScale}} {
		imgui.SameLine()
		sel := a.vp.gizmoOp == m.op
		if sel {
			imgui.PushStyleColorVec4(imgui.ColButton, imgui.Vec4{X: 0.26, Y: 0.59, Z: 0.98, W: 0.8})
		}
		if imgui.SmallButton(m.label + "##tb") {
			a.vp.setGizmo(m.op)
		}
		if sel {
			imgui.PopStyleColor()
		}
	}
	imgui.SameLine()
	space := "World"
	if a.vp.gizmoLocal {
		space = "Local"
	}
	if imgui.SmallButton(space + "##tbspace") {
		a.cmdGizmoSpace()
	}
}

func (a *App) buildDialogs() {
	if a.files != nil && !a.files.build() {
		a.files = nil
	}
	if a.gridDlg != nil && !a.gridDlg.build(a) {
		a.gridDlg = nil
	}
	if a.gridDlg == nil && a.probe != nil {
		a.probe.state.Grid = nil
	}
	a.buildPrompt()
	a.buildJobOverlay()
	if a.showShortcuts {
		// The window fits the whole table (up to the screen's height); Escape or F1 closes it.
		vp := imgui.MainViewport()
		imgui.SetNextWindowPosV(vp.Center(), imgui.CondAppearing, imgui.Vec2{X: 0.5, Y: 0.5})
		imgui.SetNextWindowSizeConstraints(imgui.Vec2{X: 300, Y: 100}, imgui.Vec2{X: vp.WorkSize().X, Y: vp.WorkSize().Y - 20})
		if imgui.BeginV("Shortcuts", &a.showShortcuts, imgui.WindowFlagsAlwaysAutoResize|imgui.WindowFlagsNoSavedSettings) {
			a.probe.panel("Shortcuts")
			buildShortcutTable()
			if imgui.IsWindowFocused() && imgui.IsKeyPressedBool(imgui.KeyEscape) {
				a.showShortcuts = false
			}
		}
		imgui.End()
	}
	if !a.showShortcuts {
		a.probe.forget("Shortcuts")
	}
	if a.showAbout {
		if imgui.BeginV("About Voltex Editor", &a.showAbout, imgui.WindowFlagsAlwaysAutoResize) {
			imgui.Text("Voltex Editor")
			imgui.TextDisabled("A visual editor for ECS scenes: open, edit, spawn cube grids, export for games.")
			imgui.TextDisabled("Dear ImGui (giu) · OpenGL 4.1 core · an ECS world with change detection.")
		}
		imgui.End()
	}
}

func buildShortcutTable() {
	if !imgui.BeginTableV("##shortcuts", 2, imgui.TableFlagsRowBg|imgui.TableFlagsBorders|imgui.TableFlagsSizingFixedFit, imgui.Vec2{}, 0) {
		return
	}
	for i := range actions {
		ac := &actions[i]
		if len(ac.keys) == 0 {
			continue
		}
		imgui.TableNextRow()
		imgui.TableNextColumn()
		text(ac.label)
		imgui.TableNextColumn()
		text(ac.allShortcutText())
	}
	for _, m := range mouseHelp {
		imgui.TableNextRow()
		imgui.TableNextColumn()
		text(m[0])
		imgui.TableNextColumn()
		text(m[1])
	}
	imgui.EndTable()
}

// mouseHelp lists the viewport's mouse controls (Help → Shortcuts and docs/shortcuts.md).
var mouseHelp = [][2]string{
	{"Select", "Left click (Ctrl: toggle)"},
	{"Box select", "Left drag (Ctrl: add)"},
	{"Orbit", "Middle drag, or Alt+left drag"},
	{"Pan", "Shift+middle drag"},
	{"Zoom to cursor", "Mouse wheel"},
	{"Fly", "Hold right button + WASD/QE (Shift faster)"},
	{"Snap gizmo", "Hold Ctrl while dragging"},
}

// docEditor adapts the document to the inspector's Editor interface.
type docEditor struct{ a *App }

func (e *docEditor) BeginEdit(label string) { e.a.doc.BeginEdit(label) }
func (e *docEditor) SetField(es []ecs.Entity, id ecs.ComponentID, path string, v any) error {
	return e.a.doc.SetField(es, id, path, v)
}
func (e *docEditor) EndEdit() { e.a.doc.EndEdit() }
func (e *docEditor) Rename(es []ecs.Entity, name string) error {
	e.a.hier.keep(es) // renamed in the inspector while the hierarchy is filtered: the rows stay
	return e.a.doc.Rename(es, name)
}
func (e *docEditor) AddComponent(es []ecs.Entity, id ecs.ComponentID) error {
	return e.a.doc.AddComponent(es, id)
}
func (e *docEditor) RemoveComponent(es []ecs.Entity, id ecs.ComponentID) error {
	return e.a.doc.RemoveComponent(es, id)
}
func (e *docEditor) ResetComponent(es []ecs.Entity, id ecs.ComponentID) error {
	return e.a.doc.ResetComponent(es, id)
}
func (e *docEditor) PasteComponent(es []ecs.Entity, id ecs.ComponentID, v any) error {
	return e.a.doc.PasteComponent(es, id, v)
}

// docNames gives the inspector the entities' names and scene ids.
type docNames struct{ a *App }

func (n docNames) Name(e ecs.Entity) string { return registerText(n.a.doc.Name(e)) }

// ID returns e's scene id, the id users see (the inspector shows it beside the name).
func (n docNames) ID(e ecs.Entity) uint64 { return n.a.doc.ID(e) }
