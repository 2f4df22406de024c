package editor

import (
	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/settings"
)

// menuCommands are the commands the menu bar and the toolbar run besides the action table's.
type menuCommands interface {
	commands
	OpenRecent(path string)
	ClearRecent()
	Paused() bool
	SaveSettings()
}

// toolbarView is the viewport as the toolbar and the View menu show it (viewportPanel implements it).
type toolbarView interface {
	gizmo() (op gizmoOp, local bool)
	setGizmo(op gizmoOp)
	statsShown() bool
}

// mainMenu is the main menu bar, built from the action table (actions.go), with File → Open Recent, View's
// snapping steps and panel toggles, and the toolbar (Play / Pause / Step, the gizmo) in the middle of the bar.
type mainMenu struct {
	cmds      menuCommands
	settings  *settings.Settings // Open Recent's list and the snapping steps (edited in place)
	panels    *panelSet
	view      toolbarView
	probe     *probe.State
	snapDirty bool // snapping steps changed: saved once no field is being dragged
	// splitShown reports whether the viewport is split into four views (View → Four Views shows a check).
	splitShown func() bool
}

var _ g.Widget = (*mainMenu)(nil)

// Build draws the menu bar.
func (m *mainMenu) Build() {
	if m.probe != nil {
		m.probe.MenuBar = false
		clear(m.probe.Menus)
	}
	if m.snapDirty && !imgui.IsAnyItemActive() { // the snap steps were changed (View menu): persist them
		m.snapDirty = false
		m.cmds.SaveSettings()
	}
	if !imgui.BeginMainMenuBar() {
		return
	}
	if m.probe != nil {
		m.probe.MenuBar = true
	}
	for _, name := range menus {
		open := imgui.BeginMenu(name)
		m.record(name)
		if !open {
			continue
		}
		m.buildMenu(name)
		imgui.EndMenu()
	}
	m.buildToolbar()
	imgui.EndMainMenuBar()
}

// buildMenu fills the open menu name with its actions (and File's Open Recent, View's extras).
func (m *mainMenu) buildMenu(name string) {
	for i := range actions {
		ac := &actions[i]
		if ac.menu != name {
			continue
		}
		if ac.sepBefore {
			imgui.Separator()
		}
		if name == "File" && ac.label == "Save" {
			m.buildRecent()
			imgui.Separator()
		}
		checked := ac.label == "Stats Overlay" && m.view.statsShown() || ac.label == fourViewsLabel && m.splitShown != nil && m.splitShown()
		if imgui.MenuItemBoolV(ac.label, ac.shortcutText(), checked, ac.isEnabled(m.cmds)) {
			runAction(m.cmds, ac)
		}
		m.record(name + "/" + ac.label)
	}
	if name == "View" {
		m.buildSnapping()
		imgui.Separator()
		for _, p := range panelNames {
			open := m.panels.open[p]
			if imgui.MenuItemBoolV(p, "", open, true) {
				m.panels.open[p] = !open
			}
			m.record("View/" + p)
		}
	}
}

// buildRecent is File → Open Recent.
func (m *mainMenu) buildRecent() {
	if !imgui.BeginMenuV("Open Recent", len(m.settings.Recent) > 0) {
		return
	}
	for _, p := range m.settings.Recent {
		if imgui.MenuItemBool(registerText(p)) {
			m.cmds.OpenRecent(p)
		}
	}
	imgui.Separator()
	if imgui.MenuItemBool("Clear Recent") {
		m.cmds.ClearRecent()
	}
	imgui.EndMenu()
}

// buildSnapping is View → Gizmo Snapping: the steps a gizmo drag snaps to while snapping is on or Ctrl is held,
// and the snapping toggles of the toolbar.
func (m *mainMenu) buildSnapping() {
	if !imgui.BeginMenu("Gizmo Snapping") {
		return
	}
	st := m.settings
	changed := false
	changed = imgui.Checkbox("Snap to steps (else hold Ctrl)", &st.GridSnap) || changed
	changed = imgui.Checkbox("Snap to surfaces", &st.SurfaceSnap) || changed
	imgui.SetNextItemWidth(120)
	changed = imgui.DragFloatV("Move step", &st.SnapTranslate, 0.01, 0.001, 1000, "%.3f", imgui.SliderFlagsAlwaysClamp) || changed
	imgui.SetNextItemWidth(120)
	changed = imgui.DragFloatV("Rotate step (°)", &st.SnapRotate, 0.5, 0.1, 180, "%.1f", imgui.SliderFlagsAlwaysClamp) || changed
	imgui.SetNextItemWidth(120)
	changed = imgui.DragFloatV("Scale step", &st.SnapScale, 0.01, 0.001, 100, "%.3f", imgui.SliderFlagsAlwaysClamp) || changed
	if changed {
		m.snapDirty = true
	}
	imgui.EndMenu()
}

