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
	run     func(c commands)
	enabled func(c commands) bool // nil = always
	// scope limits a shortcut to when the mouse is over the viewport (W/E/R/F and the like).
	viewportOnly bool
	sepBefore    bool
	// mark, if set, times the action for the probe (probe.Mark: "undo", "select all"…; make bench-ui reads them).
	mark string
}

const (
	ctrl  = imgui.KeyChord(imgui.ModCtrl)
	shift = imgui.KeyChord(imgui.ModShift)
)

func key(k imgui.Key) imgui.KeyChord { return imgui.KeyChord(k) }

// actions is the editor's command table, in menu order.
var actions = []action{
	{menu: "File", label: "New", keys: []imgui.KeyChord{ctrl | key(imgui.KeyN)}, run: commands.cmdNew},
	{menu: "File", label: "Open...", keys: []imgui.KeyChord{ctrl | key(imgui.KeyO)}, run: commands.cmdOpen},
	{menu: "File", label: "Save", keys: []imgui.KeyChord{ctrl | key(imgui.KeyS)}, run: commands.cmdSave, sepBefore: true, mark: "save"},
	{menu: "File", label: "Save As...", keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyS)}, run: commands.cmdSaveAs},
	{menu: "File", label: "Export for Game...", keys: []imgui.KeyChord{ctrl | key(imgui.KeyE)}, run: commands.cmdExport},
	{menu: "File", label: "Quit", keys: []imgui.KeyChord{ctrl | key(imgui.KeyQ)}, run: commands.cmdQuit, sepBefore: true},

	{menu: "Edit", label: "Undo", keys: []imgui.KeyChord{ctrl | key(imgui.KeyZ)}, run: commands.cmdUndo, enabled: commands.canUndo, mark: "undo"},
	{menu: "Edit", label: "Redo", keys: []imgui.KeyChord{ctrl | key(imgui.KeyY), ctrl | shift | key(imgui.KeyZ)}, run: commands.cmdRedo, enabled: commands.canRedo, mark: "redo"},
	{menu: "Edit", label: "Copy", keys: []imgui.KeyChord{ctrl | key(imgui.KeyC)}, run: commands.cmdCopy, enabled: commands.hasSelection, sepBefore: true},
	{menu: "Edit", label: "Paste", keys: []imgui.KeyChord{ctrl | key(imgui.KeyV)}, run: commands.cmdPaste, enabled: commands.editable},
	{menu: "Edit", label: "Duplicate", keys: []imgui.KeyChord{ctrl | key(imgui.KeyD)}, run: commands.cmdDuplicate, enabled: commands.hasSelection},
	{menu: "Edit", label: "Delete", keys: []imgui.KeyChord{key(imgui.KeyDelete)}, run: commands.cmdDelete, enabled: commands.hasSelection, mark: "delete"},
	{menu: "Edit", label: "Select All", keys: []imgui.KeyChord{ctrl | key(imgui.KeyA)}, run: commands.cmdSelectAll, sepBefore: true, mark: "select all"},
	{menu: "Edit", label: "Deselect All", keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyA)}, run: commands.cmdDeselectAll, mark: "deselect all"},
	{menu: "Edit", label: "Invert Selection", keys: []imgui.KeyChord{ctrl | key(imgui.KeyI)}, run: commands.cmdInvertSelection, mark: "invert selection"},
	{menu: "Edit", label: "Rename", keys: []imgui.KeyChord{key(imgui.KeyF2)}, run: commands.cmdRename, enabled: commands.hasSelection},

	{menu: "Entity", label: "Create Empty", keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyN)}, run: commands.cmdCreateEmpty, enabled: commands.editable},
	{menu: "Entity", label: "Create Cube", run: commands.cmdCreateCube, enabled: commands.editable},
	{menu: "Entity", label: "Spawn Cube Grid...", keys: []imgui.KeyChord{ctrl | key(imgui.KeyG)}, run: commands.cmdSpawnGrid, enabled: commands.editable},
	{menu: "Entity", label: "Instantiate Prefab...", run: commands.cmdInstantiatePrefab, enabled: commands.editable, sepBefore: true},
	{menu: "Entity", label: "Save Selection as Prefab...", run: commands.cmdSaveAsPrefab, enabled: commands.hasSelection},
	{menu: "Entity", label: "Revert Prefab Instance", run: commands.cmdRevertInstance, enabled: commands.inInstance},
	{menu: "Entity", label: "Apply Instance to Prefab", run: commands.cmdApplyInstance, enabled: commands.inInstance},
	{menu: "Entity", label: "Unpack Prefab", run: commands.cmdUnpackPrefab, enabled: commands.inInstance},

	{menu: "Play", label: "Play / Stop", keys: []imgui.KeyChord{ctrl | key(imgui.KeyP)}, run: commands.cmdPlayStop},
	{menu: "Play", label: "Pause / Resume", keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyP)}, run: commands.cmdPause, enabled: commands.playing},
	{menu: "Play", label: "Step", keys: []imgui.KeyChord{key(imgui.KeyF10)}, run: commands.cmdStep, enabled: commands.playing},

	{label: "Translate gizmo", keys: []imgui.KeyChord{key(imgui.KeyW)}, run: commands.cmdGizmoTranslate, viewportOnly: true},
	{label: "Rotate gizmo", keys: []imgui.KeyChord{key(imgui.KeyE)}, run: commands.cmdGizmoRotate, viewportOnly: true},
	{label: "Scale gizmo", keys: []imgui.KeyChord{key(imgui.KeyR)}, run: commands.cmdGizmoScale, viewportOnly: true},
	{label: "Toggle local/world gizmo", keys: []imgui.KeyChord{key(imgui.KeyX)}, run: commands.cmdGizmoSpace, viewportOnly: true},
	{label: "Frame selection", keys: []imgui.KeyChord{key(imgui.KeyF)}, run: commands.cmdFrame, viewportOnly: true, mark: "frame"},

	{menu: "View", label: "Stats Overlay", run: commands.cmdToggleStats},
	{menu: "View", label: "Reset Layout", run: commands.cmdResetLayout, sepBefore: true},

	{menu: "Help", label: "Shortcuts", keys: []imgui.KeyChord{key(imgui.KeyF1)}, run: commands.cmdShowShortcuts},
	{menu: "Help", label: "About Voltex Editor", run: commands.cmdAbout},
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

