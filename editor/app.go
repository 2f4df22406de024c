package editor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/assets/watch"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/internal/glfwwait"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/inspector"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/glrender"
)

// Options configure an editor window.
type Options struct {
	// ScenePath is the scene file to open; empty opens a new, unsaved scene.
	ScenePath string
	// Width and Height are the initial window size in pixels (defaults 1600×1000).
	Width, Height int
	// SettingsDir holds persisted settings (recent files); empty means settings.DefaultDir().
	SettingsDir string
	// JobStepDelay, if set, pauses background jobs this long after each progress step (between chunks of their
	// work), so that end-to-end tests can act while a job runs; only the e2e build sets it (--test-job-delay).
	JobStepDelay time.Duration
	// NewWorld, if set, makes the worlds of every scene (it must call scene.Register) — to add component types
	// of a game or of tests (--test-components).
	NewWorld func() *ecs.World
	// Systems, if set, make the play-mode systems (doc.Options.Systems; default scene.SpinSystem).
	Systems []func(*ecs.World) ecs.System
}

// Panel window names. They double as ImGui window IDs, so they are stable strings.
const (
	panelHierarchy = "Hierarchy"
	panelViewport  = "Viewport"
	panelInspector = "Inspector"
	panelAssets    = "Assets"
	panelConsole   = "Console"
)

var panelNames = []string{panelHierarchy, panelViewport, panelInspector, panelAssets, panelConsole}

const (
	targetFPS     = 60
	idleAfter     = 1500 * time.Millisecond // tooltips and hover effects settle within this
	idleWakeEvery = 10 * time.Second        // a safety net: an idle editor wakes itself this rarely
)

// App is one editor window: the giu master window and everything shown in it.
type App struct {
	opts        Options
	mw          *g.MasterWindow
	started     time.Time // when New ran: the launch, for the probe's timing of the first open
	openAtStart string    // a big scene named on the command line, opened by a job once the window exists
	settings    *settings.Settings

	doc     *doc.Document
	docOpts doc.Options
	project projectState // the project file of the open scene (editor/project.go)
	assets  *assets.Registry
	title   string

	layoutBuilt bool
	dockClass   *imgui.WindowClass
	panelOpen   map[string]bool
	snapDirty   bool // snap steps changed in the View menu: saved when the menu closes
	console     *Console
	probe       *prober
	vp          *viewportPanel
	hier        *hierarchyPanel
	insp        *inspector.Panel
	inspPending bool // the inspector showed a partial result last frame (a big selection being scanned)
	conf        conflictView
	prefab      prefabState // prefab instances: Assets list, drag and drop, overrides shown (editor/prefab.go)
	gridDlg     *gridDialog
	gridValues  *settings.Grid // the grid dialog's values when it was last closed

	viewportHovered bool
	files           *fileDialog
	prompt          *prompt
	job             *job
	marks           []*mark // timed user actions waiting for their result to be presented (probe)
	frameStart      time.Time
	showShortcuts   bool
	showAbout       bool
	allowClose      bool

	watcher   *watch.Watcher
	watched   []string
	watchedAt uint64 // viewport draw-list version the watched set was last synced at

	lastActive time.Time
	lastKey    frameKey
	waitReady  bool   // glfwwait.Prepare has run
	waits      uint64 // times the idle loop slept (the probe reports it)
	caretWait  bool   // the last wait ended when a text field's caret blinks
	lastTick   time.Time
	frames     uint64
	selScratch []ecs.Entity

	missingGlyphs string // characters of the editor's texts its font lacks (checked once, at the third frame)
}

