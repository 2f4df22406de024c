package editor

import (
	"errors"
	"fmt"
	"image/color"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/editor/workspace"
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
	// work), and makes the Hierarchy's searches run on their goroutine and last this much longer, so that end-to-end
	// tests can act while a job or a search runs; only the e2e build sets it (--test-job-delay).
	JobStepDelay time.Duration
	// FrameDelay, if set, makes every frame last this much longer (a sleep in the frame), as a big scene on a
	// software renderer does: end-to-end tests of input at a low frame rate set it (--test-frame-delay).
	FrameDelay time.Duration
	// NewWorld, if set, makes the worlds of every scene (it must call scene.Register) — to add component types
	// of a game or of tests (--test-components).
	NewWorld func() *ecs.World
	// Systems, if set, make the play-mode systems (doc.Options.Systems; default scene.SpinSystem).
	Systems []func(*ecs.World) ecs.System
	// AttachAddr, if set, attaches to the game whose live link is at that address once the window is open
	// (File → Attach to Game), with AttachToken.
	AttachAddr, AttachToken string
}

// Panel window names. They double as ImGui window IDs, so they are stable strings.
const (
	panelHierarchy = "Hierarchy"
	panelViewport  = "Viewport"
	panelInspector = "Inspector"
	panelAssets    = "Assets"
	panelConsole   = "Console"
	panelHistory   = "History"
)

var panelNames = []string{panelHierarchy, panelViewport, panelInspector, panelAssets, panelConsole, panelHistory}

// panelOpensClosed: the panels that start closed (View opens them).
func panelOpensClosed(name string) bool { return name == panelHistory }

const targetFPS = 60

// App is one editor window. It only wires and docks: it makes the workspace (the open scene and its commands) and
// the panels, hands each panel the narrow interfaces it needs, docks the panels and builds them every frame. A new
// panel is a widget (Build) in a file of its own, given what it reads and runs as interfaces, made in newApp and
// built in buildPanels (docs/architecture.md).
type App struct {
	opts        Options
	win         window        // the master window (giu); a fake in tests
	started     time.Time     // when New ran: the launch, for the probe's timing of the first open
	openAtStart string        // a big scene named on the command line, opened by a job once the window exists
	windowUp    chan struct{} // closed once the first frame is on the screen (the launch's open hashes its file then)
	title       string
	clock       workspace.Clock

	ws      *workspace.Workspace
	cmds    appCommands // the workspace's commands and the window's
	console *Console
	hier    *hierarchyPanel
	vp      *viewportPanel
	insp    *inspectorPanel
	assets  *assetsPanel
	history *historyPanel
	menu    *mainMenu
	status  *statusBar
	dialogs *dialogs
	jobs    jobOverlay
	help    helpWindows
	palette palette
	flags   entityFlags // what the user hid, locked and isolated in the open scene
	split   splitView   // the viewport alone or split into four views
	trail   prefabTrail // prefab mode: the scenes the prefabs being edited were opened from
	bar     *trailBar   // prefab mode's breadcrumb, above the hierarchy
	drag    prefabDrag
	keys    chordKeeper // quick Ctrl chords in text fields
	input   inputGate   // hands queued input to frames no faster than the UI takes it
	probe   *prober

	panels    panelSet
	dockClass *imgui.WindowClass
	idle      idleLoop
	trim      memTrim // gives the memory of big passing work back when the editor goes idle

	missingGlyphs string // characters of the editor's texts its font lacks (checked once, at the third frame)
}

// panelSet is which panels are open and whether the dock layout is built (View → Reset Layout rebuilds it).
type panelSet struct {
	open        map[string]bool
	docked      map[string]bool // docked in the last frame: its background is the window's clear (see clearIsBg)
	layoutBuilt bool
	dockSize    imgui.Vec2 // the dockspace's size in the last frame: a resized window scales the panels (scaleDock)
	// hideUntil is the last frame in which the docked panels stay hidden after the layout was built: ImGui lays a
	// dock node's new tab out a close button too narrow in the first frame it shows it ("Hierarc×"), and that frame
	// may stay on the screen for long (the loop thread merging a big scene).
	hideUntil uint64
	clear     uint32 // the window's clear colour, the style's WindowBg packed as ImGui packs it (0: not set yet)
}

// window is the master window as the App uses it (giu's MasterWindow implements it).
type window interface {
	SetTitle(title string)
	SetShouldClose(bool)
}

