package editor

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/assets/watch"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/viewport"
)

// workspace is the open scene and everything that acts on it as a whole: the document, its project file, the
// asset registry, the settings, the file watcher, background jobs, and the editor's commands (New, Open, Save,
// Undo, Play… — the action table runs them) with their flows (the unsaved-changes question, quitting, outside
// edits). It draws nothing and imports no ImGui (TestWorkspaceFilesImportNoImGui): what it needs of the window goes
// through ui, which App implements by handing each request to the panel or dialog that owns it, and tests fake.
//
// Panels never see the workspace whole: each gets the narrow interfaces it uses (a command set, the document).
type workspace struct {
	opts     Options
	doc      *doc.Document
	docOpts  doc.Options
	project  projectState // the project file of the open scene (project.go)
	assets   *assets.Registry
	settings *settings.Settings
	log      *Console
	ui       ui
	jobs     *jobRunner
	clock    *frameClock

	gridValues *settings.Grid // the grid dialog's values when it was last closed
	closing    bool           // the user chose to quit: the next close request closes
	lastTick   time.Time      // play mode's clock
	prefabs    prefabFiles    // the scene files listed as prefabs (prefab.go)

	watcher   *watch.Watcher
	watched   []string
	saving    string // the file a save is writing, left out of the watched set until it is done (pauseWatch)
	watchedAt uint64 // viewport draw-list version the watched set was last synced at
}

// ui is the workspace's view of the window: the dialogs its commands open, the panels they steer and the
// window itself. App implements it (wiring.go); tests use a fake.
type ui interface {
	// ask shows a modal question; onChoose gets the index of the button pressed (cancel: the one Escape presses).
	ask(title, message string, cancel int, onChoose func(int), buttons ...string)
	// alert tells the user something that needs no decision: a message with OK.
	alert(title, message string)
	// chooseFile shows a file dialog.
	chooseFile(req fileRequest)
	// openGridDialog opens Spawn Cube Grid with values, or gives it the keyboard if it is open.
	openGridDialog(values settings.Grid)
	// docChanged points every panel at a new document (frame: show its whole scene, it has no saved camera).
	docChanged(d *doc.Document, frame bool)
	// worldReplaced tells the panels that the document's world is another (reload, play, a new project file).
	worldReplaced()
	// show reveals e in the hierarchy and scrolls to it.
	show(e ecs.Entity)
	// reveal expands e's parents in the hierarchy so that it has a row.
	reveal(e ecs.Entity)
	// startRename starts renaming the active entity in the hierarchy.
	startRename()
	// The viewport: gizmo, framing, stats, the preview a spawn keeps until its cubes are in, meshes, its version.
	setGizmo(op gizmoOp)
	toggleGizmoSpace()
	frameSelection()
	toggleStats() bool
	keepPreview(list *viewport.DrawList)
	dropPreview(list *viewport.DrawList)
	adoptPreview(list *viewport.DrawList, cubes []ecs.Entity)
	reloadMeshes()
	sceneVersion() uint64
	// sceneBounds is the box of what the viewport draws of the scene (empty when it draws nothing).
	sceneBounds() viewport.AABB
	// The window: layout, help windows, closing, the clipboard.
	resetLayout()
	toggleShortcuts()
	showAbout()
	close()
	clipboard() string
	setClipboard(text string)
}

// fileRequest is a file dialog to show: onChoose gets the confirmed path; onCancel (optional) runs when the user
// closes the dialog without one.
type fileRequest struct {
	save       bool
	title, dir string
	name       string // the file name field's initial text
	okLabel    string // the confirm button ("" = Open or Save)
	exts       []string
	onChoose   func(path string)
	onCancel   func()
}

// frameClock counts the frames of the loop and when the current one began (for the probe's timing marks).
type frameClock struct {
	frames uint64
	start  time.Time
}

func newWorkspace(opts Options, st *settings.Settings, log *Console, clock *frameClock) *workspace {
	w := &workspace{
		opts:     opts,
		docOpts:  doc.Options{NewWorld: opts.NewWorld, Systems: opts.Systems},
		assets:   assets.NewRegistry(".", assets.DefaultLimits()),
		settings: st,
		log:      log,
		clock:    clock,
	}
	if st != nil {
		w.docOpts.MaxHistoryBytes = st.UndoMemoryMB << 20 // 0: the default
	}
	w.jobs = newJobRunner(log, clock, opts.JobStepDelay)
	return w
}

