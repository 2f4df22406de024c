package editor

import (
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/editor/workspace"
)

// dialogs is the host of the windows that open over the dock: the prompt (questions and messages, one at a time),
// the file dialog and the Spawn Cube Grid tool window. Commands open them through ask, alert, chooseFile and
// openGrid; Build draws the open ones and forgets those that are done.
type dialogs struct {
	prompt  *prompt   // the question or message shown
	waiting []*prompt // asked while it was shown: each is shown when those before it are answered
	files   *fileDialog
	grid    *gridDialog
	keep    *keepDialog   // which changes made while playing to keep
	diff    *diffWindow   // the Differences window
	diffs   []*diffWindow // shown after it, in turn (a question is never dropped unanswered)
	attach  *attachDialog

	places   func() []string // the file dialog's recent places (the settings')
	gridHost gridHost
	gridView gridView
	meshes   meshes
	probe    *probe.State
	mark     func(what string) // times a grid value edit for the probe (workspace.Jobs.MarkNow); nil: not timed
}

var _ g.Widget = (*dialogs)(nil)

// ask shows a modal question; onChoose gets the index of the button pressed (cancel: the one Escape presses, -1
// for none). Asked while another question or message is open, it waits for that one's answer — a question is never
// dropped unanswered — unless the same question (title and message) is already open or waiting.
func (d *dialogs) ask(title, message string, cancel int, onChoose func(int), buttons ...string) {
	p := &prompt{title: title, message: message, buttons: buttons, cancel: cancel, onChoose: onChoose}
	if d.prompt == nil {
		d.prompt = p
		return
	}
	for _, q := range append([]*prompt{d.prompt}, d.waiting...) {
		if q.title == title && q.message == message && !q.answered {
			return
		}
	}
	d.waiting = append(d.waiting, p)
}

// alert tells the user something that needs no decision (a failed save, a broken file): a prompt with one OK
// button. It is the one way the editor reports such things in a dialog (the console has the details).
func (d *dialogs) alert(title, message string) { d.ask(title, message, 0, func(int) {}, "OK") }

// showDiff opens the Differences window on req, after the one open (if any) is answered.
func (d *dialogs) showDiff(req workspace.DiffRequest) {
	if d.diff == nil {
		d.diff = newDiffWindow(req)
		return
	}
	d.diffs = append(d.diffs, newDiffWindow(req))
}

// chooseFile shows a file dialog.
func (d *dialogs) chooseFile(req workspace.FileRequest) { d.files = newFileDialog(req, d.places()) }

// openGrid opens the Spawn Cube Grid dialog with values, or gives it the keyboard if it is open.
func (d *dialogs) openGrid(values settings.Grid) {
	if d.grid != nil {
		d.grid.win.reopen()
		return
	}
	d.grid = newGridDialog(values, d.gridHost, d.gridView, d.meshes, d.probe)
	d.grid.mark = d.mark
}

// modalOpen reports whether a dialog owns the keyboard (shortcuts are off then). The grid dialog and background
// jobs are not modal: the rest of the UI stays usable beside them.
func (d *dialogs) modalOpen() bool {
	return d.prompt != nil || d.files != nil || d.keep != nil || d.attach != nil || d.diff != nil
}

// modalName names the open dialog for the test probe.
func (d *dialogs) modalName() string {
	switch {
	case d.keep != nil: // shown before any prompt
		return "keep:" + keepTitle
	case d.diff != nil:
		return "diff:" + d.diff.req.Title
	case d.prompt != nil:
		return "prompt:" + d.prompt.title
	case d.files != nil:
		return "file:" + d.files.d.Title
	case d.attach != nil:
		return "attach:" + attachTitle
	case d.grid != nil:
		return "grid"
	}
	return ""
}

// promptText is the open prompt's message, or what the Differences window shows ("" when neither is open).
func (d *dialogs) promptText() string {
	switch {
	case d.diff != nil:
		return d.diff.text()
	case d.prompt == nil:
		return ""
	}
	return d.prompt.message
}

// Build draws the open dialogs. One that is done is forgotten; the next waiting question or message takes its place.
func (d *dialogs) Build() {
	if f := d.files; f != nil {
		f.Build()
		if f.done() && d.files == f {
			d.files = nil
		}
	}
	if gd := d.grid; gd != nil {
		gd.Build()
		if gd.done() && d.grid == gd {
			d.grid = nil
		}
	}
	if d.grid == nil && d.probe != nil {
		d.probe.Grid = nil
	}
	if at := d.attach; at != nil {
		at.Build()
		if at.done && d.attach == at {
			d.attach = nil
		}
	}
	if k := d.keep; k != nil {
		k.Build()
		if k.done() && d.keep == k {
			d.keep = nil
		}
	}
	if w := d.diff; w != nil && d.keep == nil {
		w.Build()
		if w.done() && d.diff == w {
			d.diff = nil
			if len(d.diffs) > 0 {
				d.diff, d.diffs = d.diffs[0], d.diffs[1:]
			}
		}
	}
	if p := d.prompt; p != nil && d.keep == nil && d.diff == nil {
		p.Build()
		if p.done() {
			d.prompt = nil
			if len(d.waiting) > 0 {
				d.prompt, d.waiting = d.waiting[0], d.waiting[1:]
			}
		}
	}
}
