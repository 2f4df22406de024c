package editor

import (
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/viewport"
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
	alt   = imgui.KeyChord(imgui.ModAlt)
)

func key(k imgui.Key) imgui.KeyChord { return imgui.KeyChord(k) }

// actions is the editor's command table, in menu order.
var actions = []action{
	{menu: "File", label: "New", keys: []imgui.KeyChord{ctrl | key(imgui.KeyN)}, run: commands.CmdNew},
	{menu: "File", label: "Open...", keys: []imgui.KeyChord{ctrl | key(imgui.KeyO)}, run: commands.CmdOpen},
	{menu: "File", label: "Save", keys: []imgui.KeyChord{ctrl | key(imgui.KeyS)}, run: commands.CmdSave, sepBefore: true, mark: "save"},
	{menu: "File", label: "Save As...", keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyS)}, run: commands.CmdSaveAs},
	{menu: "File", label: "Export for Game...", keys: []imgui.KeyChord{ctrl | key(imgui.KeyE)}, run: commands.CmdExport},
	{menu: "File", label: "Attach to Game...", run: commands.CmdAttach, sepBefore: true},
	{menu: "File", label: "Snapshot...", run: commands.CmdSnapshot, enabled: commands.Attached},
	{menu: "File", label: "Snapshot Selection...", run: commands.CmdSnapshotSelection, enabled: commands.AttachedSelection},
	{menu: "File", label: "Diff with Loaded Scene...", run: commands.CmdDiffLive, enabled: commands.Attached},
	{menu: "File", label: "Reconnect to Game", run: commands.CmdLiveReconnect, enabled: commands.LiveLost},
	{menu: "File", label: "Detach", run: commands.CmdDetach, enabled: commands.Attached},
	{menu: "File", label: "Quit", keys: []imgui.KeyChord{ctrl | key(imgui.KeyQ)}, run: commands.CmdQuit, sepBefore: true},

	{menu: "Edit", label: "Undo", keys: []imgui.KeyChord{ctrl | key(imgui.KeyZ)}, run: commands.CmdUndo, enabled: commands.CanUndo, mark: "undo"},
	{menu: "Edit", label: "Redo", keys: []imgui.KeyChord{ctrl | key(imgui.KeyY), ctrl | shift | key(imgui.KeyZ)}, run: commands.CmdRedo, enabled: commands.CanRedo, mark: "redo"},
	{menu: "Edit", label: "Copy", keys: []imgui.KeyChord{ctrl | key(imgui.KeyC)}, run: commands.CmdCopy, enabled: commands.CanCopyOrDuplicate, sepBefore: true},
	{menu: "Edit", label: "Paste", keys: []imgui.KeyChord{ctrl | key(imgui.KeyV)}, run: commands.CmdPaste, enabled: commands.CanCreate},
	{menu: "Edit", label: "Duplicate", keys: []imgui.KeyChord{ctrl | key(imgui.KeyD)}, run: commands.CmdDuplicate, enabled: commands.CanCopyOrDuplicate},
	{menu: "Edit", label: "Delete", keys: []imgui.KeyChord{key(imgui.KeyDelete)}, run: commands.CmdDelete, enabled: commands.CanDeleteOrRename, mark: "delete"},
	{menu: "Edit", label: "Select All", keys: []imgui.KeyChord{ctrl | key(imgui.KeyA)}, run: commands.CmdSelectAll, sepBefore: true, mark: "select all"},
	{menu: "Edit", label: "Deselect All", keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyA)}, run: commands.CmdDeselectAll, mark: "deselect all"},
	{menu: "Edit", label: "Invert Selection", keys: []imgui.KeyChord{ctrl | key(imgui.KeyI)}, run: commands.CmdInvertSelection, mark: "invert selection"},
	{menu: "Edit", label: "Rename", keys: []imgui.KeyChord{key(imgui.KeyF2)}, run: commands.CmdRename, enabled: commands.CanDeleteOrRename},

	{menu: "Entity", label: "Create Empty", keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyN)}, run: commands.CmdCreateEmpty, enabled: commands.CanCreate},
	{menu: "Entity", label: "Create Cube", run: commands.CmdCreateCube, enabled: commands.CanCreate},
	{menu: "Entity", label: "Spawn Cube Grid...", keys: []imgui.KeyChord{ctrl | key(imgui.KeyG)}, run: commands.CmdSpawnGrid, enabled: commands.Editable},
	{menu: "Entity", label: "Instantiate Prefab...", run: commands.CmdInstantiatePrefab, enabled: commands.Editable, sepBefore: true},
	{menu: "Entity", label: "Save Selection as Prefab...", run: commands.CmdSaveAsPrefab, enabled: commands.HasSelection},
	{menu: "Entity", label: "Revert Prefab Instance", run: commands.CmdRevertInstance, enabled: commands.InInstance},
	{menu: "Entity", label: "Apply Instance to Prefab", run: commands.CmdApplyInstance, enabled: commands.InInstance},
	{menu: "Entity", label: "Unpack Prefab", run: commands.CmdUnpackPrefab, enabled: commands.InInstance},
	{menu: "Entity", label: "Open Prefab", run: commands.CmdOpenPrefab, enabled: commands.InInstance},
	{menu: "Entity", label: "Hide Selected", keys: []imgui.KeyChord{key(imgui.KeyH)}, run: commands.CmdHide, enabled: commands.HasSelection, sepBefore: true},
	{menu: "Entity", label: "Unhide All", keys: []imgui.KeyChord{alt | key(imgui.KeyH)}, run: commands.CmdUnhideAll},
	{menu: "Entity", label: "Isolate Selected / Show All", keys: []imgui.KeyChord{shift | key(imgui.KeyH), key(imgui.KeySlash)}, run: commands.CmdIsolate},
	{menu: "Entity", label: "Lock / Unlock Selected", run: commands.CmdToggleLock, enabled: commands.HasSelection},

	{menu: "Play", label: "Play / Stop", keys: []imgui.KeyChord{ctrl | key(imgui.KeyP)}, run: commands.CmdPlayStop},
	{menu: "Play", label: "Pause / Resume", keys: []imgui.KeyChord{key(imgui.KeyF7)}, run: commands.CmdPause, enabled: commands.Playing},
	{menu: "Play", label: "Step", keys: []imgui.KeyChord{key(imgui.KeyF10)}, run: commands.CmdStep, enabled: commands.Playing},

	{label: "Translate gizmo", keys: []imgui.KeyChord{key(imgui.KeyW)}, run: commands.CmdGizmoTranslate, viewportOnly: true},
	{label: "Rotate gizmo", keys: []imgui.KeyChord{key(imgui.KeyE)}, run: commands.CmdGizmoRotate, viewportOnly: true},
	{label: "Scale gizmo", keys: []imgui.KeyChord{key(imgui.KeyR)}, run: commands.CmdGizmoScale, viewportOnly: true},
	{label: "Toggle local/world gizmo", keys: []imgui.KeyChord{key(imgui.KeyX)}, run: commands.CmdGizmoSpace, viewportOnly: true},
	{label: "Frame selection", keys: []imgui.KeyChord{key(imgui.KeyF)}, run: commands.CmdFrame, viewportOnly: true, mark: "frame"},

	{menu: "View", label: "Front View", keys: viewKeys(imgui.KeyKeypad1, imgui.Key1, 0), run: axisView(viewport.ViewFront), viewportOnly: true},
	{menu: "View", label: "Back View", keys: viewKeys(imgui.KeyKeypad1, imgui.Key1, ctrl), run: axisView(viewport.ViewBack), viewportOnly: true},
	{menu: "View", label: "Right View", keys: viewKeys(imgui.KeyKeypad3, imgui.Key3, 0), run: axisView(viewport.ViewRight), viewportOnly: true},
	{menu: "View", label: "Left View", keys: viewKeys(imgui.KeyKeypad3, imgui.Key3, ctrl), run: axisView(viewport.ViewLeft), viewportOnly: true},
	{menu: "View", label: "Top View", keys: viewKeys(imgui.KeyKeypad7, imgui.Key7, 0), run: axisView(viewport.ViewTop), viewportOnly: true},
	{menu: "View", label: "Bottom View", keys: viewKeys(imgui.KeyKeypad7, imgui.Key7, ctrl), run: axisView(viewport.ViewBottom), viewportOnly: true},
	{menu: "View", label: "Perspective / Orthographic", keys: viewKeys(imgui.KeyKeypad5, imgui.Key5, 0), run: commands.CmdToggleOrtho, viewportOnly: true},

	{menu: "View", label: fourViewsLabel, run: commands.CmdToggleSplit},

	{menu: "View", label: paletteLabel, sepBefore: true, keys: []imgui.KeyChord{ctrl | shift | key(imgui.KeyP)}, run: commands.CmdPalette},
	{menu: "View", label: "Stats Overlay", run: commands.CmdToggleStats, sepBefore: true},
	{menu: "View", label: "Reset Layout", run: commands.CmdResetLayout, sepBefore: true},

	{menu: "Help", label: "Shortcuts", keys: []imgui.KeyChord{key(imgui.KeyF1)}, run: commands.CmdShowShortcuts},
	{menu: "Help", label: "About Voltex Editor", run: commands.CmdAbout},
}

