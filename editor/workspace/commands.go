package editor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/viewport"
)

// commands is what the action table (actions.go) runs and asks: every menu item and shortcut of the editor.
// The workspace implements it; the menu bar and the shortcut handler see only this.
type commands interface {
	// File
	cmdNew()
	cmdOpen()
	cmdSave()
	cmdSaveAs()
	cmdExport()
	cmdQuit()
	// Edit
	cmdUndo()
	cmdRedo()
	cmdCopy()
	cmdPaste()
	cmdDuplicate()
	cmdDelete()
	cmdSelectAll()
	cmdDeselectAll()
	cmdInvertSelection()
	cmdRename()
	// Entity
	cmdCreateEmpty()
	cmdCreateCube()
	cmdSpawnGrid()
	cmdInstantiatePrefab()
	cmdSaveAsPrefab()
	cmdRevertInstance()
	cmdApplyInstance()
	cmdUnpackPrefab()
	// Play
	cmdPlayStop()
	cmdPause()
	cmdStep()
	// Viewport
	cmdGizmoTranslate()
	cmdGizmoRotate()
	cmdGizmoScale()
	cmdGizmoSpace()
	cmdFrame()
	// View, Help
	cmdToggleStats()
	cmdResetLayout()
	cmdShowShortcuts()
	cmdAbout()
	// When items are enabled.
	canUndo() bool
	canRedo() bool
	hasSelection() bool
	editable() bool
	playing() bool
	inInstance() bool
	// timed runs an action, timing it for the probe under what (probe.Mark).
	timed(what string, run func())
}

var _ commands = (*workspace)(nil)

// report logs a failed command.
func (w *workspace) report(what string, err error) {
	if err != nil {
		w.log.Errorf("%s: %v", what, err)
	}
}

func (w *workspace) cmdUndo() {
	label := w.doc.History().UndoLabel()
	if err := w.doc.History().Undo(); err != nil {
		w.report("undo", err)
		return
	}
	w.log.Infof("undo %s", label)
}

func (w *workspace) cmdRedo() {
	label := w.doc.History().RedoLabel()
	if err := w.doc.History().Redo(); err != nil {
		w.report("redo", err)
		return
	}
	w.log.Infof("redo %s", label)
}

func (w *workspace) cmdCopy() {
	text, err := w.doc.CopySelection()
	if err != nil {
		w.report("copy", err)
		return
	}
	w.ui.setClipboard(text)
	w.log.Infof("copied %s", words.Count(w.doc.Selection().Len(), "entity", "entities"))
}

func (w *workspace) cmdPaste() {
	text := w.ui.clipboard()
	if strings.TrimSpace(text) == "" {
		w.log.Warnf("paste: the clipboard is empty")
		return
	}
	es, err := w.doc.Paste(context.Background(), text, ecs.Entity{})
	if err != nil {
		w.report("paste", err)
		return
	}
	w.doc.Selection().Select(es...)
	w.log.Infof("pasted %s", words.Count(len(es), "entity", "entities"))
}

func (w *workspace) cmdDuplicate() {
	es, err := w.doc.DuplicateSelection()
	if err != nil {
		w.report("duplicate", err)
		return
	}
	w.doc.Selection().Select(es...)
}