func (ac *action) isEnabled(c commands) bool { return ac.enabled == nil || ac.enabled(c) }

// shortcutContext is what decides whether shortcuts fire this frame.
type shortcutContext struct {
	textInput bool // a text field has the keyboard: typing "e" into a name must not switch the gizmo
	modal     bool // a dialog owns the keyboard
	viewport  bool // the mouse is over the viewport: the viewport-only keys (W, E, R, X, F) work
	flying    bool // the right button is down (WASD fly): the viewport-only keys do not fire
}

// shortcutFor returns the action whose chord pressed reports pressed this frame and that is enabled, nil for none.
func shortcutFor(c commands, sc shortcutContext, pressed func(imgui.KeyChord) bool) *action {
	if sc.textInput || sc.modal {
		return nil
	}
	for i := range actions {
		ac := &actions[i]
		if ac.viewportOnly && (!sc.viewport || sc.flying) {
			continue
		}
		for _, k := range ac.keys {
			if pressed(k) && ac.isEnabled(c) {
				return ac
			}
		}
	}
	return nil
}

// handleShortcuts runs the action whose chord was pressed this frame (see shortcutFor).
func handleShortcuts(c commands, modal, overViewport bool) {
	sc := shortcutContext{textInput: imgui.CurrentIO().WantTextInput(), modal: modal, viewport: overViewport,
		flying: imgui.IsMouseDown(imgui.MouseButtonRight)}
	if ac := shortcutFor(c, sc, chordPressed); ac != nil {
		runAction(c, ac)
	}
}

// chordPressed is IsKeyChordPressed with exact modifiers (Ctrl+S must not also fire Ctrl+Shift+S's action). A quick
// Ctrl+Q whose Ctrl-up and Q-down reach the same frame (xdotool does this; so do fast typists on a busy machine) is
// still Ctrl+Q: chordKeeper holds Ctrl for that frame.
func chordPressed(c imgui.KeyChord) bool {
	io := imgui.CurrentIO()
	if io.KeyCtrl() != (c&ctrl != 0) || io.KeyShift() != (c&shift != 0) || io.KeyAlt() {
		return false
	}
	return imgui.IsKeyPressedBoolV(imgui.Key(c&^(ctrl|shift)), false)
}

// runAction runs ac, timing it for the probe when it has a mark (commands.timed).
func runAction(c commands, ac *action) {
	if ac.mark == "" {
		ac.run(c)
		return
	}
	c.timed(ac.mark, func() { ac.run(c) })
}
