package workspace

import (
	"context"
	"fmt"
	"github.com/voltex-editor/voltex/internal/words"
	"os"
	"path/filepath"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/project"
)

// projectState is the project file the open scene uses (voltex.project.json next to it or in a folder
// above): the components it declares are registered in every world the document makes.
type projectState struct {
	path       string // absolute; "" when the scene has none
	shown      string // as messages name it (relative to the working folder when the scene's path is)
	components int    // declared components (0 when broken)
	// problems are those of a broken project file (then only the built-in and the game's Go components
	// are registered); nil when it is fine.
	problems []serialize.Problem
	// kept is set when a change of the file was refused (values would have been lost): the
	// components stay as they were until the scene is opened again.
	kept bool
	// status and bad are the status bar's text, made for statusFor.
	status    string
	bad       bool
	statusFor statusKey
}

// loadProject finds and reads the project file of a scene at scenePath ("" for a new scene: the open
// scene's folder, else the working folder) and returns the document options for it. It touches
// nothing shared, so it may run in a background job; a broken project file gives options with only the
// base components and its problems in the state.
func loadProject(base doc.Options, scenePath string) (doc.Options, projectState) {
	dir := "."
	if scenePath != "" {
		dir = filepath.Dir(scenePath)
	}
	var st projectState
	found, err := project.Find(dir)
	if err != nil || found == "" {
		return base, st
	}
	st.shown = found
	if st.path, err = filepath.Abs(found); err != nil {
		return base, projectState{}
	}
	p, err := project.Load(found)
	if err == nil {
		mk, err2 := p.NewWorld(base.NewWorld)
		if err = err2; err == nil {
			opts := base
			opts.NewWorld = mk
			st.components = len(p.Components)
			return opts, st
		}
	}
	st.problems = serialize.ProblemsOf(err)
	if len(st.problems) == 1 && st.problems[0].File == "" {
		st.problems[0].File = found
	}
	return base, st
}

// useProject makes st the project of the open document and says what happened in the console (and,
// for a broken project file, in a dialog).
func (w *Workspace) useProject(opts doc.Options, st projectState) {
	changed := st.path != w.project.path
	w.docOpts = opts
	w.project = st
	if len(st.problems) > 0 {
		w.reportProject()
		return
	}
	if changed && st.path != "" {
		w.log.Infof("project file %s: %s", st.shown, words.Count(st.components, "component", "components"))
	}
}

// reportProject lists a broken project file's problems in the console and in a dialog.
func (w *Workspace) reportProject() {
	st := w.project
	for _, p := range st.problems {
		w.log.Errorf("%s", p)
	}
	msg := fmt.Sprintf("The project file %s has problems:\n\n", st.shown)
	msg += problemLines(st.problems, serialize.Problem.String)
	msg += "\nOnly the " + w.baseComponents() + " are registered: the scene's other components are kept as they are\n" +
		"(read-only) and written back unchanged. Fix the file and save it: the editor picks it up."
	w.ui.Alert("Project file has problems", msg)
}

// ProjectStatus is the project's part of the status bar, and whether it is a problem. The text is made when the
// state changes, not every frame.
func (w *Workspace) ProjectStatus() (string, bool) {
	st := &w.project
	key := statusKey{st.path, len(st.problems) > 0, st.kept, st.components}
	if st.statusFor != key {
		st.statusFor = key
		switch {
		case st.path == "":
			st.status, st.bad = "", false
		case len(st.problems) > 0:
			st.status, st.bad = fmt.Sprintf("%s has problems: %s only (see Console)", filepath.Base(st.path), w.baseComponents()), true
		case st.kept:
			st.status, st.bad = fmt.Sprintf("%s changed: components kept as they were (reopen the scene to use it)", filepath.Base(st.path)), true
		default:
			st.status, st.bad = fmt.Sprintf("%s: %s", filepath.Base(st.path), words.Count(st.components, "component", "components")), false
		}
	}
	return st.status, st.bad
}