// viewKeys are an axis view's chords: the numpad key (Blender's) and the number row's, for keyboards without one.
func viewKeys(numpad, row imgui.Key, mod imgui.KeyChord) []imgui.KeyChord {
	return []imgui.KeyChord{mod | key(numpad), mod | key(row)}
}

// axisView is the action that turns the camera to look along v.
func axisView(v viewport.AxisView) func(commands) { return func(c commands) { c.CmdView(v) } }

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
	if c&alt != 0 {
		parts = append(parts, "Alt")
	}
	k := imgui.Key(c &^ (ctrl | shift | alt | imgui.KeyChord(imgui.ModSuper)))
	name := imgui.KeyName(k)
	switch k {
	case imgui.KeyDelete:
		name = "Del"
	case imgui.KeySlash:
		name = "/"
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
	if io.KeyCtrl() != (c&ctrl != 0) || io.KeyShift() != (c&shift != 0) || io.KeyAlt() != (c&alt != 0) {
		return false
	}
	return imgui.IsKeyPressedBoolV(imgui.Key(c&^(ctrl|shift|alt)), false)
}

// runAction runs ac, timing it for the probe when it has a mark (commands.Timed).
func runAction(c commands, ac *action) {
	if ac.mark == "" {
		ac.run(c)
		return
	}
	c.Timed(ac.mark, func() { ac.run(c) })
}
