package workspace

import (
	"fmt"
	"hash/maphash"
	"image"
	"path/filepath"
	"time"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/merge"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/snap"
)

// Workspace is the open scene and everything that acts on it as a whole: the document, its project file, the
// asset registry, the settings, the file watcher, background jobs, and the editor's commands (New, Open, Save,
// Undo, Play… — the action table runs them) with their flows (the unsaved-changes question, quitting, outside
// edits). It draws nothing and imports no ImGui (internal/archtest): what it needs of the window goes through UI,
// which package editor implements by handing each request to the panel or dialog that owns it, and tests fake.
//
// Its separable areas are types of their own that it composes, as the document composes its Selection and
// History: Live, the connection to a running game; Prefabs, the prefab workflow; Watcher, the open scene's files
// on disk; Journals, the session journals.
//
// Panels never see the workspace whole: each gets the narrow interfaces it uses (a command set, the document).
type Workspace struct {
	opts Options
	// windowUp keeps the launch's open to about one core until the window is up (OpenAtLaunch).
	windowUp <-chan struct{}
	doc      *doc.Document
	docOpts  doc.Options
	project  projectState // the project file of the open scene (project.go)
	assets   *assets.Registry
	settings *settings.Settings
	setw     *settingsWriter // writes the settings file beside the loop
	log      Logger
	ui       UI
	jobs     *Jobs
	clock    *Clock

	gridValues *settings.Grid // the grid dialog's values when it was last closed
	closing    bool           // the user chose to quit: the next close request closes
	lastTick   time.Time      // play mode's clock
	thumbs     *thumbnails    // the Assets panel's pictures (thumbs.go)

	// The areas of their own, each pointing back at the workspace (New wires them).
	prefabs  Prefabs  // the prefab workflow (prefabs.go)
	watcher  Watcher  // the open scene's files on disk (watch.go)
	journals Journals // the session journals (journal.go, journals.go)
	live     Live     // the connection to a game the workspace is attached to (live.go)

}

// Options configure a workspace.
type Options struct {
	// NewWorld, if set, makes the worlds of every scene (it must call scene.Register) — to add component types
	// of a game or of tests.
	NewWorld func() *ecs.World
	// Systems, if set, make the play-mode systems (doc.Options.Systems; default scene.SpinSystem).
	Systems []func(*ecs.World) ecs.System
	// JobStepDelay, if set, pauses background jobs this long after each progress step (e2e tests only).
	JobStepDelay time.Duration
	// Wake wakes the GUI loop from another goroutine (a job's progress or result, a file event); nil: nothing
	// to wake.
	Wake func()
}

// Logger is where the workspace and the panels say what happened (the Console).
type Logger interface {
	Infof(format string, args ...any)
	Warnf(format string, args ...any)
	Errorf(format string, args ...any)
}

// UI is the workspace's view of the window: the dialogs its commands open, the panels they steer and the
// window itself. Package editor implements it (wiring.go); tests use a fake.
type UI interface {
	// Ask shows a modal question; onChoose gets the index of the button pressed (cancel: the one Escape presses).
	Ask(title, message string, cancel int, onChoose func(int), buttons ...string)
	// Alert tells the user something that needs no decision: a message with OK.
	Alert(title, message string)
	// ChooseFile shows a file dialog.
	ChooseFile(req FileRequest)
	// OpenGridDialog opens Spawn Cube Grid with values, or gives it the keyboard if it is open.
	OpenGridDialog(values settings.Grid)
	// AskKeepPlayChanges asks which changes made while playing to keep (keepUser: the user's own edits start
	// checked); keep gets the chosen ones (none: discard all).
	AskKeepPlayChanges(ch *doc.PlayChanges, keepUser bool, keep func([]doc.PlayChange))
	// ShowDiff shows a semantic diff in the Differences window, with the request's buttons.
	ShowDiff(req DiffRequest)
	// DocChanged points every panel at a new document (frame: show its whole scene, it has no saved camera).
	DocChanged(d *doc.Document, frame bool)
	// WorldReplaced tells the panels that the document's world is another (reload, play, a new project file).
	WorldReplaced()
	// Show reveals e in the hierarchy and scrolls to it.
	Show(e ecs.Entity)
	// Reveal expands e's parents in the hierarchy so that it has a row.
	Reveal(e ecs.Entity)
	// The viewport: the preview a spawn keeps until its cubes are in, meshes, its version.
	KeepPreview(list *viewport.DrawList)
	DropPreview(list *viewport.DrawList)
	AdoptPreview(list *viewport.DrawList, cubes []ecs.Entity)
	ReloadMeshes()
	SceneVersion() uint64
	// SceneBounds is the box of what the viewport draws of the scene (empty when it draws nothing).
	SceneBounds() viewport.AABB
	// SurfaceAhead is the surface the ray through the middle of the view meets among the scene's meshes, if it
	// does: the point and its normal.
	SurfaceAhead() (snap.SurfaceHit, bool)
	// The window: closing, the clipboard.
	Close()
	Clipboard() string
	SetClipboard(text string)
}

