package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/viewport"
)

// Report logs a failed command.
func (w *Workspace) Report(what string, err error) {
	if err != nil {
		w.log.Errorf("%s: %v", what, err)
	}
}

// CmdUndo undoes the last step (Edit → Undo).
func (w *Workspace) CmdUndo() {
	label := w.doc.History().UndoLabel()
	if err := w.doc.History().Undo(); err != nil {
		w.Report("undo", err)
		return
	}
	w.log.Infof("undo %s", label)
}

// CmdRedo redoes the last undone step.
func (w *Workspace) CmdRedo() {
	label := w.doc.History().RedoLabel()
	if err := w.doc.History().Redo(); err != nil {
		w.Report("redo", err)
		return
	}
	w.log.Infof("redo %s", label)
}

// CmdCopy puts the selected entities on the clipboard as scene JSON.
func (w *Workspace) CmdCopy() {
	text, err := w.doc.CopySelection()
	if err != nil {
		w.Report("copy", err)
		return
	}
	w.ui.SetClipboard(text)
	w.log.Infof("copied %s", words.Count(w.doc.Selection().Len(), "entity", "entities"))
}

// CmdPaste adds the entities on the clipboard as roots and selects them.
func (w *Workspace) CmdPaste() {
	text := w.ui.Clipboard()
	if strings.TrimSpace(text) == "" {
		w.log.Warnf("paste: the clipboard is empty")
		return
	}
	es, err := w.doc.Paste(context.Background(), text, ecs.Entity{})
	if err != nil {
		w.Report("paste", err)
		return
	}
	w.doc.Selection().Select(es...)
	if len(es) > 0 {
		w.ui.Show(es[0]) // as Create shows what it made
	}
	w.log.Infof("pasted %s", words.Count(len(es), "entity", "entities"))
}

// CmdDuplicate duplicates the selected entities and selects the copies.
func (w *Workspace) CmdDuplicate() {
	es, err := w.doc.DuplicateSelection()
	if err != nil {
		w.Report("duplicate", err)
		return
	}
	w.doc.Selection().Select(es...)
	if len(es) > 0 {
		w.ui.Show(es[0])
	}
}

