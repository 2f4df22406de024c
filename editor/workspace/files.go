package workspace

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
)

// The workspace's file commands: New, Open, Save, Save As, Export. Big scenes open, save and export in the
// background (job.go); the unsaved-changes question comes first where the open scene would be dropped (flows.go).

// CmdNew replaces the open scene by a new one (asking first if it has unsaved changes).
func (w *Workspace) CmdNew() {
	w.confirmDiscard("create a new scene", func() {
		w.SetDoc(doc.New("", w.docOpts))
		w.log.Infof("new scene")
	})
}

// dialogDir is where file dialogs start: the open scene's folder, else the most recent place.
func (w *Workspace) dialogDir() string {
	if p := w.doc.Path(); p != "" {
		return filepath.Dir(p)
	}
	if len(w.settings.Places) > 0 {
		return w.settings.Places[0]
	}
	return ""
}

// CmdOpen asks for a scene file and opens it (asking first if the open scene has unsaved changes).
func (w *Workspace) CmdOpen() {
	w.confirmDiscard("open another scene", func() {
		w.ui.ChooseFile(FileRequest{Title: "Open Scene", Dir: w.dialogDir(), Exts: []string{".json"}, OnChoose: w.openPath})
	})
}

// OpenRecent opens a file of File → Open Recent.
func (w *Workspace) OpenRecent(path string) {
	w.confirmDiscard("open another scene", func() { w.openPath(path) })
}

// ClearRecent empties File → Open Recent.
func (w *Workspace) ClearRecent() {
	w.settings.Recent = nil
	w.SaveSettings()
}

