package workspace

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/voltex-editor/voltex/editor/doc"
)

// Journals are the workspace's side of session journals (a Workspace has one: Workspace.Journals). The session
// journal of the open scene (doc.Document.StartJournal) is started when a scene with a file opens and deleted when
// it closes cleanly (another scene opened, the editor quit). A journal found when a scene opens holds the work of
// a session that ended without either (a crash, a kill): the editor offers to recover it. At the start, the
// journals of other scenes are offered too (journals.go). The journals themselves are the documents' (and files
// in the state folder): Journals reaches the open document, the window and the console through its workspace.
type Journals struct {
	w *Workspace
}

// start starts d's journal, first asking about the work a journal of its scene holds, if any.
func (js *Journals) start(d *doc.Document) {
	if d.Path() == "" || d.Journal() != nil {
		return
	}
	jpath, err := doc.JournalPath(d.Path())
	if err != nil {
		js.w.log.Warnf("no session journal for %s: %v", d.Path(), err)
		return
	}
	if _, err := os.Stat(jpath); err == nil {
		rc, err := doc.Recover(context.Background(), jpath, d.Options())
		switch {
		case err != nil:
			kept := jpath + ".unreadable"
			_ = os.Rename(jpath, kept)
			js.w.log.Errorf("the session journal of %s cannot be replayed (%v); it is kept as %s", d.Path(), err, kept)
		case rc.Unsaved:
			js.askRecover(d, jpath, rc)
			return
		}
	}
	js.begin(d, jpath)
}

func (js *Journals) begin(d *doc.Document, jpath string) {
	if _, err := d.StartJournal(jpath, doc.JournalOptions{}); err != nil {
		js.w.log.Warnf("no session journal for %s: %v", d.Path(), err)
	}
}

// askRecover offers the work of a journal: Recover (the default), Discard, or Open both (the recovered scene
// saved beside the file as NAME.recovered.json, the file staying open).
func (js *Journals) askRecover(d *doc.Document, jpath string, rc *doc.Recovery) {
	intro := filepath.Base(d.Path()) + " has work from an editor session that ended without saving it."
	if rc.Merged {
		intro += fmt.Sprintf("\nThe file changed since: the work is merged into it (%d conflicts).", len(rc.Conflicts))
	}
	js.w.ui.ShowDiff(DiffRequest{Title: "Recover unsaved work", Intro: intro, Left: "On disk", Right: "Recovered",
		Changes: rc.Changes, Text: rc.DiffText(math.MaxInt), Cancel: 2, Select: js.w.selectSceneID,
		Buttons: []string{"Recover", "Discard", "Open both"}, OnChoose: func(i int) {
			if js.w.doc != d {
				return // another scene was opened meanwhile
			}
			switch i {
			case 0:
				js.begin(rc.Doc, jpath)
				js.w.SetDoc(rc.Doc)
				js.w.log.Infof("recovered the unsaved work of %s", d.Path())
			case 1:
				js.begin(d, jpath)
				js.w.log.Infof("discarded the unsaved work of %s", d.Path())
			default:
				other := strings.TrimSuffix(d.Path(), filepath.Ext(d.Path())) + ".recovered.json"
				if err := rc.Doc.SaveAs(context.Background(), other, nil); err != nil {
					js.w.log.Errorf("saving the recovered work to %s: %v; the journal is kept", other, err)
					return
				}
				js.begin(d, jpath)
				js.w.log.Infof("the recovered work of %s is in %s", d.Path(), other)
			}
		}})
}

// selectSceneID selects the entity with scene id id in the open scene and shows it, when the scene has one.
func (w *Workspace) selectSceneID(id int64) {
	if w.doc == nil || id <= 0 {
		return
	}
	if e, ok := w.doc.Entity(uint64(id)); ok {
		w.doc.Selection().Select(e)
		w.ui.Show(e)
	}
}

// close ends the journal of the open scene cleanly (its work was saved or discarded on purpose).
func (js *Journals) close() {
	if js.w.doc != nil {
		if err := js.w.doc.CloseJournal(true); err != nil {
			js.w.log.Warnf("session journal: %v", err)
		}
	}
}

// follow moves the journal to the open scene's file after a Save As to another path (a journal is found by
// its scene's path).
func (js *Journals) follow() {
	j := js.w.doc.Journal()
	if j == nil {
		js.start(js.w.doc)
		return
	}
	if want, err := doc.JournalPath(js.w.doc.Path()); err == nil && want != j.Path() {
		js.close()
		js.start(js.w.doc)
	}
}

// WriteBase has the open scene's journal write now the base that waits for its first step (a copy of the
// scene file as opened or saved), if one does, and call then once it is written (on another goroutine). The
// editor calls it when it goes idle: the copy then falls in no drag, key or frame of the user's.
func (js *Journals) WriteBase(then func()) {
	if j := js.w.doc.Journal(); j != nil {
		j.WriteBase(then)
	}
}

// BaseWaits reports whether the open scene's journal has a base to write or writes one: an editor that
// is otherwise idle is not, for the probe, until it is written.
func (js *Journals) BaseWaits() bool {
	j := js.w.doc.Journal()
	return j != nil && j.BaseWaits()
}
