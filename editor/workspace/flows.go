package workspace

import (
	"context"

	"github.com/voltex-editor/voltex/assets/watch"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/serialize"
)

// The flows that ask before they act, as small state machines: the unsaved-changes question in front of New, Open
// and Quit (discardFlow), quitting (RequestClose) and a scene changed on disk by another program (outside edits).

// flowState is where a discardFlow is.
type flowState uint8

const (
	flowAsking    flowState = iota // the question is shown
	flowSaving                     // Save was chosen: the save (a file name, a background job) is under way
	flowDone                       // the action ran
	flowCancelled                  // Cancel, or the save failed or was not made: nothing happened
)

// The buttons of the unsaved-changes question, in order.
const (
	answerSave = iota
	answerDontSave
	answerCancel
)

// discardFlow is the unsaved-changes question in front of an action that would drop the open scene: asked only
// when there is something to lose; Save runs the action only once the save succeeded (a Save As whose dialog is
// closed, a failed or cancelled save leave everything as it was); Don't Save runs it at once; Cancel does nothing.
type discardFlow struct {
	state flowState
	run   func()
}

// startDiscard begins the flow for run: at once when the scene is not dirty (the flow is done), else asking.
func startDiscard(dirty bool, run func()) *discardFlow {
	f := &discardFlow{run: run}
	if !dirty {
		f.finish(true)
		return f
	}
	f.state = flowAsking
	return f
}

// answer takes the button pressed (answerSave, answerDontSave, answerCancel). It returns true when the scene must
// be saved now; call saved with the outcome.
func (f *discardFlow) answer(button int) (save bool) {
	if f.state != flowAsking {
		return false
	}
	switch button {
	case answerSave:
		f.state = flowSaving
		return true
	case answerDontSave:
		f.finish(true)
	default:
		f.state = flowCancelled
	}
	return false
}

// saved takes the outcome of the save that Save started: the action runs if it succeeded.
func (f *discardFlow) saved(ok bool) {
	if f.state == flowSaving {
		f.finish(ok)
	}
}

func (f *discardFlow) finish(ok bool) {
	if !ok {
		f.state = flowCancelled
		return
	}
	f.state = flowDone
	f.run()
}

// confirmDiscard runs then at once if the scene has no unsaved changes; otherwise it asks "Save / Don't Save /
// Cancel" first (what is about to happen is named by action: "quit", "open another scene"…).
func (w *Workspace) confirmDiscard(action string, then func()) *discardFlow {
	f := startDiscard(w.doc.Dirty(), then)
	if f.state != flowAsking {
		return f
	}
	w.ui.Ask("Unsaved changes", "Save changes to \""+w.docLabel()+"\" before you "+action+"?\nYour changes will be lost if you don't save them.",
		answerCancel, func(i int) {
			if f.answer(i) {
				w.saveOr(func() { f.saved(true) }, func() { f.saved(false) })
			}
		}, "Save", "Don't Save", "Cancel")
	return f
}

// RequestClose is the window's close request (the window manager's close button, Ctrl+Q, File → Quit); true
// lets the window close now. While a job runs it is refused (the job says what to wait for); with unsaved changes
// it asks first, and closes later (UI.Close) if the user says so.
func (w *Workspace) RequestClose() bool {
	if w.jobs.job != nil && !w.closing {
		w.log.Warnf("wait for %s to finish, or cancel it, before closing", w.jobs.job.label)
		return false
	}
	if w.closing || !w.doc.Dirty() {
		return true
	}
	w.confirmDiscard("quit", func() {
		w.closing = true
		w.ui.Close()
	})
	return false
}

// CmdQuit closes the window as if the user had closed it.
func (w *Workspace) CmdQuit() {
	if w.RequestClose() {
		w.closing = true
		w.ui.Close()
	}
}

// onSceneFileEvent reacts to the open scene file changing on disk (the document decides: doc.Document.OnDisk): a
// clean scene reloads (keeping the selection and the camera), a modified one asks, a deleted one is reported
// (Save writes it back).
func (w *Workspace) onSceneFileEvent(ev watch.Event) {
	de := doc.DiskChanged
	if ev.Kind == watch.Missing {
		de = doc.DiskRemoved
	}
	switch w.doc.OnDisk(de) {
	case doc.ActionReload:
		w.reloadFromDisk()
	case doc.ActionAsk:
		w.ui.Ask("Scene changed on disk", w.doc.Path()+" was changed by another program,\nand you have unsaved changes here.", 1,
			func(i int) {
				if i == 0 {
					w.reloadFromDisk()
				} else {
					w.doc.KeepMine()
					w.log.Warnf("kept your changes; saving will overwrite %s", w.doc.Path())
				}
			}, "Reload and lose my changes", "Keep mine")
	case doc.ActionWarnRemoved:
		w.log.Warnf("%s was deleted or moved on disk; Save writes it back", w.doc.Path())
	}
}

// reloadFromDisk reads the open scene's file again; the document keeps the selection and the camera.
func (w *Workspace) reloadFromDisk() {
	if err := w.doc.Reload(context.Background(), nil); err != nil {
		w.log.Errorf("reloading %s failed; keeping the scene as it is", w.doc.Path())
		for _, p := range serialize.ProblemsOf(err) {
			w.log.Errorf("%s", p)
		}
		return
	}
	w.ui.WorldReplaced()
	w.log.Infof("reloaded %s (changed on disk)", w.doc.Path())
}