// New prepares an editor for opts. It opens the scene file (if any) before any window exists, so a broken or
// missing file is reported as an error — every problem as file:line:col — without flashing a window.
func New(opts Options) (*App, error) {
	if opts.Width <= 0 {
		opts.Width = 1600
	}
	if opts.Height <= 0 {
		opts.Height = 1000
	}
	if opts.SettingsDir == "" {
		opts.SettingsDir = settings.DefaultDir()
	}
	a := &App{
		started:   time.Now(),
		opts:      opts,
		docOpts:   doc.Options{NewWorld: opts.NewWorld, Systems: opts.Systems},
		console:   NewConsole(1000),
		probe:     newProber(),
		panelOpen: map[string]bool{},
	}
	for _, p := range panelNames {
		a.panelOpen[p] = true
	}
	st, err := settings.Load(opts.SettingsDir)
	if err != nil {
		a.console.Warnf("settings: %v (using defaults)", err)
	}
	if st.Path() == "" {
		st.SaveTo(opts.SettingsDir)
	}
	a.settings = st

	a.assets = assets.NewRegistry(".", assets.DefaultLimits())
	a.vp = newViewportPanel(nil, a, a.assets, newGLRenderer, a.console, a.probe.st())
	a.vp.showStats = st.ShowStats
	a.hier = newHierarchyPanel(nil, a, a.console, a.probe.st())
	a.insp = inspector.New(&docEditor{a}, inspector.Options{
		Names:  docNames{a},
		IDs:    docNames{a},
		Assets: a.assets,
		Hidden: []string{"Name", "MergeConflicts", // the conflict section (conflicts.go) shows the latter
			"Prefab", "PrefabPart", "PrefabKept"}, // the prefab section (prefab.go) shows these
		Overrides: prefabOverrides{a},
		OnError:   func(err error) { a.console.Errorf("%v", err) },
	})

	if a.probe != nil {
		a.insp.RecordWidgets()
	}
	popts, pst := loadProject(a.docOpts, opts.ScenePath)
	if opts.ScenePath != "" && bigFile(opts.ScenePath) {
		// A big scene opens in the window: it shows at once, with the progress, while a job parses the file
		// (and reads the project file next to it again).
		a.useProject(popts, pst)
		a.setDoc(doc.New("", a.docOpts))
		a.openAtStart = opts.ScenePath
	} else if opts.ScenePath != "" {
		d, err := doc.Open(context.Background(), opts.ScenePath, popts, nil)
		if err != nil {
			return nil, loadError(opts.ScenePath, err)
		}
		a.useProject(popts, pst)
		a.setDoc(d)
		a.settings.AddRecent(opts.ScenePath)
		a.saveSettings()
	} else {
		a.useProject(popts, pst)
		a.setDoc(doc.New("", a.docOpts))
	}
	return a, nil
}

// newGLRenderer makes the viewport's renderer in the window's GL context (current on the loop thread).
func newGLRenderer() (viewport.Renderer, error) {
	if err := glrender.InitCurrentContext(); err != nil {
		return nil, err
	}
	r, err := glrender.New()
	if err != nil {
		return nil, err
	}
	return r, nil
}

// picked reveals the entities selected in the viewport in the hierarchy (viewportHost).
func (a *App) picked(es []ecs.Entity) {
	for _, e := range es {
		a.hier.reveal(e)
	}
	if len(es) == 1 {
		a.hier.show(es[0])
	}
}

