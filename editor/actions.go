package editor

import (
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
)

// action is one user command: it appears in a menu, may have shortcuts, and is listed in Help → Shortcuts and in
// docs/shortcuts.md (TestShortcutsDocIsCurrent keeps that file in step with this table).
type action struct {
	menu    string           // top-level menu ("" = shortcut only)
	label   string           // menu item label
	keys    []imgui.KeyChord // shortcuts; the first is shown in the menu
	run     func(a *App)
	enabled func(a *App) bool // nil = always
	// scope limits a shortcut to when the mouse is over the viewport (W/E/R/F and the like).
	viewportOnly bool
	sepBefore    bool
}

const (
	ctrl  = imgui.KeyChord(imgui.ModCtrl)
	shift = imgui.KeyChord(imgui.ModShift)
)

func key(k imgui.Key) imgui.KeyChord { return imgui.KeyChord(k) }

// actions is the editor's command table, in menu order.
var actions = []action{
	{menu: "File", label: "New", keys: []imgui.KeyChord{ctrl | key(imgui.KeyN)}, run: (*App).cmdNew},
	{menu: "File", label: "Open...", keys: []imgui.KeyChord{ctrl | key(imgui.KeyO)}, run: (*App).cmdOpen},
	{menu: "File", label: "Save", keys: []imgui.KeyChord{ctrl | key(imgui.KeyS)}, run: (*App).cmdSave, sepBefore: true},
	{menu: "File", label: "Save As...", keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyS)}, run: (*App).cmdSaveAs},
	{menu: "File", label: "Export for Game...", keys: []imgui.KeyChord{ctrl | key(imgui.KeyE)}, run: (*App).cmdExport},
	{menu: "File", label: "Quit", keys: []imgui.KeyChord{ctrl | key(imgui.KeyQ)}, run: (*App).cmdQuit, sepBefore: true},

	{menu: "Edit", label: "Undo", keys: []imgui.KeyChord{ctrl | key(imgui.KeyZ)}, run: (*App).cmdUndo, enabled: (*App).canUndo},
	{menu: "Edit", label: "Redo", keys: []imgui.KeyChord{ctrl | key(imgui.KeyY), ctrl | shift | key(imgui.KeyZ)}, run: (*App).cmdRedo, enabled: (*App).canRedo},
	{menu: "Edit", label: "Copy", keys: []imgui.KeyChord{ctrl | key(imgui.KeyC)}, run: (*App).cmdCopy, enabled: (*App).hasSelection, sepBefore: true},
	{menu: "Edit", label: "Paste", keys: []imgui.KeyChord{ctrl | key(imgui.KeyV)}, run: (*App).cmdPaste, enabled: (*App).editable},
	{menu: "Edit", label: "Duplicate", keys: []imgui.KeyChord{ctrl | key(imgui.KeyD)}, run: (*App).cmdDuplicate, enabled: (*App).hasSelection},
	{menu: "Edit", label: "Delete", keys: []imgui.KeyChord{key(imgui.KeyDelete)}, run: (*App).cmdDelete, enabled: (*App).hasSelection},
	{menu: "Edit", label: "Select All", keys: []imgui.KeyChord{ctrl | key(imgui.KeyA)}, run: (*App).cmdSelectAll, sepBefore: true},
	{menu: "Edit", label: "Rename", keys: []imgui.KeyChord{key(imgui.KeyF2)}, run: (*App).cmdRename, enabled: (*App).hasSelection},

	{menu: "Entity", label: "Create Empty", keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyN)}, run: (*App).cmdCreateEmpty, enabled: (*App).editable},
	{menu: "Entity", label: "Create Cube", run: (*App).cmdCreateCube, enabled: (*App).editable},
	{menu: "Entity", label: "Spawn Cube Grid...", keys: []imgui.KeyChord{ctrl | key(imgui.KeyG)}, run: (*App).cmdSpawnGrid, enabled: (*App).editable},
	{menu: "Entity", label: "Instantiate Prefab...", run: (*App).cmdInstantiatePrefab, enabled: (*App).editable, sepBefore: true},
	{menu: "Entity", label: "Save Selection as Prefab...", run: (*App).cmdSaveAsPrefab, enabled: (*App).hasSelection},
	{menu: "Entity", label: "Revert Prefab Instance", run: (*App).cmdRevertInstance, enabled: (*App).inInstance},
	{menu: "Entity", label: "Apply Instance to Prefab", run: (*App).cmdApplyInstance, enabled: (*App).inInstance},
	{menu: "Entity", label: "Unpack Prefab", run: (*App).cmdUnpackPrefab, enabled: (*App).inInstance},

	{menu: "Play", label: "Play / Stop", keys: []imgui.KeyChord{ctrl | key(imgui.KeyP)}, run: (*App).cmdPlayStop},
	{menu: "Play", label: "Pause / Resume", keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyP)}, run: (*App).cmdPause, enabled: (*App).playing},
	{menu: "Play", label: "Step", keys: []imgui.KeyChord{key(imgui.KeyF10)}, run: (*App).cmdStep, enabled: (*App).playing},

	{label: "Translate gizmo", keys: []imgui.KeyChord{key(imgui.KeyW)}, run: (*App).cmdGizmoTranslate, viewportOnly: true},
	{label: "Rotate gizmo", keys: []imgui.KeyChord{key(imgui.KeyE)}, run: (*App).cmdGizmoRotate, viewportOnly: true},
	{label: "Scale gizmo", keys: []imgui.KeyChord{key(imgui.KeyR)}, run: (*App).cmdGizmoScale, viewportOnly: true},
	{label: "Toggle local/world gizmo", keys: []imgui.KeyChord{key(imgui.KeyX)}, run: (*App).cmdGizmoSpace, viewportOnly: true},
	{label: "Frame selection", keys: []imgui.KeyChord{key(imgui.KeyF)}, run: (*App).cmdFrame, viewportOnly: true},

	{menu: "View", label: "Stats Overlay", run: (*App).cmdToggleStats},
	{menu: "View", label: "Reset Layout", run: (*App).cmdResetLayout, sepBefore: true},

	{menu: "Help", label: "Shortcuts", keys: []imgui.KeyChord{key(imgui.KeyF1)}, run: (*App).cmdShowShortcuts},
	{menu: "Help", label: "About Voltex Editor", run: (*App).cmdAbout},
}