// New prepares an editor for opts. It opens the scene file (if any) before any window exists, so a broken or
// missing file is reported as an error — every problem as file:line:col — without flashing a window.
func New(opts Options) (*App, error) {
	if opts.SettingsDir == "" {
		opts.SettingsDir = settings.DefaultDir()
	}
	return newApp(opts, newGLRenderer)
}

// newApp is New with the viewport's renderer made by newRenderer (on the loop thread, at the first frame).
func newApp(opts Options, newRenderer func() (viewport.Renderer, error)) (*App, error) {
	if opts.Width <= 0 {
		opts.Width = 1600
	}
	if opts.Height <= 0 {
		opts.Height = 1000
	}
	a := &App{started: time.Now(), opts: opts, console: NewConsole(1000), probe: newProber(),
		panels: panelSet{open: map[string]bool{}, docked: map[string]bool{}}, idle: idleLoop{waiter: glfwWaiter{}},
		trim: memTrim{release: glrender.ReleaseFreedMemory}}
	for _, p := range panelNames {
		a.panels.open[p] = !panelOpensClosed(p)
	}
	st, err := settings.Load(opts.SettingsDir)
	if err != nil {
		a.console.Warnf("settings: %v (using defaults)", err)
	}
	if st.Path() == "" {
		st.SaveTo(opts.SettingsDir)
	}
	a.wire(st, newRenderer)
	a.openAtStart, err = a.ws.OpenFirst(opts.ScenePath)
	if err == nil {
		a.ws.Journals().Offer(opts.ScenePath)
	}
	return a, err
}