// buildToolbar draws Play / Pause / Step and the gizmo's mode and space in the middle of the menu bar, or right
// after the menus when the window is too narrow for that (then the bar clips what does not fit).
func (m *mainMenu) buildToolbar() {
	imgui.SetCursorPosX(max(imgui.WindowWidth()/2-90, imgui.CursorPosX()+imgui.CurrentStyle().ItemSpacing().X*2))
	playing := m.cmds.Playing()
	label := "Play"
	switch {
	case m.cmds.Attached():
		label = "Detach"
	case playing:
		label = "Stop"
	}
	if imgui.SmallButton(label + "##toolbarplay") {
		m.cmds.CmdPlayStop()
	}
	m.record("toolbar:Play")
	imgui.BeginDisabledV(!playing)
	pause := "Pause"
	if m.cmds.Paused() {
		pause = "Resume"
	}
	imgui.SameLine()
	if imgui.SmallButton(pause + "##toolbarpause") {
		m.cmds.CmdPause()
	}
	imgui.SameLine()
	if imgui.SmallButton("Step##toolbarstep") {
		m.cmds.CmdStep()
	}
	imgui.EndDisabled()
	imgui.SameLine()
	imgui.TextDisabled("|")
	op, local := m.view.gizmo()
	for _, b := range []struct {
		label string
		op    gizmoOp
	}{{"Move", gizmoTranslate}, {"Rotate", gizmoRotate}, {"Scale", gizmoScale}} {
		imgui.SameLine()
		if toggleButton(b.label+"##tb", op == b.op) {
			m.view.setGizmo(b.op)
		}
	}
	imgui.SameLine()
	space := "World"
	if local {
		space = "Local"
	}
	if imgui.SmallButton(space + "##tbspace") {
		m.cmds.CmdGizmoSpace()
	}
	m.record("toolbar:Space")
	m.buildSnapButtons()
}

// buildSnapButtons are the toolbar's snapping toggles: Snap (to the move step it shows; Ctrl snaps while it is
// off) and Surface (moves and drops land on the surface under the mouse). Both are kept in the settings.
func (m *mainMenu) buildSnapButtons() {
	st := m.settings
	imgui.SameLine()
	imgui.TextDisabled("|")
	imgui.SameLine()
	if toggleButton(snapLabel(st.SnapTranslate)+"##tbsnap", st.GridSnap) {
		st.GridSnap = !st.GridSnap
		m.cmds.SaveSettings()
	}
	m.record("toolbar:Snap")
	if imgui.IsItemHovered() {
		imgui.SetTooltip("Snap moves, turns and scales to the steps of View → Gizmo Snapping (hold Ctrl to snap while off); hold V while moving to snap a vertex onto another mesh's")
	}
	imgui.SameLine()
	if toggleButton("Surface##tbsurface", st.SurfaceSnap) {
		st.SurfaceSnap = !st.SurfaceSnap
		m.cmds.SaveSettings()
	}
	m.record("toolbar:Surface")
	if imgui.IsItemHovered() {
		imgui.SetTooltip("Moves and drops from Assets put things on the surface under the mouse, turned to its normal")
	}
}

// toggleButton is a small button drawn highlighted while on; it reports a click.
func toggleButton(label string, on bool) bool {
	if on {
		imgui.PushStyleColorVec4(imgui.ColButton, imgui.Vec4{X: 0.26, Y: 0.59, Z: 0.98, W: 0.8})
		defer imgui.PopStyleColor()
	}
	return imgui.SmallButton(label)
}

// record notes the last item (a menu title, or an item of an open menu: "Entity/Unpack Prefab") for the probe.
func (m *mainMenu) record(name string) {
	if m.probe == nil {
		return
	}
	if m.probe.Menus == nil {
		m.probe.Menus = map[string]probe.Rect{}
	}
	m.probe.Menus[name] = rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
}

// statusSource is what the status bar shows (the workspace implements it).
type statusSource interface {
	StatusText(fps float32, renders uint64) string
	ProjectStatus() (text string, bad bool)
}

// statusBar is the bar at the bottom of the window: where the scene is and whether it is saved, counts, speed,
// renders, play mode and the running job, and the project file's state (red when it has problems).
type statusBar struct {
	src     statusSource
	renders func() uint64
	probe   *probe.State
}