func (w *workspace) cmdDelete() {
	n, before := w.doc.Selection().Len(), w.doc.Len()
	if err := w.doc.DeleteSelection(); err != nil {
		w.report("delete", err)
		return
	}
	w.log.Infof("%s", deletedText(n, before-w.doc.Len()))
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

func (w *workspace) cmdSelectAll()   { w.doc.Selection().SelectAll() }
func (w *workspace) cmdDeselectAll() { w.doc.Selection().Clear() }

func (w *workspace) cmdInvertSelection() { w.doc.Selection().Invert() }
func (w *workspace) cmdRename()          { w.ui.startRename() }
func (w *workspace) cmdCreateEmpty()     { w.spawnUnder(ecs.Entity{}, false) }
func (w *workspace) cmdCreateCube()      { w.spawnUnder(ecs.Entity{}, true) }

// spawnUnder creates an empty entity or a cube as a child of parent (zero: a root) and selects it.
func (w *workspace) spawnUnder(parent ecs.Entity, cube bool) {
	var e ecs.Entity
	var err error
	if cube {
		e, err = w.doc.SpawnCube(parent)
	} else {
		e, err = w.doc.SpawnEmpty(parent)
	}
	if err != nil {
		w.report("create", err)
		return
	}
	w.doc.Selection().Select(e)
	w.ui.show(e)
}

// cmdSpawnGrid opens the grid dialog with its last values (this run's, else the settings', else defaults),
// or gives it the keyboard if it is open.
func (w *workspace) cmdSpawnGrid() {
	v := defaultGridValues()
	switch {
	case w.gridValues != nil:
		v = *w.gridValues
	case w.settings.Grid != nil:
		v = *w.settings.Grid
	}
	w.ui.openGridDialog(v)
}

// rememberGrid keeps the grid dialog's values for the next time it opens (in this run, and in the settings).
func (w *workspace) rememberGrid(v settings.Grid) {
	w.gridValues = &v
	w.settings.Grid = &v
	w.saveSettings()
}

// spawnGrid makes the grid as one undoable command, which selects it (its group, or its cubes). From jobThreshold
// cubes the grid is computed by a background job (progress, Cancel; the overlay shows from this frame) and added on
// the loop thread when done; preview, if not nil, is the dialog's preview of exactly this grid, shown until then.
// ready, if not nil, is the grid's job already run (the dialog's readyGrid, for the open document): the job has
// nothing left to compute, and the cubes are added in the next frame.
func (w *workspace) spawnGrid(p scene.GridParams, preview *viewport.DrawList, ready *doc.GridJob) {
	m := w.jobs.beginMark("spawn grid")
	j := ready
	if j == nil || !j.For(w.doc) {
		var err error
		if j, err = w.doc.PrepareGrid(p); err != nil {
			w.report("spawn grid", err)
			return
		}
		ready = nil
	}
	d0 := w.doc
	finish := func(err error) {
		w.ui.dropPreview(preview)
		if err == nil && w.doc != d0 {
			w.log.Warnf("spawn grid: the scene it was made for was closed; nothing was added")
			return
		}
		var cubes []ecs.Entity
		if err == nil {
			_, cubes, err = w.doc.FinishGrid(j)
		}
		switch {
		case errors.Is(err, context.Canceled):
			w.log.Infof("spawning %d cubes cancelled: the scene was not changed", p.Len())
			return
		case err != nil:
			w.report("spawn grid", err)
			return
		}
		if preview != nil {
			w.ui.adoptPreview(preview, cubes)
		}
		w.log.Infof("spawned %s", words.Count(len(cubes), "cube", "cubes"))
	}
	if j.Len() < jobThreshold {
		var err error
		if ready == nil {
			err = j.Run(context.Background(), nil)
		}
		finish(err)
		w.jobs.markResult(m, false)
		return
	}
	// A big grid is a job even when its cubes are planned already: the progress overlay is then on the screen
	// (drawn in this frame) before the loop thread adds them, in a later frame.
	w.ui.keepPreview(preview)
	work := func(ctx context.Context, progress func(done, total int64)) error {
		if ready != nil {
			progress(int64(j.Len()), int64(j.Len()))
			return nil
		}
		return j.Run(ctx, progress)
	}
	if !w.jobs.start(fmt.Sprintf("Spawning %d cubes", p.Len()), work, finish, jobOptions{applies: true, mark: m, immediate: true, wait: func() string {
		switch {
		case w.doc.PlayMode().Playing():
			return "waiting for Stop (play mode)"
		case w.doc.Editing():
			return "waiting for the edit to end"
		}
		return ""
	}}) {
		w.ui.dropPreview(preview)
	}
}

// Play mode: the systems run on a clone of the edit world; Stop throws the clone away.

func (w *workspace) cmdPlayStop() {
	if w.doc.PlayMode().Playing() {
		w.doc.PlayMode().Stop()
		w.log.Infof("stopped: the scene is as it was before Play")
	} else {
		w.doc.PlayMode().Start()
		w.lastTick = time.Now()
		w.log.Infof("playing")
	}
	w.ui.worldReplaced()
}

func (w *workspace) cmdPause() {
	w.doc.PlayMode().SetPaused(!w.doc.PlayMode().Paused())
	w.lastTick = time.Now()
}

func (w *workspace) cmdStep() {
	if !w.doc.PlayMode().Paused() {
		w.doc.PlayMode().SetPaused(true)
	}
	w.doc.PlayMode().Step()
}

func (w *workspace) cmdGizmoTranslate() { w.ui.setGizmo(gizmoTranslate) }
func (w *workspace) cmdGizmoRotate()    { w.ui.setGizmo(gizmoRotate) }
func (w *workspace) cmdGizmoScale()     { w.ui.setGizmo(gizmoScale) }
func (w *workspace) cmdGizmoSpace()     { w.ui.toggleGizmoSpace() }
func (w *workspace) cmdFrame()          { w.ui.frameSelection() }

func (w *workspace) cmdToggleStats() {
	w.settings.ShowStats = w.ui.toggleStats()
	w.saveSettings()
}

func (w *workspace) cmdResetLayout()   { w.ui.resetLayout() }
func (w *workspace) cmdShowShortcuts() { w.ui.toggleShortcuts() } // F1 opens and closes it
func (w *workspace) cmdAbout()         { w.ui.showAbout() }

func (w *workspace) canUndo() bool { return w.doc.History().CanUndo() }
func (w *workspace) canRedo() bool { return w.doc.History().CanRedo() }
func (w *workspace) hasSelection() bool {
	return w.doc.Selection().Len() > 0 && !w.doc.PlayMode().Playing()
}
func (w *workspace) editable() bool { return !w.doc.PlayMode().Playing() }
func (w *workspace) playing() bool  { return w.doc.PlayMode().Playing() }

// prepareGrid is doc.PrepareGrid on the open document (the grid dialog's readyGrid), with the step delay of the
// e2e build's background jobs.
func (w *workspace) prepareGrid(p scene.GridParams) (*doc.GridJob, time.Duration, error) {
	j, err := w.doc.PrepareGrid(p)
	return j, w.jobs.stepDelay, err
}
func (w *workspace) paused() bool { return w.doc.PlayMode().Paused() }

// inInstance reports whether the selection's active entity belongs to a prefab instance.
func (w *workspace) inInstance() bool {
	e, ok := w.doc.Selection().Active()
	if !ok || w.doc.PlayMode().Playing() {
		return false
	}
	_, in := w.doc.Prefabs().InstanceOf(e)
	return in
}
