package editor

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/assets/watch"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/internal/glfwwait"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/viewport"
)

// Options configure an editor window.
type Options struct {
	// ScenePath is the scene file to open; empty opens a new, unsaved scene.
	ScenePath string
	// Width and Height are the initial window size in pixels (defaults 1600×1000).
	Width, Height int
	// SettingsDir holds persisted settings (recent files); empty means settings.DefaultDir().
	SettingsDir string
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
	opts     Options
	mw       *g.MasterWindow
	settings *settings.Settings

	sceneName string
	scenePath string
	world     *ecs.World
	assets    *assets.Registry
	title     string

	layoutBuilt bool
	dockClass   *imgui.WindowClass
	panelOpen   map[string]bool
	showStats   bool
	console     *Console
	probe       *prober
	vp          *viewportPanel

	viewportHovered bool
	modal           string
	files           *fileDialog
	showShortcuts   bool
	showAbout       bool

	watcher *watch.Watcher
	watched []string

	lastActive time.Time
	frames     uint64
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
		opts:      opts,
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
	a.settings = st
	a.showStats = st.ShowStats

	root := "."
	if opts.ScenePath != "" {
		root = filepath.Dir(opts.ScenePath)
	}
	a.assets = assets.NewRegistry(root, assets.DefaultLimits())
	_ = a.assets.Scan() // best effort: the Assets panel lists the folder's models
	a.vp = newViewportPanel(a.assets)

	if opts.ScenePath != "" {
		s, err := serialize.LoadFile(context.Background(), opts.ScenePath, serialize.LoadOptions{})
		if err != nil {
			return nil, loadError(opts.ScenePath, err)
		}
		a.setScene(s, opts.ScenePath)
		a.console.Infof("opened %s: %d entities", opts.ScenePath, s.World.Len())
		for _, w := range s.Warnings {
			a.console.Warnf("%s", w)
		}
	} else {
		a.setScene(&serialize.Scene{Name: "Untitled", World: scene.NewWorld()}, "")
	}
	return a, nil
}