// menus lists the top-level menus in order.
var menus = []string{"File", "Edit", "Entity", "View", "Play", "Help"}

// chordName renders a key chord as "Ctrl+Shift+S".
func chordName(c imgui.KeyChord) string {
	var parts []string
	if c&ctrl != 0 {
		parts = append(parts, "Ctrl")
	}
	if c&shift != 0 {
		parts = append(parts, "Shift")
	}
	k := imgui.Key(c &^ (ctrl | shift | imgui.KeyChord(imgui.ModAlt) | imgui.KeyChord(imgui.ModSuper)))
	name := imgui.KeyName(k)
	switch k {
	case imgui.KeyDelete:
		name = "Del"
	}
	parts = append(parts, name)
	return strings.Join(parts, "+")
}

// shortcutText is what a menu item shows on its right.
func (ac *action) shortcutText() string {
	if len(ac.keys) == 0 {
		return ""
	}
	return chordName(ac.keys[0])
}

// allShortcutText lists every chord of an action ("Ctrl+Y, Ctrl+Shift+Z").
func (ac *action) allShortcutText() string {
	var s []string
	for _, k := range ac.keys {
		s = append(s, chordName(k))
	}
	return strings.Join(s, ", ")
}

func (ac *action) isEnabled(a *App) bool { return ac.enabled == nil || ac.enabled(a) }