// snapStep is the gizmo's snapping step for op (viewportHost).
func (a *App) snapStep(op gizmoOp) float32 {
	switch op {
	case gizmoRotate:
		return a.settings.SnapRotate
	case gizmoScale:
		return a.settings.SnapScale
	}
	return a.settings.SnapTranslate
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

// setDoc makes d the open document: the viewport, hierarchy, inspector and asset folder follow it.
func (a *App) setDoc(d *doc.Document) {
	if a.job != nil && a.job.applies {
		a.job.cancel() // its result was for the scene being closed
	}
	a.doc = d
	root := "."
	if d.Path() != "" {
		root = filepath.Dir(d.Path())
	}
	if a.assets.Root() != root {
		a.assets.SetRoot(root)
	}
	_ = a.assets.Scan() // best effort: the Assets panel lists the folder's models
	a.vp.setDoc(d, !d.CameraInFile() && d.Len() > 0)
	a.hier.setDoc(d)
	if d.Path() != "" {
		a.console.Infof("opened %s: %s", d.Path(), words.Count(d.Len(), "entity", "entities"))
	}
	for _, w := range d.Warnings() {
		a.console.Warnf("%s", w)
	}
	a.reportConflicts()
	a.reportBroken()
	a.syncWatched()
}

func (a *App) saveSettings() {
	a.settings.ShowStats = a.vp.showStats
	if err := a.settings.Save(); err != nil {
		a.console.Warnf("saving settings: %v", err)
	}
}

// Run opens the window and runs the GUI loop until the window closes.
func (a *App) Run() error {
	if a.mw != nil {
		return errors.New("editor: Run called twice")
	}
	a.title = a.windowTitle()
	a.mw = g.NewMasterWindow(a.title, a.opts.Width, a.opts.Height, 0)
	loadGlyphs()
	io := imgui.CurrentIO()
	io.SetConfigFlags(io.ConfigFlags() | imgui.ConfigFlagsDockingEnable)
	a.dockClass = imgui.NewWindowClass()
	a.mw.SetCloseCallback(a.onCloseRequest)
	a.mw.SetTargetFPS(targetFPS)
	a.lastActive = time.Now()
	// GL objects must be freed on the loop thread while the context still exists: chain onto giu's hook.
	be := g.Context.Backend()
	var prev func()
	if h, ok := be.(interface{ BeforeDestroyHook() func() }); ok {
		prev = h.BeforeDestroyHook()
	}
	be.SetBeforeDestroyContextHook(func() {
		a.vp.delete()
		if prev != nil {
			prev()
		}
	})
	a.startWatcher()
	if a.openAtStart != "" {
		a.openInBackground(a.openAtStart, &mark{Mark: probe.Mark{What: "open", Input: a.started.UnixNano()}}, true)
	}
	a.mw.Run(a.frame)
	if a.watcher != nil {
		a.watcher.Close()
	}
	a.saveSettings()
	return nil
}

// windowTitle is "Voltex Editor — <file name>" ("Untitled" for a scene never saved), with a leading * while there
// are unsaved changes.
func (a *App) windowTitle() string {
	t := "Voltex Editor — " + a.docLabel()
	if a.doc.Dirty() {
		t = "*" + t
	}
	return t
}

// docLabel names the open scene as a user knows it: its file name, or "Untitled" before it is first saved.
func (a *App) docLabel() string {
	if p := a.doc.Path(); p != "" {
		return filepath.Base(p)
	}
	return a.doc.SceneName()
}

// onCloseRequest is called when the user closes the window (window manager or Ctrl+Q); true lets it close. With
// unsaved changes it asks first, and closes later if the user says so.
func (a *App) onCloseRequest() bool {
	if a.job != nil && !a.allowClose {
		a.console.Warnf("wait for %s to finish, or cancel it, before closing", a.job.label)
		return false
	}
	if a.allowClose || !a.doc.Dirty() {
		return true
	}
	a.confirmDiscard("quit", func() {
		a.allowClose = true
		a.mw.SetShouldClose(true)
	})
	g.Update()
	return false
}

// quit closes the window as if the user had closed it.
func (a *App) quit() {
	if a.onCloseRequest() {
		a.mw.SetShouldClose(true)
	}
}

// frame builds one frame of the whole UI. It runs on the GUI loop thread, the only one that touches the document
// and its world: background jobs hand their results to pollJob, which merges them here.
func (a *App) frame() {
	a.frames++
	a.frameStart = time.Now()
	a.presentMarks()
	a.pollJob()
	a.pollWatcher()
	a.tickPlay()
	a.handleShortcuts()
	a.buildMainMenu()
	a.buildStatusBar()
	a.buildDockspace()
	a.buildPanels()
	a.buildDialogs()
	if a.snapDirty && !imgui.IsAnyItemActive() { // the snap steps were changed (View menu): persist them
		a.snapDirty = false
		a.saveSettings()
	}
	if t := a.windowTitle(); t != a.title {
		a.title = t
		a.mw.SetTitle(t)
	}
	if a.frames == 3 { // the font atlas with the glyph ranges is built before the second frame
		if a.missingGlyphs = missingGlyphs(); a.missingGlyphs != "" {
			a.console.Warnf("the font cannot draw %q: they show as '?'", a.missingGlyphs)
		}
	}
	a.writeProbe()
	a.throttle()
}

func (a *App) writeProbe() {
	if a.probe == nil {
		return
	}
	st := &a.probe.state
	st.Title = a.title
	st.Frames = a.frames
	st.ScenePath = a.doc.Path()
	st.Entities = a.doc.Len()
	st.Dirty = a.doc.Dirty()
	st.Playing = a.doc.Playing()
	st.UndoDepth = a.doc.Undos()
	st.Selected = a.doc.Selection()
	st.Modal = a.modalName()
	st.Prompt = ""
	if a.prompt != nil {
		st.Prompt = a.prompt.message
	}
	cam := a.doc.Camera()
	st.Camera = probe.Camera{Yaw: cam.Yaw, Pitch: cam.Pitch, Distance: cam.Distance}
	st.Waits = a.waits
	st.MissingGlyphs = a.missingGlyphs
	st.TextInput = imgui.CurrentIO().WantTextInput()
	st.Console = st.Console[:0]
	msgs := a.console.Messages()
	for _, m := range msgs[max(0, len(msgs)-8):] {
		st.Console = append(st.Console, m.Level.String()+": "+m.Text)
	}
	clear(st.Inspector)
	if st.Inspector == nil {
		st.Inspector = map[string]probe.Widget{}
	}
	for k, w := range a.insp.Widgets() {
		st.Inspector[k] = probe.Widget{Rect: rectOf(w.Min, imgui.Vec2{X: w.Max.X - w.Min.X, Y: w.Max.Y - w.Min.Y}), Shown: w.Shown}
	}
	for k, w := range a.conf.widgets {
		st.Inspector[k] = w
	}
	for k, w := range a.prefab.widgets {
		st.Inspector[k] = probe.Widget{Rect: rectOf(w.min, imgui.Vec2{X: w.max.X - w.min.X, Y: w.max.Y - w.min.Y})}
	}
	st.Conflicts = a.conf.count
}

// throttle makes an idle editor cost nothing: after idleAfter without input, and with nothing animating or
// pending, the frame callback sleeps in GLFW's event wait (see editor/internal/glfwwait) until an input event or a
// giu.Update() from a background goroutine wakes it; the frame that follows handles that input at the full rate.
// A text field that has the keyboard but gets no input is idle too: the wait then ends when its caret blinks, so
// it costs a frame or two a second instead of the full rate.
//
// The wait happens inside the frame callback, before the frame is presented; so it happens only when this frame
// shows the same as the previous one (which was presented): nothing in the document, the selection, the viewport
// image, the console or the dialogs changed. A frame that changed something is presented first.
func (a *App) throttle() {
	now := time.Now()
	key := a.frameKey()
	changed := key != a.lastKey
	a.lastKey = key
	if changed || userActive() || a.busy() {
		a.lastActive = now
		a.probe.endFrame(a.frames, false)
		return
	}
	if a.caretWait {
		// The last wait ended at a caret blink: this frame shows the caret's new phase and must be presented now,
		// not after the next wait (which would swap the caret's on and off times).
		a.caretWait = false
		a.probe.endFrame(a.frames, false)
		return
	}
	// Input ImGui has received but not handled yet (it hands fast input to frames one event at a time) needs more
	// frames: sleeping now would hold it until the next event arrives.
	if now.Sub(a.lastActive) > idleAfter && imgui.CurrentContext().InputEventsQueue().Size == 0 {
		if !a.waitReady {
			a.waitReady = glfwwait.Prepare()
		}
		if a.waitReady {
			timeout := idleWakeEvery
			if d, ok := caretBlinkIn(); ok {
				timeout, a.caretWait = d, true
			}
			a.waits++
			a.probe.endFrame(a.frames, true)
			glfwwait.Wait(timeout)
			return
		}
	}
	a.probe.endFrame(a.frames, false)
}

// caretBlinkIn returns how long until the caret of the text field that has the keyboard next shows or hides
// (ImGui's blink: after input it stays on for 0.3 s, then it is on 0.8 s and off 0.4 s of every 1.2 s).
func caretBlinkIn() (time.Duration, bool) {
	io := imgui.CurrentIO()
	if !io.WantTextInput() || !io.ConfigInputTextCursorBlink() {
		return 0, false
	}
	id := imgui.InternalActiveID()
	if id == 0 {
		return 0, false
	}
	st := imgui.InternalInputTextState(id)
	if st == nil || st.CData == nil {
		return 0, false
	}
	return nextBlink(st.CursorAnim()), true
}

// nextBlink is the time from caret animation phase anim (seconds; ≤ 0 right after input) to the caret's next
// change, plus a little so that the frame after the wait sees the new phase.
func nextBlink(anim float32) time.Duration {
	const on, period, margin = 0.8, 1.2, 0.01
	var left float64
	switch r := math.Mod(float64(anim), period); {
	case anim <= 0:
		left = on - float64(anim)
	case r <= on:
		left = on - r
	default:
		left = period - r
	}
	return time.Duration((left + margin) * float64(time.Second))
}

// frameKey sums up what a frame shows, to tell whether it differs from the previous one.
type frameKey struct {
	doc, sel, renders uint64
	job               int64
	console           int
	modal             string
	doc2              *doc.Document
}

func (a *App) frameKey() frameKey {
	k := frameKey{renders: a.vp.renders(), console: a.console.Added(), modal: a.modalName(), doc2: a.doc}
	k.doc, k.sel = a.doc.Version(), a.doc.SelectionVersion()
	if a.job != nil {
		k.job = a.job.done.Load()
	}
	return k
}

// busy reports whether the editor has work that needs frames without input (play mode, camera motion, an
// inspector still scanning a big selection — what it shows changes until the scan is done —, marks waiting to be
// presented). A running job wakes the loop itself (giu.Update) when its progress or result comes.
func (a *App) busy() bool {
	return a.vp.busy() || len(a.marks) > 0 || (a.doc.Playing() && !a.doc.Paused()) || a.inspPending ||
		(a.job != nil && (a.job.finished || a.job.immediate && time.Since(a.job.started) < jobOverlayDelay))
}

// userActive reports whether the user is doing anything this frame. A text field that merely has the keyboard
// is not activity (its caret blinks by itself: see throttle); typing into it is.
func userActive() bool {
	io := imgui.CurrentIO()
	if d := io.MouseDelta(); d.X != 0 || d.Y != 0 {
		return true
	}
	if (imgui.IsAnyItemActive() && !io.WantTextInput()) || imgui.IsAnyMouseDown() {
		return true
	}
	if w := io.MouseWheel(); w != 0 {
		return true
	}
	for k := imgui.KeyNamedKeyBEGIN; k < imgui.KeyNamedKeyEND; k++ {
		if imgui.IsKeyDown(k) {
			return true
		}
	}
	return false
}

func (a *App) buildStatusBar() {
	vp := imgui.MainViewport()
	h := imgui.FrameHeight()
	flags := imgui.WindowFlagsNoScrollbar | imgui.WindowFlagsNoSavedSettings | imgui.WindowFlagsMenuBar
	if imgui.InternalBeginViewportSideBar("##StatusBar", vp, imgui.DirDown, h, flags) {
		if imgui.BeginMenuBar() {
			text(a.statusText(imgui.CurrentIO().Framerate()))
			if a.probe != nil {
				a.probe.state.Status = a.statusText(0) // the frame rate changes every frame: not in the probe
			}
			if st, bad := a.projectStatus(); st != "" {
				text("  |  ")
				if bad {
					imgui.PushStyleColorVec4(imgui.ColText, imgui.Vec4{X: 1, Y: 0.45, Z: 0.35, W: 1})
				}
				text(st)
				if bad {
					imgui.PopStyleColor()
				}
				if a.probe != nil {
					a.probe.state.Status += "  |  " + st
				}
			}
			imgui.EndMenuBar()
		}
	}
	imgui.End()
}

// statusText is the status bar's line: where the scene is and whether it is saved, counts, speed and mode.
func (a *App) statusText(fps float32) string {
	var state string
	switch path := registerText(a.doc.Path()); {
	case path == "" && a.doc.Dirty():
		state = "new scene, not saved yet"
	case path == "":
		state = "new scene"
	case a.doc.Dirty():
		state = path + "  |  modified"
	default:
		state = path + "  |  saved"
	}
	mode := ""
	if a.doc.Playing() {
		mode = "  |  PLAYING"
		if a.doc.Paused() {
			mode = "  |  PAUSED"
		}
	}
	if a.job != nil {
		mode += "  |  " + a.job.statusText()
	}
	return fmt.Sprintf("%s  |  %s  |  %d selected  |  %.0f FPS  |  %s%s", state, words.Count(a.doc.Len(), "entity", "entities"),
		a.doc.SelectionLen(), fps, words.Count(int(a.vp.renders()), "viewport render", "viewport renders"), mode)
}

// buildDockspace covers the main viewport (minus menu and status bars) with a dockspace and, on the first frame or
// after View → Reset Layout, arranges the panels: hierarchy left, viewport centre, inspector right, assets and
// console in tabs at the bottom.
func (a *App) buildDockspace() {
	vp := imgui.MainViewport()
	id := imgui.IDStr("VoltexDockspace")
	if !a.layoutBuilt {
		a.layoutBuilt = true
		imgui.InternalDockBuilderRemoveNode(id)
		imgui.InternalDockBuilderAddNodeV(id, imgui.DockNodeFlags(imgui.DockNodeFlagsDockSpace))
		imgui.InternalDockBuilderSetNodeSize(id, vp.WorkSize())
		var left, rest, right, centre, bottom imgui.ID
		imgui.InternalDockBuilderSplitNode(id, imgui.DirLeft, 0.18, &left, &rest)
		imgui.InternalDockBuilderSplitNode(rest, imgui.DirRight, 0.26, &right, &rest)
		imgui.InternalDockBuilderSplitNode(rest, imgui.DirDown, 0.26, &bottom, &centre)
		imgui.InternalDockBuilderDockWindow(panelHierarchy, left)
		imgui.InternalDockBuilderDockWindow(panelInspector, right)
		imgui.InternalDockBuilderDockWindow(panelViewport, centre)
		imgui.InternalDockBuilderDockWindow(panelConsole, bottom)
		imgui.InternalDockBuilderDockWindow(panelAssets, bottom)
		imgui.InternalDockBuilderFinish(id)
	}
	// Each panel's tab has its close button; the dock node's own one (at the right end of the tab bar) would be a
	// second one that closes whichever tab is in front.
	imgui.DockSpaceOverViewportV(id, vp, imgui.DockNodeFlags(imgui.DockNodeFlagsNoCloseButton), a.dockClass)
}

// panel begins a dockable panel window if it is open; the caller builds the contents when it returns true and
// must call imgui.End in every case (as with imgui.Begin).
func (a *App) panel(name string) bool {
	open := a.panelOpen[name]
	visible := imgui.BeginV(name, &open, 0)
	a.panelOpen[name] = open
	if visible {
		a.probe.panel(name)
	}
	return visible
}

func (a *App) buildPanels() {
	if a.panelOpen[panelHierarchy] {
		if a.panel(panelHierarchy) {
			a.hier.Build()
		}
		imgui.End()
	}

	a.viewportHovered = false
	if a.panelOpen[panelViewport] {
		imgui.PushStyleVarVec2(imgui.StyleVarWindowPadding, imgui.Vec2{})
		if a.panel(panelViewport) {
			a.vp.Build()
			a.viewportHovered = a.vp.hovered
		}
		imgui.End()
		imgui.PopStyleVar()
	}

	a.inspPending = false
	if a.panelOpen[panelInspector] {
		if a.panel(panelInspector) {
			a.buildPrefabSection()
			a.buildConflicts()
			a.selScratch = a.doc.AppendSelected(a.selScratch[:0])
			a.insp.Inspect(a.doc.World(), a.selScratch).Build()
			a.inspPending = a.insp.Pending()
		}
		imgui.End()
	}

	if a.panelOpen[panelAssets] {
		if a.panel(panelAssets) {
			a.buildAssets()
		}
		imgui.End()
	}

	if a.panelOpen[panelConsole] {
		if a.panel(panelConsole) {
			a.console.Build()
		}
		imgui.End()
	}
}

// buildAssets lists the meshes scenes can use: the built-ins, the files in use and the .obj files found in the
// scene's folder, with their sizes and any load error.
func (a *App) buildAssets() {
	if imgui.Button("Rescan folder") {
		if err := a.assets.Scan(); err != nil {
			a.console.Warnf("scanning %s: %v", a.assets.Root(), err)
		}
	}
	imgui.SameLine()
	textDisabled(registerText(a.assets.Root()))
	flags := imgui.TableFlagsRowBg | imgui.TableFlagsBordersInnerV | imgui.TableFlagsScrollY | imgui.TableFlagsResizable
	// The prefabs below the meshes get the room they need (prefab.go).
	if !imgui.BeginTableV("##assets", 4, flags, imgui.Vec2{Y: -a.prefabAssetsHeight()}, 0) {
		a.buildPrefabAssets()
		return
	}
	imgui.TableSetupColumnV("Mesh", imgui.TableColumnFlagsWidthStretch, 0, 0)
	imgui.TableSetupColumnV("Vertices", imgui.TableColumnFlagsWidthFixed, 80, 0)
	imgui.TableSetupColumnV("Triangles", imgui.TableColumnFlagsWidthFixed, 80, 0)
	imgui.TableSetupColumnV("Status", imgui.TableColumnFlagsWidthStretch, 0, 0)
	imgui.TableHeadersRow()
	for _, ref := range a.assets.List() {
		imgui.TableNextRow()
		imgui.TableNextColumn()
		text(registerText(ref))
		m, err := a.assets.Mesh(ref)
		imgui.TableNextColumn()
		if m != nil && !m.Placeholder {
			text(strconv.Itoa(m.VertexCount()))
			imgui.TableNextColumn()
			text(strconv.Itoa(m.TriangleCount()))
		} else {
			imgui.TableNextColumn()
		}
		imgui.TableNextColumn()
		if err != nil {
			textColored(errorColor, registerText(err.Error()))
		} else {
			imgui.TextDisabled("ok")
		}
	}
	imgui.EndTable()
	a.buildPrefabAssets()
}