// wire makes the workspace and the panels and connects them: each panel gets the document, the commands and the
// parts of the rest it uses, as interfaces.
func (a *App) wire(st *settings.Settings, newRenderer func() (viewport.Renderer, error)) {
	pr := a.probe.st()
	ws := workspace.New(workspace.Options{NewWorld: a.opts.NewWorld, Systems: a.opts.Systems, JobStepDelay: a.opts.JobStepDelay,
		Wake: func() { wakeLoop() }}, st, a.console, &a.clock)
	jobs := ws.Jobs()
	jobs.Probe = pr
	a.ws, a.cmds = ws, appCommands{ws, a}
	a.drag.place, a.drag.dropPrefab, a.drag.dropMesh = ws.Prefabs().Instantiate, ws.Prefabs().Drop, ws.Prefabs().PlaceMesh
	a.hier = newHierarchyPanel(nil, ws, &a.drag, a.console, pr)
	a.vp = newViewportPanel(nil, a, ws.Assets(), newRenderer, a.console, pr)
	a.vp.showStats = st.ShowStats
	a.insp = newInspectorPanel(a.cmds, a.hier, ws.Assets(), a.console, pr)
	a.history = &historyPanel{docs: ws, log: a.console, probe: pr}
	a.assets = &assetsPanel{reg: ws.Assets(), host: a.cmds, drag: &a.drag, log: a.console, probe: pr}
	a.menu = &mainMenu{cmds: a.cmds, settings: st, panels: &a.panels, view: a.vp, probe: pr}
	a.status = &statusBar{src: ws, renders: a.vp.renders, probe: pr}
	a.dialogs = &dialogs{places: func() []string { return st.Places }, gridHost: ws, gridView: a.vp, meshes: ws.Assets(), probe: pr}
	a.jobs = jobOverlay{jobs: jobs, probe: pr}
	a.help.probe = a.probe
	a.palette.cmds, a.palette.probe = a.cmds, a.probe
	a.flags.st, a.flags.save = st, func() { a.cmds.SaveSettings() }
	a.vp.scene.filter, a.hier.flags, a.hier.layers = &a.flags, &a.flags, &a.flags
	a.split = splitView{main: a.vp, doc: ws.Doc, probe: pr, make: func(d viewportDoc) *viewportPanel {
		v := newViewportPanel(d, a, ws.Assets(), newRenderer, a.console, nil)
		v.scene.filter = &a.flags
		return v
	}}
	a.menu.splitShown = func() bool { return a.split.on }
	a.bar = &trailBar{trail: &a.trail, back: ws.OpenRecent, probe: pr}
	ws.SetUI(appUI{a})
	jobs.PictureShows = a.vp.pictureShows
	a.insp.mark, a.dialogs.mark = jobs.MarkNow, jobs.MarkNow
	a.hier.mark, a.hier.begin, a.hier.searchDelay = jobs.MarkNow, jobs.Begin, a.opts.JobStepDelay
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

// FlushSettings waits for the settings file writes asked for so far (they run beside the loop). Run waits for them
// when the window closes; a caller that made the App and does not Run it calls this before it exits.
func (a *App) FlushSettings() { a.ws.FlushSettings() }

// Run opens the window and runs the GUI loop until the window closes.
func (a *App) Run() error {
	if a.win != nil {
		return errors.New("editor: Run called twice")
	}
	a.title = a.ws.WindowTitle()
	a.openScene() // read while the window opens: on two cores the scene is ready sooner
	mw := g.NewMasterWindow(a.title, a.opts.Width, a.opts.Height, 0)
	loopReady.Store(true)
	a.win = mw
	loadGlyphs()
	a.initContext()
	a.assets.thumbs.newTexture = newGiuTexture
	a.hier.icons.newTexture = newGiuTexture
	mw.SetCloseCallback(a.onCloseRequest)
	mw.SetAdditionalInputHandlerCallback(a.keys.onKey)
	mw.SetTargetFPS(targetFPS)
	// The editor's hooks run beside giu's own (which the backend still holds).
	be := g.Context.Backend()
	var giuDestroy, giuAfter, giuBefore func()
	if h, ok := be.(backendHooks); ok {
		giuDestroy, giuAfter, giuBefore = h.BeforeDestroyHook(), h.AfterRenderHook(), h.BeforeRenderHook()
	}
	// GL objects must be freed on the loop thread while the context still exists.
	be.SetBeforeDestroyContextHook(inOrder(a.split.deleteViews, a.vp.delete, giuDestroy))
	// The idle wait comes after the frame that decided it is presented (App.sleepIfIdle); the loop has just polled
	// the window's events (their presses are timed now).
	be.SetAfterRenderHook(inOrder(giuAfter, func() {
		now := time.Now()
		a.clock.Presented = now // swapped before the loop waited for the next frame's time and polled
		a.input.clock.polled(now)
		a.hier.searcher.launch()
		a.drawBetweenFrames()
		a.sleepIfIdle()
	}))
	// The input gate decides what the next frame's NewFrame takes from ImGui's queue.
	be.SetBeforeRenderHook(inOrder(giuBefore, a.input.beforeNewFrame))
	a.start()
	mw.Run(a.frame)
	a.ws.Close()
	return nil
}

// backendHooks are the loop hooks giu's backend (cimgui-go's GLFW backend) was given.
type backendHooks interface {
	BeforeDestroyHook() func()
	AfterRenderHook() func()
	BeforeRenderHook() func()
}

// inOrder returns a hook that runs the given ones (nil ones skipped) in order.
func inOrder(hooks ...func()) func() {
	return func() {
		for _, h := range hooks {
			if h != nil {
				h()
			}
		}
	}
}

// initContext sets up the ImGui context the window made: docking, and the class of the dock's windows.
func (a *App) initContext() {
	io := imgui.CurrentIO()
	io.SetConfigFlags(io.ConfigFlags() | imgui.ConfigFlagsDockingEnable)
	a.dockClass = imgui.NewWindowClass()
	a.idle.lastActive = time.Now()
}

// start begins what runs once the window exists: the file watcher.
func (a *App) start() {
	a.ws.Watcher().Start()
}

// openScene begins the job that reads the big scene named on the command line; it is merged once the first frame,
// with its progress, has been presented (workspace.OpenAtLaunch).
func (a *App) openScene() {
	if a.opts.AttachAddr != "" {
		a.ws.Live().Attach(a.opts.AttachAddr, a.opts.AttachToken)
		a.opts.AttachAddr = ""
	}
	if a.openAtStart != "" {
		a.windowUp = make(chan struct{})
		a.ws.OpenAtLaunch(a.openAtStart, a.started, a.windowUp)
	}
}

// onCloseRequest is called when the user closes the window (window manager or Ctrl+Q); true lets it close. With
// unsaved changes it asks first, and closes later if the user says so (workspace.RequestClose).
func (a *App) onCloseRequest() bool {
	ok := a.ws.RequestClose()
	wakeLoop()
	return ok
}

// frame builds one frame of the whole UI. It runs on the GUI loop thread, the only one that touches the document
// and its world: background jobs hand their results to the workspace, which merges them here.
func (a *App) frame() {
	now := time.Now()
	if !a.clock.Start.IsZero() {
		a.probe.frameTime(now.Sub(a.clock.Start) - a.idle.slept)
	}
	a.clock.Frames++
	if a.windowUp != nil && a.clock.Frames > 1 {
		close(a.windowUp)
		a.windowUp = nil
	}
	a.clock.Start, a.idle.slept = now, 0
	a.input.afterNewFrame()
	a.keys.frameStart()
	a.ws.BeginFrame()
	a.flags.sync(a.ws.Doc())
	a.trail.sync(absPath(a.ws.Doc().Path()))
	handleShortcuts(a.cmds, a.dialogs.modalOpen(), a.split.overImage())
	a.menu.Build()
	a.status.Build()
	a.buildDockspace()
	a.buildPanels()
	a.dialogs.Build()
	a.jobs.Build()
	a.help.Build()
	a.palette.Build()
	a.vp.lateRender() // a change made after the viewport was built, drawn in this frame when a patch covers it
	a.keys.frameEnd()
	if t := a.ws.WindowTitle(); t != a.title {
		a.title = t
		a.win.SetTitle(t)
	}
	if a.clock.Frames == 3 { // the font atlas with the glyph ranges is built before the second frame
		if a.missingGlyphs = missingGlyphs(); a.missingGlyphs != "" {
			a.console.Warnf("the font cannot draw %q: they show as '?'", a.missingGlyphs)
		}
	}
	if a.opts.FrameDelay > 0 { // tests only (Options.FrameDelay)
		time.Sleep(a.opts.FrameDelay)
	}
	a.writeProbe()
	a.throttle()
}

// buildDockspace covers the main viewport (minus menu and status bars) with a dockspace and, on the first frame or
// after View → Reset Layout, arranges the panels: hierarchy left, viewport centre, inspector right, assets and
// console in tabs at the bottom.
func (a *App) buildDockspace() {
	vp := imgui.MainViewport()
	id := imgui.IDStr("VoltexDockspace")
	if !a.panels.layoutBuilt {
		a.panels.layoutBuilt = true
		a.panels.hideUntil = a.clock.Frames + 1
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
		imgui.InternalDockBuilderDockWindow(panelHistory, bottom)
		imgui.InternalDockBuilderFinish(id)
	} else if last, now := a.panels.dockSize, vp.WorkSize(); last.X > 0 && last.Y > 0 && now.X > 0 && now.Y > 0 && now != last {
		scaleDock(imgui.InternalDockBuilderGetNode(id), now.X/last.X, now.Y/last.Y)
	}
	a.panels.dockSize = vp.WorkSize()
	if a.clearIsBg() {
		imgui.SetNextWindowBgAlpha(0) // the dockspace's host window: its background is the clear too
	}
	// Each panel's tab has its close button; the dock node's own one (at the right end of the tab bar) would be a
	// second one that closes whichever tab is in front.
	imgui.DockSpaceOverViewportV(id, vp, imgui.DockNodeFlags(imgui.DockNodeFlagsNoCloseButton), a.dockClass)
	if a.clock.Frames <= a.panels.hideUntil {
		// The dock space's window draws the panels' tab bars: not in the frames that lay them out first.
		if n := imgui.InternalDockBuilderGetNode(id); n != nil && n.CData != nil {
			if h := n.HostWindow(); h != nil && h.CData != nil {
				imgui.InternalSetWindowHiddenAndSkipItemsForCurrentFrame(h)
			}
		}
	}
}

// scaleDock scales the sizes the panels of dock node n ask for by sx, sy: a resized window keeps the panels'
// proportions. ImGui keeps the side panels' sizes in pixels and gives the rest to the viewport, which in a window
// made small vanishes (a 1600-pixel layout shrunk to 520 left it 32 pixels wide).
func scaleDock(n *imgui.DockNode, sx, sy float32) {
	if n == nil || n.CData == nil {
		return
	}
	s := n.SizeRef()
	n.SetSizeRef(imgui.Vec2{X: s.X * sx, Y: s.Y * sy})
	for _, c := range n.ChildNodes() {
		scaleDock(c, sx, sy)
	}
}

// clearIsBg makes the window's clear colour the style's window background, so that the dockspace's host window and
// the docked panels need not draw theirs: each is a rectangle as big as the window or the panel, and the software
// renderer (llvmpipe) blends every pixel of each, about 12 ms of a 21 ms frame at 1600×1000, where the clear costs
// next to nothing. The colour is the one ImGui would draw (its 8-bit packing), so the picture is the same pixel for
// pixel (e2e TestPanelBackgroundsAreTheClear). Floating panels, popups and dialogs keep their own background. It
// reports whether the clear is the background: not for a translucent WindowBg (what shows through it would change)
// nor a window that cannot set its clear colour.
func (a *App) clearIsBg() bool {
	bg, ok := a.win.(interface{ SetBgColor(color.Color) })
	c := imgui.ColorConvertFloat4ToU32(*imgui.StyleColorVec4(imgui.ColWindowBg)) // IM_COL32: A<<24 | B<<16 | G<<8 | R
	if !ok || c>>24 != 0xff {
		a.panels.clear = 0
		return false
	}
	if c != a.panels.clear {
		a.panels.clear = c
		bg.SetBgColor(color.NRGBA{R: uint8(c), G: uint8(c >> 8), B: uint8(c >> 16), A: 0xff})
	}
	return true
}

// buildPanels builds each open panel in its dock window.
func (a *App) buildPanels() {
	a.probe.beginPanels()
	a.panel(panelHierarchy, g.Layout{a.bar, a.hier}, nil)
	a.split.each(func(v *viewportPanel) { v.area.hovered, v.area.overImage = false, false })
	imgui.PushStyleVarVec2(imgui.StyleVarWindowPadding, imgui.Vec2{})
	if !a.panel(panelViewport, &a.split, imgui.PopStyleVar) {
		a.vp.notShown()
	}
	a.insp.pending = false
	a.panel(panelInspector, a.insp, nil)
	a.panel(panelAssets, a.assets, nil)
	a.panel(panelConsole, a.console, nil)
	a.panel(panelHistory, a.history, nil)
}

// panel builds w in the dockable window name if it is open (after begins, once the window has begun, undoes a
// style pushed for it) and reports whether it built w.
func (a *App) panel(name string, w g.Widget, after func()) bool {
	if !a.panels.open[name] {
		a.probe.tab(name, false)
		if after != nil {
			after()
		}
		return false
	}
	open := true
	if a.clock.Frames <= a.panels.hideUntil {
		if w := imgui.InternalFindWindowByName(name); w != nil && w.CData != nil { // nil before its first Begin
			w.SetHiddenFramesCannotSkipItems(2) // Begin counts it down: hidden in this frame (its contents laid out)
		}
	}
	if a.panels.docked[name] && a.panels.clear != 0 {
		imgui.SetNextWindowBgAlpha(0) // its background is the window's clear (clearIsBg)
	}
	visible := imgui.BeginV(name, &open, 0)
	a.panels.open[name] = open
	a.panels.docked[name] = imgui.IsWindowDocked()
	a.probe.tab(name, a.panels.docked[name])
	if visible {
		a.probe.panel(name)
		w.Build()
	}
	imgui.End()
	if after != nil {
		after()
	}
	return visible
}

// writeProbe fills in the probe's state from the workspace and the panels (those write their own parts as they
// build).
func (a *App) writeProbe() {
	if a.probe == nil {
		return
	}
	d := a.ws.Doc()
	st := &a.probe.state
	st.Title = a.title
	st.Frames = a.clock.Frames
	st.FrameStart = a.clock.Start.UnixNano()
	if a.clock.Frames == 2 {
		st.FirstFrame = st.FrameStart
	}
	if c := imgui.ColorConvertFloat4ToU32(*imgui.StyleColorVec4(imgui.ColWindowBg)); st.WindowBg == "" || c != a.probe.windowBg {
		a.probe.windowBg, st.WindowBg = c, fmt.Sprintf("#%02x%02x%02x", uint8(c), uint8(c>>8), uint8(c>>16))
	}
	st.ScenePath = d.Path()
	st.Entities = d.Len()
	st.Dirty = d.Dirty()
	st.Playing = d.PlayMode().Playing()
	st.UndoDepth = d.History().Undos()
	if v := d.Selection().Version(); v != a.probe.selVersion || d != a.probe.selDoc || d.Selection().Len() != st.SelectedCount {
		st.Selected, st.SelectedCount = d.Selection().AppendIDs(st.Selected[:0:0], probe.MaxSelected), d.Selection().Len()
		a.probe.selVersion, a.probe.selDoc = v, d
	}
	st.Modal = a.dialogs.modalName()
	st.Prompt = a.dialogs.promptText()
	cam := d.Camera()
	st.Camera = probe.Camera{Yaw: cam.Yaw, Pitch: cam.Pitch, Distance: cam.Distance, Ortho: cam.Orthographic || cam.Ortho > 0, Pivot: cam.Pivot}
	st.Waits = a.idle.waits
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
	a.insp.widgets(st.Inspector)
	for k, w := range a.assets.widgets {
		st.Inspector[k] = w
	}
	st.Conflicts = a.insp.conf.count
}