// CmdDelete deletes the selected entities with their children.
func (w *Workspace) CmdDelete() {
	n, before := w.doc.Selection().Len(), w.doc.World().Len()
	if err := w.doc.DeleteSelection(); err != nil {
		w.Report("delete", err)
		return
	}
	w.log.Infof("%s", deletedText(n, before-w.doc.World().Len()))
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

// CmdSelectAll selects every entity.
func (w *Workspace) CmdSelectAll() { w.doc.Selection().SelectAll() }

// CmdDeselectAll clears the selection.
func (w *Workspace) CmdDeselectAll() { w.doc.Selection().Clear() }

// CmdInvertSelection selects what was not selected.
func (w *Workspace) CmdInvertSelection() { w.doc.Selection().Invert() }

// CmdCreateEmpty creates an empty root entity and selects it.
func (w *Workspace) CmdCreateEmpty() { w.SpawnUnder(ecs.Entity{}, false) }

// CmdCreateCube creates a cube at the root and selects it.
func (w *Workspace) CmdCreateCube() { w.SpawnUnder(ecs.Entity{}, true) }

// SpawnUnder creates an empty entity or a cube as a child of parent (zero: a root) and selects it.
func (w *Workspace) SpawnUnder(parent ecs.Entity, cube bool) {
	var e ecs.Entity
	var err error
	if cube {
		e, err = w.doc.SpawnCube(parent)
	} else {
		e, err = w.doc.SpawnEmpty(parent)
	}
	if err != nil {
		w.Report("create", err)
		return
	}
	if e.IsZero() {
		return // made by the attached game: its next delta brings it
	}
	w.doc.Selection().Select(e)
	w.ui.Show(e)
}

// CmdSpawnGrid opens the grid dialog with its last values (this run's, else the settings', else defaults),
// or gives it the keyboard if it is open.
func (w *Workspace) CmdSpawnGrid() {
	v := DefaultGrid()
	switch {
	case w.gridValues != nil:
		v = *w.gridValues
	case w.settings.Grid != nil:
		v = *w.settings.Grid
	}
	w.ui.OpenGridDialog(v)
}

// DefaultGrid is the grid dialog's values on first use.
func DefaultGrid() settings.Grid {
	return settings.Grid{
		Count: [3]int{10, 1, 10}, Spacing: [3]float32{1.5, 1.5, 1.5}, Mesh: scene.MeshCube,
		Gradient: true, From: [4]float32{1, 0.55, 0.2, 1}, To: [4]float32{0.2, 0.5, 1, 1},
		GroupName: "Grid", Speed: 45,
	}
}

// RememberGrid keeps the grid dialog's values for the next time it opens (in this run, and in the settings).
func (w *Workspace) RememberGrid(v settings.Grid) {
	w.gridValues = &v
	w.settings.Grid = &v
	w.SaveSettings()
}

// SpawnGrid makes the grid as one undoable command, which selects it (its group, or its cubes). From JobThreshold
// cubes the grid is computed by a background job (progress, Cancel; the overlay shows from this frame) and added on
// the loop thread when done; preview, if not nil, is the dialog's preview of exactly this grid, shown until then.
// ready, if not nil, is the grid's job already run (the dialog's readyGrid, for the open document): the job has
// nothing left to compute, and the cubes are added in the next frame.
func (w *Workspace) SpawnGrid(p scene.GridParams, preview *viewport.DrawList, ready *doc.GridJob) {
	m := w.jobs.beginMark("spawn grid")
	j := ready
	if j == nil || !j.For(w.doc) {
		var err error
		if j, err = w.doc.PrepareGrid(p); err != nil {
			w.Report("spawn grid", err)
			return
		}
		ready = nil
	}
	d0 := w.doc
	finish := func(err error) {
		w.ui.DropPreview(preview)
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
			w.Report("spawn grid", err)
			return
		}
		if preview != nil {
			w.ui.AdoptPreview(preview, cubes)
		}
		w.log.Infof("spawned %s", words.Count(len(cubes), "cube", "cubes"))
	}
	if j.Len() < JobThreshold {
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
	w.ui.KeepPreview(preview)
	work := func(ctx context.Context, progress func(done, total int64)) error {
		if ready != nil {
			progress(int64(j.Len()), int64(j.Len()))
			return nil
		}
		return j.Run(ctx, progress)
	}
	if !w.jobs.Start(fmt.Sprintf("Spawning %d cubes", p.Len()), work, finish, JobOptions{Applies: true, Mark: m, Immediate: true, Wait: func() string {
		switch {
		case w.doc.PlayMode().Playing():
			return "waiting for Stop (play mode)"
		case w.doc.Editing():
			return "waiting for the edit to end"
		}
		return ""
	}}) {
		w.ui.DropPreview(preview)
	}
}

// Play mode: the systems run on a clone of the edit world; at Stop the user chooses which of its changes to keep.

// CmdPlayStop starts play mode, or stops it and restores the scene; when the user edited the scene while playing,
// it asks which changes made while playing (the user's and the systems') to keep.
func (w *Workspace) CmdPlayStop() {
	if w.live.Attached() {
		w.live.Detach()
		return
	}
	if w.doc.PlayMode().Playing() {
		ch := w.doc.PlayMode().Stop()
		w.log.Infof("stopped: the scene is as it was before Play")
		// Only the user's own edits make Stop ask: a scene whose systems run would otherwise ask at every Stop.
		if slices.ContainsFunc(ch.Changes, func(c doc.PlayChange) bool { return c.User }) {
			d := w.doc
			w.ui.AskKeepPlayChanges(ch, w.settings.KeepsPlayEdits(), func(cs []doc.PlayChange) { w.keepPlayChanges(d, cs) })
		}
	} else {
		w.doc.PlayMode().Start()
		w.lastTick = time.Now()
		w.log.Infof("playing")
	}
	w.ui.WorldReplaced()
}

// CmdPause pauses or resumes play mode.
func (w *Workspace) CmdPause() {
	if w.live.Attached() {
		if w.live.Paused() {
			w.live.CmdResume()
		} else {
			w.live.CmdPause()
		}
		return
	}
	w.doc.PlayMode().SetPaused(!w.doc.PlayMode().Paused())
	w.lastTick = time.Now()
}

// CmdStep pauses play mode and advances it by one step.
func (w *Workspace) CmdStep() {
	if w.live.Attached() {
		w.live.CmdStep()
		return
	}
	if !w.doc.PlayMode().Paused() {
		w.doc.PlayMode().SetPaused(true)
	}
	w.doc.PlayMode().Step()
}

// CanUndo reports whether there is a step to undo.
func (w *Workspace) CanUndo() bool { return w.doc.History().CanUndo() }

// CanRedo reports whether there is a step to redo.
func (w *Workspace) CanRedo() bool { return w.doc.History().CanRedo() }

// HasSelection reports whether entities are selected and may be edited (not in play mode).
func (w *Workspace) HasSelection() bool {
	return w.doc.Selection().Len() > 0 && !w.doc.PlayMode().Playing()
}

// CanCopyOrDuplicate reports whether entities are selected to copy or duplicate: also while playing, when the
// copies go into the play world and Stop offers to keep them.
func (w *Workspace) CanCopyOrDuplicate() bool { return w.doc.Selection().Len() > 0 }

// CanDeleteOrRename reports whether entities are selected to delete or rename: also while playing, when the
// play world changes and Stop offers to keep it.
func (w *Workspace) CanDeleteOrRename() bool { return w.doc.Selection().Len() > 0 }

// Editable reports whether the scene may be edited (not in play mode).
func (w *Workspace) Editable() bool { return !w.doc.PlayMode().Playing() && !w.doc.LiveReadOnly() }

// CanCreate reports whether entities may be created: also while playing, in the play world, and Stop offers to
// keep them.
func (w *Workspace) CanCreate() bool { return !w.doc.LiveReadOnly() }

// Playing reports whether play mode is on.
func (w *Workspace) Playing() bool {
	return w.doc.PlayMode().Playing() || w.live.State() == LiveAttached
}

// PrepareGrid is doc.PrepareGrid on the open document (the grid dialog's readyGrid), with the step delay of the
// e2e build's background jobs.
func (w *Workspace) PrepareGrid(p scene.GridParams) (*doc.GridJob, time.Duration, error) {
	j, err := w.doc.PrepareGrid(p)
	return j, w.jobs.stepDelay, err
}

// Paused reports whether play mode is paused.
func (w *Workspace) Paused() bool { return w.doc.PlayMode().Paused() || w.live.Paused() }

// InInstance reports whether the selection's active entity belongs to a prefab instance.
func (w *Workspace) InInstance() bool {
	e, ok := w.doc.Selection().Active()
	if !ok || w.doc.PlayMode().Playing() {
		return false
	}
	_, in := w.doc.Prefabs().InstanceOf(e)
	return in
}

// keepPlayChanges keeps cs (changes made while playing in d) as one undoable step; none: nothing is kept.
func (w *Workspace) keepPlayChanges(d *doc.Document, cs []doc.PlayChange) {
	switch {
	case d != w.doc:
		w.log.Warnf("the changes made while playing were not kept: another scene is open")
	case len(cs) == 0:
		w.log.Infof("discarded the changes made while playing")
	default:
		if err := d.KeepPlayChanges(cs); err != nil {
			w.log.Errorf("keep the changes made while playing: %v", err)
			return
		}
		w.log.Infof("kept %s made while playing", words.Count(len(cs), "change", "changes"))
	}
}
