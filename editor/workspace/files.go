package editor

import (
	"context"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
)

// The workspace's file commands: New, Open, Save, Save As, Export. Big scenes open, save and export in the
// background (job.go); the unsaved-changes question comes first where the open scene would be dropped (flows.go).

func (w *workspace) cmdNew() {
	w.confirmDiscard("create a new scene", func() {
		w.setDoc(doc.New("", w.docOpts))
		w.log.Infof("new scene")
	})
}

// dialogDir is where file dialogs start: the open scene's folder, else the most recent place.
func (w *workspace) dialogDir() string {
	if p := w.doc.Path(); p != "" {
		return filepath.Dir(p)
	}
	if len(w.settings.Places) > 0 {
		return w.settings.Places[0]
	}
	return ""
}

func (w *workspace) cmdOpen() {
	w.confirmDiscard("open another scene", func() {
		w.ui.chooseFile(fileRequest{title: "Open Scene", dir: w.dialogDir(), exts: []string{".json"}, onChoose: w.openPath})
	})
}

// openRecent opens a file of File → Open Recent.
func (w *workspace) openRecent(path string) {
	w.confirmDiscard("open another scene", func() { w.openPath(path) })
}

// clearRecent empties File → Open Recent.
func (w *workspace) clearRecent() {
	w.settings.Recent = nil
	w.saveSettings()
}

// openFirst opens the scene named on the command line ("" a new scene). A big one is only set up for (returned as
// later): it opens inside the window, with its progress, once the window exists (openInBackground); a smaller one
// that does not load is an error here.
func (w *workspace) openFirst(path string) (later string, err error) {
	popts, pst := loadProject(w.docOpts, path)
	switch {
	case path != "" && bigFile(path):
		// A big scene opens in the window: it shows at once, with the progress, while a job parses the file
		// (and reads the project file next to it again).
		w.useProject(popts, pst)
		w.setDoc(doc.New("", w.docOpts))
		return path, nil
	case path != "":
		d, err := doc.Open(context.Background(), path, popts, nil)
		if err != nil {
			return "", loadError(path, err)
		}
		w.useProject(popts, pst)
		w.setDoc(d)
		w.settings.AddRecent(path)
		w.saveSettings()
	default:
		w.useProject(popts, pst)
		w.setDoc(doc.New("", w.docOpts))
	}
	return "", nil
}

// backgroundOpenSize is the file size from which the scene named on the command line opens inside the window
// (shown at once, with progress) rather than before it. Smaller files (about 7,000 cubes) load in well under a
// second, and a broken one is reported on the command line without a window.
const backgroundOpenSize = 2 << 20

func bigFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Size() >= backgroundOpenSize
}