// handleShortcuts runs the action whose chord was pressed this frame. Nothing fires while a text field has the
// keyboard (typing "e" into a name must not switch the gizmo), and viewport-only keys need the mouse over it.
func (a *App) handleShortcuts() {
	if imgui.CurrentIO().WantTextInput() || a.modalOpen() {
		return
	}
	for i := range actions {
		ac := &actions[i]
		if ac.viewportOnly && (!a.viewportHovered || imgui.IsMouseDown(imgui.MouseButtonRight)) { // not while flying (WASD)
			continue
		}
		for _, k := range ac.keys {
			if chordPressed(k) && ac.isEnabled(a) {
				ac.run(a)
				return
			}
		}
	}
}

// chordPressed is IsKeyChordPressed with exact modifiers (Ctrl+S must not also fire Ctrl+Shift+S's action) that
// also counts a modifier released in the same frame as the key press: a quick Ctrl+Q whose Ctrl-up and Q-down
// arrive together (xdotool does this; so do fast typists on a busy machine) is still Ctrl+Q.
func chordPressed(c imgui.KeyChord) bool {
	io := imgui.CurrentIO()
	wantCtrl, wantShift := c&ctrl != 0, c&shift != 0
	held := func(down bool, l, r imgui.Key) bool { return down || imgui.IsKeyReleased(l) || imgui.IsKeyReleased(r) }
	if held(io.KeyCtrl(), imgui.KeyLeftCtrl, imgui.KeyRightCtrl) != wantCtrl ||
		held(io.KeyShift(), imgui.KeyLeftShift, imgui.KeyRightShift) != wantShift || io.KeyAlt() {
		return false
	}
	k := imgui.Key(c &^ (ctrl | shift))
	return imgui.IsKeyPressedBoolV(k, false)
}

// buildMainMenu draws the menu bar from the action table.
func (a *App) buildMainMenu() {
	if a.probe != nil {
		a.probe.state.MenuBar = false
		clear(a.probe.state.Menus)
	}
	if !imgui.BeginMainMenuBar() {
		return
	}
	if a.probe != nil {
		a.probe.state.MenuBar = true
	}
	for _, m := range menus {
		open := imgui.BeginMenu(m)
		a.probe.menuItem(m)
		if !open {
			continue
		}
		for i := range actions {
			ac := &actions[i]
			if ac.menu != m {
				continue
			}
			if ac.sepBefore {
				imgui.Separator()
			}
			if m == "File" && ac.label == "Save" {
				a.buildRecentMenu()
				imgui.Separator()
			}
			checked := ac.label == "Stats Overlay" && a.vp.showStats
			if imgui.MenuItemBoolV(ac.label, ac.shortcutText(), checked, ac.isEnabled(a)) {
				ac.run(a)
			}
			a.probe.menuItem(m + "/" + ac.label)
		}
		if m == "View" {
			if imgui.BeginMenu("Gizmo Snapping (hold Ctrl)") {
				changed := false
				imgui.SetNextItemWidth(120)
				changed = imgui.DragFloatV("Move step", &a.settings.SnapTranslate, 0.01, 0.001, 1000, "%.3f", imgui.SliderFlagsAlwaysClamp) || changed
				imgui.SetNextItemWidth(120)
				changed = imgui.DragFloatV("Rotate step (°)", &a.settings.SnapRotate, 0.5, 0.1, 180, "%.1f", imgui.SliderFlagsAlwaysClamp) || changed
				imgui.SetNextItemWidth(120)
				changed = imgui.DragFloatV("Scale step", &a.settings.SnapScale, 0.01, 0.001, 100, "%.3f", imgui.SliderFlagsAlwaysClamp) || changed
				if changed {
					a.snapDirty = true
				}
				imgui.EndMenu()
			}
			imgui.Separator()
			for _, p := range panelNames {
				open := a.panelOpen[p]
				if imgui.MenuItemBoolV(p, "", open, true) {
					a.panelOpen[p] = !open
				}
			}
		}
		imgui.EndMenu()
	}
	a.buildToolbar()
	imgui.EndMainMenuBar()
}