// OpenFirst opens the scene named on the command line ("" a new scene). A big one is only set up for (returned as
// later): it opens inside the window, with its progress, once the window exists (openInBackground); a smaller one
// that does not load is an error here.
func (w *Workspace) OpenFirst(path string) (later string, err error) {
	popts, pst := loadProject(w.docOpts, path)
	switch {
	case path != "" && bigFile(path):
		// A big scene opens in the window: it shows at once, with the progress, while a job parses the file
		// (and reads the project file next to it again).
		w.useProject(popts, pst)
		w.SetDoc(doc.New("", w.docOpts))
		return path, nil
	case path != "":
		d, err := doc.Open(context.Background(), path, popts, nil)
		if err != nil {
			return "", loadError(path, err)
		}
		w.useProject(popts, pst)
		w.SetDoc(d)
		w.settings.AddRecent(path)
		w.SaveSettings()
	default:
		w.useProject(popts, pst)
		w.SetDoc(doc.New("", w.docOpts))
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
func (w *Workspace) openPath(path string) { w.openInBackground(path, w.jobs.beginMark("open"), false) }

// OpenAtLaunch opens the big scene named on the command line (OpenFirst left it for later) in the background,
// its progress shown from the first frame; its timing mark starts at the launch. The hash of the file's bytes (for
// the session journal) waits for windowUp to be closed, and until then the load keeps to about one core
// (doc.Options.Alternate; nil: it does not wait): the window opens meanwhile.
func (w *Workspace) OpenAtLaunch(path string, launched time.Time, windowUp <-chan struct{}) {
	w.windowUp = windowUp
	w.openInBackground(path, &Mark{Mark: probe.Mark{What: "open", Input: launched.UnixNano()}}, true)
}

// openInBackground parses the file and builds a new document on a background goroutine — touching nothing of the
// open one, which stays usable — with the progress (bytes read) in the overlay, then swaps it in on the loop.
// If the open scene was changed meanwhile, the usual Save / Don't Save / Cancel question comes first. immediate
// shows the progress from the first frame (a big scene named on the command line).
func (w *Workspace) openInBackground(path string, m *Mark, immediate bool) {
	var nd *doc.Document
	base := w.baseDocOptions()
	var popts doc.Options
	var pst projectState
	seen := &maphash.Hash{} // the file as the watcher hashes it, by the load (not read again on the loop thread)
	seen.SetSeed(w.watcher.seed)
	var whole bool
	w.jobs.Start("Opening "+filepath.Base(path), func(ctx context.Context, progress func(done, total int64)) error {
		popts, pst = loadProject(base, path) // the components of the project file next to the scene
		if immediate {
			popts.Alternate = w.windowUp
		}
		d, ok, err := doc.OpenSeen(ctx, path, popts, progress, seen)
		nd, whole = d, ok
		return err
	}, func(err error) {
		if err != nil {
			w.reportLoadError(path, err)
			if errors.Is(err, os.ErrNotExist) {
				w.settings.RemoveRecent(path)
				w.SaveSettings()
			}
			return
		}
		w.confirmDiscard("open "+filepath.Base(path), func() {
			w.useProject(popts, pst)
			if whole {
				w.watcher.addKnown(path, seen.Sum64())
			}
			w.SetDoc(nd)
			w.settings.AddRecent(path)
			w.SaveSettings()
		})
	}, JobOptions{Applies: true, Mark: m, Immediate: immediate, Wait: func() string {
		if immediate && w.clock.Frames < 2 {
			return "showing the window first" // the first frame, with the progress, is presented before the scene
		}
		return ""
	}})
}

// reportLoadError puts every problem of a failed load in the console and says so in a dialog.
func (w *Workspace) reportLoadError(path string, err error) {
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
	w.ui.Alert("Cannot open scene", msg)
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

// CmdSave saves the scene (asking for a file name if it has none).
func (w *Workspace) CmdSave() {
	if w.live.Attached() {
		w.live.CmdSnapshot() // the game's world is not a file
		return
	}
	w.saveThen(nil)
}

// CmdSaveAs asks for a file name and saves the scene there.
func (w *Workspace) CmdSaveAs() {
	if w.live.Attached() {
		w.live.CmdSnapshot()
		return
	}
	w.saveAsThen(nil, nil)
}

// saveAsThen asks for a file name and saves there; then runs after a successful save, cancelled when there is
// none (the dialog closed, the save failed or was cancelled).
func (w *Workspace) saveAsThen(then, cancelled func()) {
	name := fileNameFor(w.doc.SceneName())
	if w.doc.Path() != "" {
		name = filepath.Base(w.doc.Path())
	}
	w.ui.ChooseFile(FileRequest{Save: true, Title: "Save Scene As", Dir: w.dialogDir(), Name: name, Exts: []string{".json"},
		OnChoose: func(p string) { w.save(p, then, cancelled) }, OnCancel: cancelled})
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
func (w *Workspace) saveThen(then func()) { w.saveOr(then, nil) }

// saveOr is saveThen that runs cancelled when the scene was not saved.
func (w *Workspace) saveOr(then, cancelled func()) {
	if w.doc.Path() == "" {
		w.saveAsThen(then, cancelled)
		return
	}
	w.save(w.doc.Path(), then, cancelled)
}

// save writes the scene (with the document's camera) atomically to path; big scenes save in the background with
// a progress bar. The file watcher is told, so the editor's own save is not reported as an outside change. then
// runs after a successful save, cancelled (if not nil) after a failed or cancelled one.
func (w *Workspace) save(path string, then, cancelled func()) {
	done := func(err error) {
		w.watcher.resume() // after a Save As this also follows the new path
		if err != nil {
			if errors.Is(err, context.Canceled) {
				w.log.Infof("save cancelled; %s was not changed", path)
			} else {
				w.log.Errorf("saving %s: %v", path, err)
				w.ui.Alert("Save failed", "Could not save "+path+":\n\n"+errText(path, err)+"\n\nThe file on disk was not changed.")
			}
			if cancelled != nil {
				cancelled()
			}
			return
		}
		w.log.Infof("saved %s", path)
		w.journals.follow()
		w.settings.AddRecent(path)
		w.SaveSettings()
		if then != nil {
			then()
		}
	}
	w.watcher.pause(path)
	if w.doc.Len() < JobThreshold {
		done(w.doc.SaveAs(context.Background(), path, nil))
		return
	}
	j := w.doc.PrepareSave(path)
	sum := w.watcher.contentHash() // what the job writes is known to the watcher without reading it back
	if sum != nil {
		j.Also = sum
	}
	d := w.doc
	if !w.jobs.Start("Saving "+filepath.Base(path), func(ctx context.Context, progress func(done, total int64)) error {
		return j.Run(ctx, progress)
	}, func(err error) {
		if w.doc == d {
			w.doc.Finish(j, err)
		}
		if err == nil && sum != nil {
			w.watcher.addKnown(path, sum.Sum64())
		}
		done(err)
	}, JobOptions{}) {
		d.Finish(j, errNotStarted) // gives the world back to the document
		w.watcher.resume()
		if cancelled != nil {
			cancelled()
		}
	}
}

// errNotStarted is the outcome of a save whose job could not start (another job runs).
var errNotStarted = errors.New("another job runs")

// CmdExport asks for a file name and writes the game export there.
func (w *Workspace) CmdExport() {
	name := strings.TrimSuffix(fileNameFor(w.doc.SceneName()), ".json") + ".export.json"
	if p := w.doc.Path(); p != "" {
		name = strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)) + ".export.json"
	}
	w.ui.ChooseFile(FileRequest{Save: true, Title: "Export for Game", Dir: w.dialogDir(), Name: name, OKLabel: "Export",
		Exts: []string{".json"}, OnChoose: w.export})
}

// export writes the game export (world matrices baked, editor data stripped) atomically.
func (w *Workspace) export(path string) {
	j := w.doc.PrepareExport(path)
	finish := func(err error) {
		if err != nil {
			w.log.Errorf("export to %s: %v", path, err)
			w.ui.Alert("Export failed", "Could not export to "+path+":\n\n"+errText(path, err))
			return
		}
		w.log.Infof("exported %s to %s", words.Count(w.doc.Len(), "entity", "entities"), path)
		w.settings.AddPlace(filepath.Dir(path))
	}
	if w.doc.Len() < JobThreshold {
		finish(j.Run(context.Background(), nil))
		return
	}
	w.jobs.Start("Exporting "+filepath.Base(path), func(ctx context.Context, progress func(done, total int64)) error {
		return j.Run(ctx, progress)
	}, finish, JobOptions{})
}