// DiffRequest is a semantic diff to show (UI.ShowDiff): its changes in a table, grouped by entity, and the buttons
// to answer with.
type DiffRequest struct {
	Title string // the window's title; the counts follow it
	Intro string // what the two sides are
	// Left and Right name the value columns (the old side, the new side).
	Left, Right string
	Changes     []merge.Change
	Text        string // the whole diff as `voltex-editor diff` prints it (Copy as text)
	// Buttons are the answers, the first the default (Enter); OnChoose gets the index of the one pressed, Cancel
	// the one Escape presses. No buttons: a Close button.
	Buttons  []string
	Cancel   int
	OnChoose func(int)
	// Select selects the entity with scene id id in the open scene, when it has one.
	Select func(id int64)
}

// FileRequest is a file dialog to show: OnChoose gets the confirmed path; OnCancel (optional) runs when the user
// closes the dialog without one.
type FileRequest struct {
	Save       bool
	Title, Dir string
	Name       string // the file name field's initial text
	OKLabel    string // the confirm button ("" = Open or Save)
	Exts       []string
	OnChoose   func(path string)
	OnCancel   func()
}

// Clock counts the frames of the loop and when the current one began (for the probe's timing marks); the loop
// advances it. Presented is when the last frame was on the screen (its buffers swapped; zero when the loop does not
// say): what the loop does after that and before the next frame (a picture drawn between frames, an idle wait) is
// not part of what a mark waited for.
type Clock struct {
	Frames    uint64
	Start     time.Time
	Presented time.Time
}

// shown returns when the last frame was on the screen, as known at the start of the current one.
func (c *Clock) shown() int64 {
	if !c.Presented.IsZero() && c.Presented.Before(c.Start) {
		return c.Presented.UnixNano()
	}
	return c.Start.UnixNano()
}