// setDoc makes d the open document: the panels, the asset folder and the watched files follow it.
func (w *workspace) setDoc(d *doc.Document) {
	if j := w.jobs.job; j != nil && j.applies {
		j.cancel() // its result was for the scene being closed
	}
	w.doc = d
	root := "."
	if d.Path() != "" {
		root = filepath.Dir(d.Path())
	}
	if w.assets.Root() != root {
		w.assets.SetRoot(root)
	}
	_ = w.assets.Scan() // best effort: the Assets panel lists the folder's models
	w.prefabs.forget()
	if w.ui != nil {
		w.ui.docChanged(d, !d.CameraInFile() && d.Len() > 0)
	}
	if d.Path() != "" {
		w.log.Infof("opened %s: %s", d.Path(), words.Count(d.Len(), "entity", "entities"))
	}
	for _, p := range d.Warnings() {
		w.log.Warnf("%s", p)
	}
	reportConflicts(d, w.log)
	w.revealConflicts(d)
	for _, p := range d.Prefabs().Broken() { // prefab instances left as placeholders
		w.log.Errorf("%s", p.String())
	}
	w.syncWatched()
}

// revealConflicts gives every entity with merge conflicts a row in the hierarchy (its [!] would be hidden under
// collapsed parents).
func (w *workspace) revealConflicts(d *doc.Document) {
	if w.ui == nil {
		return
	}
	for _, c := range d.Conflicts().List() {
		if e, ok := d.Entity(c.Entity); ok && c.Entity != 0 {
			w.ui.reveal(e)
		}
	}
}

func (w *workspace) saveSettings() {
	if err := w.settings.Save(); err != nil {
		w.log.Warnf("saving settings: %v", err)
	}
}

// windowTitle is "Voltex Editor — <file name>" ("Untitled" for a scene never saved), with a leading * while there
// are unsaved changes.
func (w *workspace) windowTitle() string {
	t := "Voltex Editor — " + w.docLabel()
	if w.doc.Dirty() {
		t = "*" + t
	}
	return t
}

// docLabel names the open scene as a user knows it: its file name, or "Untitled" before it is first saved.
func (w *workspace) docLabel() string {
	if p := w.doc.Path(); p != "" {
		return filepath.Base(p)
	}
	return w.doc.SceneName()
}

// statusText is the status bar's line: where the scene is and whether it is saved, counts, speed, renders, mode.
func (w *workspace) statusText(fps float32, renders uint64) string {
	var state string
	switch path := registerText(w.doc.Path()); {
	case path == "" && w.doc.Dirty():
		state = "new scene, not saved yet"
	case path == "":
		state = "new scene"
	case w.doc.Dirty():
		state = path + "  |  modified"
	default:
		state = path + "  |  saved"
	}
	mode := ""
	if w.doc.PlayMode().Playing() {
		mode = "  |  PLAYING"
		if w.doc.PlayMode().Paused() {
			mode = "  |  PAUSED"
		}
	}
	if j := w.jobs.job; j != nil {
		mode += "  |  " + j.statusText()
	}
	return fmt.Sprintf("%s  |  %s  |  %d selected  |  %.0f FPS  |  %s%s", state, words.Count(w.doc.Len(), "entity", "entities"),
		w.doc.Selection().Len(), fps, words.Count(int(renders), "viewport render", "viewport renders"), mode)
}

// beginFrame runs what the loop does at the start of a frame, before any panel is built: background results are
// merged (jobs, file events) and play mode advances.
func (w *workspace) beginFrame() {
	w.jobs.presentMarks()
	w.jobs.poll()
	w.pollWatcher()
	w.tickPlay()
	w.noteHistoryDrops()
}

// noteHistoryDrops says in the console when the undo history dropped its oldest steps to stay
// within its memory budget (settings' undoMemoryMB).
func (w *workspace) noteHistoryDrops() {
	n, bytes := w.doc.History().TakeDropped()
	if n == 0 {
		return
	}
	budget := w.docOpts.MaxHistoryBytes
	if budget == 0 {
		budget = doc.DefaultMaxHistoryBytes
	}
	w.log.Warnf("undo history: %s dropped (the oldest, %s) to stay within its memory budget of %s (settings: undoMemoryMB)",
		words.Count(n, "step", "steps"), mib(bytes), mib(budget))
}

// mib formats a memory size in MiB ("140 MiB"), or KiB below 1 MiB ("3 KiB").
func mib(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KiB", (n+1023)/1024)
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}

// busy reports whether the workspace needs frames without input: play mode running, a job's result or mark
// waiting.
func (w *workspace) busy() bool {
	return (w.doc.PlayMode().Playing() && !w.doc.PlayMode().Paused()) || w.jobs.busy()
}

// tickPlay advances play mode by the real time since the last frame.
func (w *workspace) tickPlay() {
	if !w.doc.PlayMode().Playing() || w.doc.PlayMode().Paused() {
		return
	}
	now := time.Now()
	dt := float32(now.Sub(w.lastTick).Seconds())
	w.lastTick = now
	w.doc.PlayMode().Tick(min(dt, 0.1))
}