// baseComponents names the components registered without a project file: the built-in ones, and a game's
// own editor's Go ones.
func (w *Workspace) baseComponents() string {
	if w.opts.NewWorld != nil {
		return "built-in and Go components"
	}
	return "built-in components"
}

// statusKey is what the status text of a projectState depends on.
type statusKey struct {
	path         string
	broken, kept bool
	components   int
}

func (w *Workspace) isProjectPath(p string) bool {
	return p != "" && (p == w.project.path || p == w.projectCandidate())
}

// projectCandidate is where a project file of the open scene would appear: voltex.project.json in the scene's
// folder, watched while the scene has none, so that one written while the editor runs is picked up ("" when the
// scene has a project file or no path).
func (w *Workspace) projectCandidate() string {
	if w.project.path != "" || w.doc.Path() == "" {
		return ""
	}
	abs, err := filepath.Abs(filepath.Join(filepath.Dir(w.doc.Path()), project.FileName))
	if err != nil {
		return ""
	}
	return abs
}

// onProjectFileEvent follows edits of the project file: the new declarations are read and the open
// scene moves to them (doc.Retype: renames move values over, new fields take their defaults). If that
// would lose values (a field removed, a type changed, an enum value gone), it asks first; a broken file
// is reported and the components stay as they were.
func (w *Workspace) onProjectFileEvent() {
	if w.project.path == "" { // a project file written next to a scene that had none
		if _, err := os.Stat(w.projectCandidate()); err != nil {
			return
		}
	} else if _, err := os.Stat(w.project.path); err != nil {
		w.log.Warnf("project file %s is gone; the components stay as they are until the scene is opened again", w.project.shown)
		return
	}
	if w.doc.PlayMode().Playing() {
		w.doc.PlayMode().Stop()
		w.log.Infof("play mode stopped: the project file changed")
	}
	opts, st := loadProject(w.baseDocOptions(), w.doc.Path())
	if len(st.problems) > 0 {
		for _, p := range st.problems {
			w.log.Errorf("%s", p)
		}
		w.log.Warnf("project file %s has problems: the components stay as they were", st.shown)
		return
	}
	warnings, err := w.doc.Retype(context.Background(), opts, false)
	if err == nil {
		w.afterRetype(opts, st, warnings)
		return
	}
	probs := serialize.ProblemsOf(err)
	fit := "values of the open scene no longer fit their components"
	if len(probs) == 1 {
		fit = "value of the open scene no longer fits its component"
	}
	msg := fmt.Sprintf("After the change of %s, %d %s:\n\n", filepath.Base(st.path), len(probs), fit)
	msg += problemLines(probs, serialize.Problem.String)
	for _, p := range probs {
		w.log.Warnf("%s", p)
	}
	msg += "\nKeep leaves the components as they were until the scene is opened again.\n" +
		"Apply drops these values (the file on disk keeps them until you save)."
	w.ui.Ask("Project file changed", msg, 0, func(i int) {
		if i != 1 {
			w.project.kept = true
			w.log.Warnf("kept the components as they were; %s is not in use until the scene is opened again", st.shown)
			return
		}
		warnings, err := w.doc.Retype(context.Background(), opts, true)
		if err != nil {
			for _, p := range serialize.ProblemsOf(err) {
				w.log.Errorf("%s", p)
			}
			return
		}
		w.afterRetype(opts, st, warnings)
	}, "Keep", "Apply and drop them")
}

// afterRetype points the panels at the document's new world.
func (w *Workspace) afterRetype(opts doc.Options, st projectState, warnings []serialize.Problem) {
	w.useProject(opts, st)
	w.ui.WorldReplaced()
	for _, p := range warnings {
		w.log.Warnf("%s", p)
	}
	w.log.Infof("project file %s changed: %s registered again, scene checked (undo history cleared)",
		filepath.Base(st.path), words.Count(st.components, "component", "components"))
}

// baseDocOptions are the document options without any project file: the built-in and the game's Go
// components.
func (w *Workspace) baseDocOptions() doc.Options {
	o := w.docOpts
	o.NewWorld = w.opts.NewWorld
	return o
}
