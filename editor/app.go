package editor

import (
	"errors"
	"fmt"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/editor/internal/glfwwait"
)

// Options configure an editor window.
type Options struct {
	// ScenePath is the scene file to open; empty opens a new, unsaved scene.
	ScenePath string
	// Width and Height are the initial window size in pixels (defaults 1600×1000).
	Width, Height int
	// SettingsDir holds persisted settings (recent files); empty means the user's config directory.
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

const (
	targetFPS     = 60
	idleAfter     = 1500 * time.Millisecond // tooltips and hover effects settle within this
	idleWakeEvery = 10 * time.Second        // a safety net: an idle editor wakes itself this rarely
)

// App is one editor window: the giu master window and everything shown in it.
type App struct {
	opts Options
	mw   *g.MasterWindow

	sceneName string
	scenePath string
	title     string

	layoutBuilt bool
	dockClass   *imgui.WindowClass
	console     *Console
	probe       *prober

	lastActive time.Time
	frames     uint64
}

// New prepares an editor for opts. It opens the scene file (if any) before any window exists, so a broken or
// missing file is reported as an error without flashing a window.
func New(opts Options) (*App, error) {
	if opts.Width <= 0 {
		opts.Width = 1600
	}
	if opts.Height <= 0 {
		opts.Height = 1000
	}
	a := &App{opts: opts, console: NewConsole(1000), probe: newProber()}
	if opts.ScenePath != "" {
		name, err := peekSceneName(opts.ScenePath)
		if err != nil {
			return nil, err
		}
		a.sceneName, a.scenePath = name, opts.ScenePath
		a.console.Infof("opened %s", opts.ScenePath)
	} else {
		a.sceneName = "Untitled"
	}
	return a, nil
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
	a.mw.Run(a.frame)
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

// quit closes the window as if the user had closed it.
func (a *App) quit() {
	if a.onCloseRequest() {
		a.mw.SetShouldClose(true)
	}
}

// frame builds one frame of the whole UI. It runs on the GUI loop thread.
func (a *App) frame() {
	a.frames++
	a.handleShortcuts()
	a.buildMainMenu()
	a.buildStatusBar()
	a.buildDockspace()
	a.buildPanels()
	if t := a.windowTitle(); t != a.title {
		a.title = t
		a.mw.SetTitle(t)
	}
	if a.probe != nil {
		a.probe.state.Title = a.title
		a.probe.state.Frames = a.frames
		a.probe.state.ScenePath = a.scenePath
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
		a.probe.flush()
		glfwwait.Wait(idleWakeEvery)
	}
}

// busy reports whether the editor has work that needs frames without input (play mode, pending renders, jobs).
func (a *App) busy() bool {
	return false
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

func (a *App) handleShortcuts() {
	io := imgui.CurrentIO()
	if io.WantTextInput() {
		return
	}
	if imgui.IsKeyChordPressed(imgui.KeyChord(imgui.ModCtrl) | imgui.KeyChord(imgui.KeyQ)) {
		a.quit()
	}
}

func (a *App) buildMainMenu() {
	if !imgui.BeginMainMenuBar() {
		return
	}
	if imgui.BeginMenu("File") {
		if imgui.MenuItemBoolV("Quit", "Ctrl+Q", false, true) {
			a.quit()
		}
		imgui.EndMenu()
	}
	if imgui.BeginMenu("View") {
		if imgui.MenuItemBool("Reset Layout") {
			a.layoutBuilt = false
		}
		imgui.EndMenu()
	}
	imgui.EndMainMenuBar()
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
			imgui.Text(fmt.Sprintf("%s  |  %.0f FPS", path, imgui.CurrentIO().Framerate()))
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
		imgui.InternalDockBuilderDockWindow(panelAssets, bottom)
		imgui.InternalDockBuilderDockWindow(panelConsole, bottom)
		imgui.InternalDockBuilderFinish(id)
	}
	imgui.DockSpaceOverViewportV(id, vp, 0, a.dockClass)
}

func (a *App) buildPanels() {
	if imgui.Begin(panelHierarchy) {
		a.probe.panel(panelHierarchy)
		imgui.Text(a.sceneName)
	}
	imgui.End()

	imgui.PushStyleVarVec2(imgui.StyleVarWindowPadding, imgui.Vec2{})
	if imgui.Begin(panelViewport) {
		a.probe.panel(panelViewport)
		a.buildViewport()
	}
	imgui.End()
	imgui.PopStyleVar()

	if imgui.Begin(panelInspector) {
		a.probe.panel(panelInspector)
		imgui.TextDisabled("Nothing selected")
	}
	imgui.End()

	if imgui.Begin(panelAssets) {
		a.probe.panel(panelAssets)
		for _, m := range []string{"builtin:cube", "builtin:plane", "builtin:sphere"} {
			imgui.Text(m)
		}
	}
	imgui.End()

	if imgui.Begin(panelConsole) {
		a.probe.panel(panelConsole)
		a.console.Build()
	}
	imgui.End()
}

func (a *App) buildViewport() {
	avail := imgui.ContentRegionAvail()
	if a.probe != nil {
		a.probe.state.Viewport = rectOf(imgui.CursorScreenPos(), avail)
	}
	imgui.Dummy(avail)
}