// loadError turns a load failure into one error listing every problem.
func loadError(path string, err error) error {
	probs := serialize.ProblemsOf(err)
	if len(probs) <= 1 {
		return fmt.Errorf("cannot open scene %s: %w", path, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "cannot open scene %s (%d problems):", path, len(probs))
	for _, p := range probs {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return errors.New(b.String())
}

// openPath loads a scene in the background and shows it when done. A file that does not load leaves the open
// scene as it was and lists every problem in the console.
func (w *workspace) openPath(path string) { w.openInBackground(path, w.jobs.beginMark("open"), false) }

// openInBackground parses the file and builds a new document on a background goroutine — touching nothing of the
// open one, which stays usable — with the progress (bytes read) in the overlay, then swaps it in on the loop.
// If the open scene was changed meanwhile, the usual Save / Don't Save / Cancel question comes first. immediate
// shows the progress from the first frame (a big scene named on the command line).
func (w *workspace) openInBackground(path string, m *mark, immediate bool) {
	var nd *doc.Document
	base := w.baseDocOptions()
	var popts doc.Options
	var pst projectState
	w.jobs.start("Opening "+filepath.Base(path), func(ctx context.Context, progress func(done, total int64)) error {
		popts, pst = loadProject(base, path) // the components of the project file next to the scene
		d, err := doc.Open(ctx, path, popts, progress)
		nd = d
		return err
	}, func(err error) {
		if err != nil {
			w.reportLoadError(path, err)
			if errors.Is(err, os.ErrNotExist) {
				w.settings.RemoveRecent(path)
				w.saveSettings()
			}
			return
		}
		w.confirmDiscard("open "+filepath.Base(path), func() {
			w.useProject(popts, pst)
			w.setDoc(nd)
			w.settings.AddRecent(path)
			w.saveSettings()
		})
	}, jobOptions{applies: true, mark: m, immediate: immediate, wait: func() string {
		if immediate && w.clock.frames < 2 {
			return "showing the window first" // the first frame, with the progress, is presented before the scene
		}
		return ""
	}})
}

// reportLoadError puts every problem of a failed load in the console and says so in a dialog.
func (w *workspace) reportLoadError(path string, err error) {
	if errors.Is(err, context.Canceled) {
		w.log.Infof("opening %s cancelled", path)
		return
	}
	probs := serialize.ProblemsOf(err)
	for _, p := range probs {
		w.log.Errorf("%s", p)
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
	w.ui.alert("Cannot open scene", msg)
}

// maxListedProblems is how many problems a dialog lists; the console has them all.
const maxListedProblems = 8

// problemLines lists problems for a dialog, one a line as line formats them, at most maxListedProblems of them
// and then how many more the console has.
func problemLines(probs []serialize.Problem, line func(serialize.Problem) string) string {
	var b strings.Builder
	for i, p := range probs {
		if i == maxListedProblems {
			fmt.Fprintf(&b, "… and %d more (see the Console)\n", len(probs)-maxListedProblems)
			break
		}
		b.WriteString(line(p) + "\n")
	}
	return b.String()
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

func (w *workspace) cmdSave()   { w.saveThen(nil) }
func (w *workspace) cmdSaveAs() { w.saveAsThen(nil, nil) }

// saveAsThen asks for a file name and saves there; then runs after a successful save, cancelled when there is
// none (the dialog closed, the save failed or was cancelled).
func (w *workspace) saveAsThen(then, cancelled func()) {
	name := fileNameFor(w.doc.SceneName())
	if w.doc.Path() != "" {
		name = filepath.Base(w.doc.Path())
	}
	w.ui.chooseFile(fileRequest{save: true, title: "Save Scene As", dir: w.dialogDir(), name: name, exts: []string{".json"},
		onChoose: func(p string) { w.save(p, then, cancelled) }, onCancel: cancelled})
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
func (w *workspace) saveThen(then func()) { w.saveOr(then, nil) }

// saveOr is saveThen that runs cancelled when the scene was not saved.
func (w *workspace) saveOr(then, cancelled func()) {
	if w.doc.Path() == "" {
		w.saveAsThen(then, cancelled)
		return
	}
	w.save(w.doc.Path(), then, cancelled)
}

// save writes the scene (with the document's camera) atomically to path; big scenes save in the background with
// a progress bar. The file watcher is told, so the editor's own save is not reported as an outside change. then
// runs after a successful save, cancelled (if not nil) after a failed or cancelled one.
func (w *workspace) save(path string, then, cancelled func()) {
	done := func(err error) {
		w.resumeWatch() // after a Save As this also follows the new path
		if err != nil {
			if errors.Is(err, context.Canceled) {
				w.log.Infof("save cancelled; %s was not changed", path)
			} else {
				w.log.Errorf("saving %s: %v", path, err)
				w.ui.alert("Save failed", "Could not save "+path+":\n\n"+errText(path, err)+"\n\nThe file on disk was not changed.")
			}
			if cancelled != nil {
				cancelled()
			}
			return
		}
		w.log.Infof("saved %s", path)
		w.settings.AddRecent(path)
		w.saveSettings()
		if then != nil {
			then()
		}
	}
	w.pauseWatch(path)
	if w.doc.Len() < jobThreshold {
		done(w.doc.SaveAs(context.Background(), path, nil))
		return
	}
	j := w.doc.PrepareSave(path)
	var sum hash.Hash64
	if w.watcher != nil {
		sum = w.watcher.ContentHash() // what the job writes is known to the watcher without reading it back
		j.Also = sum
	}
	d := w.doc
	if !w.jobs.start("Saving "+filepath.Base(path), func(ctx context.Context, progress func(done, total int64)) error {
		return j.Run(ctx, progress)
	}, func(err error) {
		if w.doc == d {
			w.doc.Finish(j, err)
		}
		if err == nil && sum != nil {
			if werr := w.watcher.AddKnown(path, sum.Sum64()); werr != nil {
				w.log.Warnf("watching %s: %v", path, werr)
			}
		}
		done(err)
	}, jobOptions{}) {
		w.resumeWatch()
		if cancelled != nil {
			cancelled()
		}
	}
}

func (w *workspace) cmdExport() {
	name := strings.TrimSuffix(fileNameFor(w.doc.SceneName()), ".json") + ".export.json"
	if p := w.doc.Path(); p != "" {
		name = strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)) + ".export.json"
	}
	w.ui.chooseFile(fileRequest{save: true, title: "Export for Game", dir: w.dialogDir(), name: name, okLabel: "Export",
		exts: []string{".json"}, onChoose: w.export})
}

// export writes the game export (world matrices baked, editor data stripped) atomically.
func (w *workspace) export(path string) {
	j := w.doc.PrepareExport(path)
	finish := func(err error) {
		if err != nil {
			w.log.Errorf("export to %s: %v", path, err)
			w.ui.alert("Export failed", "Could not export to "+path+":\n\n"+errText(path, err))
			return
		}
		w.log.Infof("exported %s to %s", words.Count(w.doc.Len(), "entity", "entities"), path)
		w.settings.AddPlace(filepath.Dir(path))
	}
	if w.doc.Len() < jobThreshold {
		finish(j.Run(context.Background(), nil))
		return
	}
	w.jobs.start("Exporting "+filepath.Base(path), func(ctx context.Context, progress func(done, total int64)) error {
		return j.Run(ctx, progress)
	}, finish, jobOptions{})
}