// New makes a workspace with no document yet (OpenFirst opens one); log and clock are shared with the window.
func New(opts Options, st *settings.Settings, log Logger, clock *Clock) *Workspace {
	w := &Workspace{
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
	w.live.w, w.prefabs.w, w.watcher.w, w.journals.w = w, w, w, w
	w.watcher.seed = maphash.MakeSeed()
	w.jobs = newJobs(log, clock, opts.JobStepDelay, opts.Wake)
	w.setw = newSettingsWriter(opts.Wake)
	w.thumbs = &thumbnails{wake: opts.Wake, held: true,
		make: func(src thumbSource) (*image.RGBA, error) { return renderThumbnail(src, opts.NewWorld) }}
	return w
}

// SetUI connects the workspace to its window.
func (w *Workspace) SetUI(ui UI) { w.ui = ui }

// Doc is the open document.
func (w *Workspace) Doc() *doc.Document { return w.doc }

// Settings are the editor's persisted preferences.
func (w *Workspace) Settings() *settings.Settings { return w.settings }

// Assets is the asset registry of the open scene's folder.
func (w *Workspace) Assets() *assets.Registry { return w.assets }

// Jobs runs the background jobs and keeps the probe's timing marks.
func (w *Workspace) Jobs() *Jobs { return w.jobs }

// Live is the connection to a running game the workspace is attached to.
func (w *Workspace) Live() *Live { return &w.live }

// Prefabs is the prefab workflow: placing, saving and updating prefab instances, the prefab files to list.
func (w *Workspace) Prefabs() *Prefabs { return &w.prefabs }

// Watcher follows the open scene's files on disk (Watcher.Start starts it once the window is up).
func (w *Workspace) Watcher() *Watcher { return &w.watcher }

// Journals are the session journals: the open scene's, and other scenes' unsaved work offered at the start.
func (w *Workspace) Journals() *Journals { return &w.journals }

// Close stops watching files and saves the settings (the window has closed).
func (w *Workspace) Close() {
	w.watcher.close()
	w.journals.close()
	w.live.Detach()
	w.SaveSettings()
	w.FlushSettings()
}

// FlushSettings waits for the settings writes asked for so far (SaveSettings); a failure is a warning in the console.
func (w *Workspace) FlushSettings() {
	if err := w.setw.flush(); err != nil {
		w.log.Warnf("saving settings: %v", err)
	}
}

// SetDoc makes d the open document: the panels, the asset folder and the watched files follow it.
func (w *Workspace) SetDoc(d *doc.Document) {
	if j := w.jobs.job; j != nil && j.applies {
		j.cancel() // its result was for the scene being closed
	}
	if w.doc != d {
		w.journals.close() // the scene closes: its work was saved or discarded on purpose
	}
	if w.live.Attached() && !d.Attached() {
		w.live.drop() // another scene replaces the game's world
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
	w.prefabs.files.forget()
	if w.ui != nil {
		w.ui.DocChanged(d, !d.CameraInFile() && d.Len() > 0)
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
	w.watcher.sync()
	w.journals.start(d)
}

// revealConflicts gives every entity with merge conflicts a row in the hierarchy (its [!] would be hidden under
// collapsed parents).
func (w *Workspace) revealConflicts(d *doc.Document) {
	if w.ui == nil {
		return
	}
	for _, c := range d.Conflicts().List() {
		if e, ok := d.Entity(c.Entity); ok && c.Entity != 0 {
			w.ui.Reveal(e)
		}
	}
}

// SaveSettings writes the settings beside the loop (settingsWriter); a failure is a warning in the console at the
// next frame. Close waits for the writes.
func (w *Workspace) SaveSettings() {
	data, err := w.settings.Encode()
	if err != nil {
		w.log.Warnf("saving settings: %v", err)
		return
	}
	w.setw.write(w.settings.Path(), data)
}

// SettingsWriting reports whether the settings file is being written (SaveSettings writes it beside the loop).
func (w *Workspace) SettingsWriting() bool { return w.setw.writing() }

// WindowTitle is "Voltex Editor — <file name>" ("Untitled" for a scene never saved), with a leading * while there
// are unsaved changes.
func (w *Workspace) WindowTitle() string {
	t := "Voltex Editor — " + w.docLabel()
	if w.doc.Dirty() {
		t = "*" + t
	}
	return t
}

// docLabel names the open scene as a user knows it: its file name, or "Untitled" before it is first saved.
func (w *Workspace) docLabel() string {
	if p := w.doc.Path(); p != "" {
		return filepath.Base(p)
	}
	return w.doc.SceneName()
}

// StatusText is the status bar's line: where the scene is and whether it is saved, counts, speed, renders, mode.
func (w *Workspace) StatusText(fps float32, renders uint64) string {
	var state string
	switch path := w.doc.Path(); {
	case w.live.Attached():
		state = w.live.StatusText()
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
		mode += "  |  " + j.StatusText()
	}
	return fmt.Sprintf("%s  |  %s  |  %d selected  |  %.0f FPS  |  %s%s", state, words.Count(w.doc.Len(), "entity", "entities"),
		w.doc.Selection().Len(), fps, words.Count(int(renders), "viewport render", "viewport renders"), mode)
}

// BeginFrame runs what the loop does at the start of a frame, before any panel is built: background results are
// merged (jobs, file events) and play mode advances.
func (w *Workspace) BeginFrame() {
	if err := w.setw.takeErr(); err != nil {
		w.log.Warnf("saving settings: %v", err)
	}
	w.jobs.presentMarks()
	w.jobs.poll()
	w.watcher.poll()
	w.tickPlay()
	w.live.poll()
	w.noteHistoryDrops()
}

// noteHistoryDrops says in the console when the undo history dropped its oldest steps to stay
// within its memory budget (settings' undoMemoryMB).
func (w *Workspace) noteHistoryDrops() {
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

// Busy reports whether the workspace needs frames without input: play mode running, a job's result or mark
// waiting.
func (w *Workspace) Busy() bool {
	return (w.doc.PlayMode().Playing() && !w.doc.PlayMode().Paused()) || w.jobs.busy()
}

// tickPlay advances play mode by the real time since the last frame.
func (w *Workspace) tickPlay() {
	if !w.doc.PlayMode().Playing() || w.doc.PlayMode().Paused() {
		return
	}
	now := time.Now()
	dt := float32(now.Sub(w.lastTick).Seconds())
	w.lastTick = now
	w.doc.PlayMode().Tick(min(dt, 0.1))
}