// loadError turns a load failure into one error listing every problem.
func loadError(path string, err error) error {
	probs := serialize.ProblemsOf(err)
	if len(probs) == 0 {
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

func (a *App) setScene(s *serialize.Scene, path string) {
	a.sceneName, a.scenePath, a.world = s.Name, path, s.World
	if a.sceneName == "" {
		a.sceneName = "Untitled"
	}
	a.vp.setWorld(s.World)
	if s.Camera != nil {
		a.vp.Camera.Pivot, a.vp.Camera.Yaw, a.vp.Camera.Pitch, a.vp.Camera.Distance =
			s.Camera.Pivot, s.Camera.Yaw, s.Camera.Pitch, s.Camera.Distance
		a.vp.Camera = a.vp.Camera.Normalized()
	} else {
		cam := viewport.DefaultCamera()
		a.vp.Camera = cam
	}
}

// Run opens the window and runs the GUI loop until the window closes.
func (a *App) Run() error {
	if a.mw != nil {
		return errors.New("editor: Run called twice")
	}
	a.title = a.windowTitle()
	a.mw = g.NewMasterWindow(a.title, a.opts.Width, a.opts.Height, 0)
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
	a.mw.Run(a.frame)
	if a.watcher != nil {
		a.watcher.Close()
	}
	return nil
}

// windowTitle is "Voltex Editor — <scene name>".
func (a *App) windowTitle() string {
	return fmt.Sprintf("Voltex Editor — %s", a.sceneName)
}

// onCloseRequest is called when the user closes the window with the window manager; true lets it close.
func (a *App) onCloseRequest() bool {
	return true
}

// frame builds one frame of the whole UI. It runs on the GUI loop thread.
func (a *App) frame() {
	a.frames++
	a.pollWatcher()
	a.handleShortcuts()
	a.buildMainMenu()
	a.buildStatusBar()
	a.buildDockspace()
	a.buildPanels()
	a.buildDialogs()
	if t := a.windowTitle(); t != a.title {
		a.title = t
		a.mw.SetTitle(t)
	}
	if a.probe != nil {
		a.probe.state.Title = a.title
		a.probe.state.Frames = a.frames
		a.probe.state.ScenePath = a.scenePath
		a.probe.state.Entities = a.world.Len()
		a.probe.state.Modal = a.modal
		a.probe.flush()
	}
	a.throttle()
}

// throttle makes an idle editor cost nothing: after idleAfter without input, and with nothing animating or
// pending, the frame callback sleeps in GLFW's event wait (see editor/internal/glfwwait) until an input event or a
// giu.Update() from a background goroutine wakes it; the frame that follows handles that input at the full rate.
func (a *App) throttle() {
	now := time.Now()
	if userActive() || a.busy() {
		a.lastActive = now
		return
	}
	if now.Sub(a.lastActive) > idleAfter {
		glfwwait.Wait(idleWakeEvery)
	}
}

// busy reports whether the editor has work that needs frames without input (play mode, camera motion, jobs).
func (a *App) busy() bool {
	return a.vp.busy()
}

// userActive reports whether the user is doing anything this frame.
func userActive() bool {
	io := imgui.CurrentIO()
	if d := io.MouseDelta(); d.X != 0 || d.Y != 0 {
		return true
	}
	if imgui.IsAnyItemActive() || imgui.IsAnyMouseDown() {
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
			path := a.scenePath
			if path == "" {
				path = "(unsaved)"
			}
			imgui.Text(fmt.Sprintf("%s  |  %d entities  |  %.0f FPS  |  %d viewport renders",
				path, a.world.Len(), imgui.CurrentIO().Framerate(), a.vp.policy.Renders()))
			imgui.EndMenuBar()
		}
	}
	imgui.End()
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
	imgui.DockSpaceOverViewportV(id, vp, 0, a.dockClass)
}

// panel begins a dockable panel window if it is open; the caller builds the contents when it returns true and
// must call imgui.End in every case (as with imgui.Begin).
func (a *App) panel(name string) bool {
	open := a.panelOpen[name]
	if !open {
		return false
	}
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
			a.buildHierarchy()
		}
		imgui.End()
	}

	a.viewportHovered = false
	if a.panelOpen[panelViewport] {
		imgui.PushStyleVarVec2(imgui.StyleVarWindowPadding, imgui.Vec2{})
		if a.panel(panelViewport) {
			a.vp.build(a)
			a.viewportHovered = a.vp.hovered
		}
		imgui.End()
		imgui.PopStyleVar()
	}

	if a.panelOpen[panelInspector] {
		if a.panel(panelInspector) {
			a.buildInspector()
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

func (a *App) buildHierarchy() {
	imgui.Text(a.sceneName)
}

func (a *App) buildInspector() {
	imgui.TextDisabled("Nothing selected")
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
	imgui.TextDisabled(a.assets.Root())
	flags := imgui.TableFlagsRowBg | imgui.TableFlagsBordersInnerV | imgui.TableFlagsScrollY | imgui.TableFlagsResizable
	if !imgui.BeginTableV("##assets", 4, flags, imgui.Vec2{}, 0) {
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
		imgui.Text(ref)
		m, err := a.assets.Mesh(ref)
		imgui.TableNextColumn()
		if m != nil && !m.Placeholder {
			imgui.Text(strconv.Itoa(m.VertexCount()))
			imgui.TableNextColumn()
			imgui.Text(strconv.Itoa(m.TriangleCount()))
		} else {
			imgui.TableNextColumn()
		}
		imgui.TableNextColumn()
		if err != nil {
			imgui.TextColored(imgui.Vec4{X: 1, Y: 0.45, Z: 0.4, W: 1}, err.Error())
		} else {
			imgui.TextDisabled("ok")
		}
	}
	imgui.EndTable()
}