var _ g.Widget = (*statusBar)(nil)

// Build draws the bar.
func (s *statusBar) Build() {
	vp := imgui.MainViewport()
	h := imgui.FrameHeight()
	flags := imgui.WindowFlagsNoScrollbar | imgui.WindowFlagsNoSavedSettings | imgui.WindowFlagsMenuBar
	if imgui.InternalBeginViewportSideBar("##StatusBar", vp, imgui.DirDown, h, flags) {
		if imgui.BeginMenuBar() {
			s.buildLine()
			imgui.EndMenuBar()
		}
	}
	imgui.End()
}

func (s *statusBar) buildLine() {
	renders := s.renders()
	text(registerText(s.src.StatusText(imgui.CurrentIO().Framerate(), renders))) // the path may have any characters
	if s.probe != nil {
		s.probe.Status = s.src.StatusText(0, renders) // the frame rate changes every frame: not in the probe
	}
	st, bad := s.src.ProjectStatus()
	if st == "" {
		return
	}
	text("  |  ")
	if bad {
		imgui.PushStyleColorVec4(imgui.ColText, imgui.Vec4{X: 1, Y: 0.45, Z: 0.35, W: 1})
	}
	text(st)
	if bad {
		imgui.PopStyleColor()
	}
	if s.probe != nil {
		s.probe.Status += "  |  " + st
	}
}

// helpWindows are Help → Shortcuts (F1 opens and closes it; Escape closes it) and Help → About.
type helpWindows struct {
	shortcuts, about bool
	probe            *prober
}

var _ g.Widget = (*helpWindows)(nil)

// Build draws the open help windows.
func (h *helpWindows) Build() {
	if h.shortcuts {
		// The window fits the whole table (up to the screen's height); Escape or F1 closes it.
		vp := imgui.MainViewport()
		imgui.SetNextWindowPosV(vp.Center(), imgui.CondAppearing, imgui.Vec2{X: 0.5, Y: 0.5})
		imgui.SetNextWindowSizeConstraints(imgui.Vec2{X: 300, Y: 100}, imgui.Vec2{X: vp.WorkSize().X, Y: vp.WorkSize().Y - 20})
		if imgui.BeginV("Shortcuts", &h.shortcuts, imgui.WindowFlagsAlwaysAutoResize|imgui.WindowFlagsNoSavedSettings) {
			h.probe.panel("Shortcuts")
			buildShortcutTable()
			if imgui.IsWindowFocused() && imgui.IsKeyPressedBool(imgui.KeyEscape) {
				h.shortcuts = false
			}
		}
		imgui.End()
	}
	if !h.shortcuts {
		h.probe.forget("Shortcuts")
	}
	if h.about {
		if imgui.BeginV("About Voltex Editor", &h.about, imgui.WindowFlagsAlwaysAutoResize) {
			imgui.Text("Voltex Editor")
			imgui.TextDisabled("A visual editor for ECS scenes: open, edit, spawn cube grids, export for games.")
			imgui.TextDisabled("Dear ImGui (giu) · OpenGL 4.1 core · an ECS world with change detection.")
		}
		imgui.End()
	}
}

func buildShortcutTable() {
	if !imgui.BeginTableV("##shortcuts", 2, imgui.TableFlagsRowBg|imgui.TableFlagsBorders|imgui.TableFlagsSizingFixedFit, imgui.Vec2{}, 0) {
		return
	}
	for i := range actions {
		ac := &actions[i]
		if len(ac.keys) == 0 {
			continue
		}
		imgui.TableNextRow()
		imgui.TableNextColumn()
		text(ac.label)
		imgui.TableNextColumn()
		text(ac.allShortcutText())
	}
	for _, m := range mouseHelp {
		imgui.TableNextRow()
		imgui.TableNextColumn()
		text(m[0])
		imgui.TableNextColumn()
		text(m[1])
	}
	imgui.EndTable()
}

// mouseHelp lists the viewport's mouse controls (Help → Shortcuts and docs/shortcuts.md).
var mouseHelp = [][2]string{
	{"Select", "Left click (Ctrl: toggle)"},
	{"Box select", "Left drag (Ctrl: add)"},
	{"Orbit", "Middle drag, or Alt+left drag"},
	{"Pan", "Shift+middle drag"},
	{"Zoom to cursor", "Mouse wheel"},
	{"Fly", "Hold right button + WASD/QE (Shift faster)"},
	{"Snap gizmo", "Hold Ctrl while dragging (or toolbar Snap)"},
	{"Snap a vertex onto another's", "Hold V while moving"},
}
