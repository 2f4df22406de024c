package editor

import (
	"path/filepath"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/viewport"
)

// commands is what the action table (actions.go) runs and asks: every menu item and shortcut of the editor.
// appCommands implements it; the menu bar and the shortcut handler see only this.
type commands interface {
	// File
	CmdNew()
	CmdOpen()
	CmdSave()
	CmdSaveAs()
	CmdExport()
	CmdAttach()
	CmdSnapshot()
	CmdSnapshotSelection()
	CmdDiffLive()
	CmdLiveReconnect()
	CmdDetach()
	CmdQuit()
	// Edit
	CmdUndo()
	CmdRedo()
	CmdCopy()
	CmdPaste()
	CmdDuplicate()
	CmdDelete()
	CmdSelectAll()
	CmdDeselectAll()
	CmdInvertSelection()
	CmdRename()
	// Entity
	CmdCreateEmpty()
	CmdCreateCube()
	CmdSpawnGrid()
	CmdInstantiatePrefab()
	CmdSaveAsPrefab()
	CmdRevertInstance()
	CmdApplyInstance()
	CmdUnpackPrefab()
	CmdOpenPrefab()
	CmdHide()
	CmdUnhideAll()
	CmdIsolate()
	CmdToggleLock()
	// Play
	CmdPlayStop()
	CmdPause()
	CmdStep()
	// Viewport
	CmdGizmoTranslate()
	CmdGizmoRotate()
	CmdGizmoScale()
	CmdGizmoSpace()
	CmdFrame()
	CmdView(v viewport.AxisView)
	CmdToggleOrtho()
	CmdToggleSplit()
	// View, Help
	CmdPalette()
	CmdToggleStats()
	CmdResetLayout()
	CmdShowShortcuts()
	CmdAbout()
	// When items are enabled.
	CanUndo() bool
	CanRedo() bool
	HasSelection() bool
	CanDeleteOrRename() bool
	CanCopyOrDuplicate() bool
	Editable() bool
	CanCreate() bool
	Playing() bool
	InInstance() bool
	Attached() bool
	AttachedSelection() bool
	LiveLost() bool
	// Timed runs an action, timing it for the probe under what (probe.Mark).
	Timed(what string, run func())
}

// appCommands are the editor's commands: the workspace's (the document, files, play mode) and the window's own
// (the gizmo, framing, the layout, the help windows), which only steer a panel.
type appCommands struct {
	*workspace.Workspace
	a *App
}

var _ menuCommands = appCommands{}

func (c appCommands) CmdRename()         { c.a.hier.startRename() }
func (c appCommands) CmdAttach()         { c.a.dialogs.attach = newAttachDialog(c.Live().Attach) }
func (c appCommands) CmdGizmoTranslate() { c.a.vp.setGizmo(gizmoTranslate) }
func (c appCommands) CmdGizmoRotate()    { c.a.vp.setGizmo(gizmoRotate) }
func (c appCommands) CmdGizmoScale()     { c.a.vp.setGizmo(gizmoScale) }
func (c appCommands) CmdGizmoSpace()     { c.a.vp.toggleGizmoSpace() }
func (c appCommands) CmdToggleOrtho()    { c.a.split.under().toggleOrtho() }
func (c appCommands) CmdToggleSplit()    { c.a.split.toggle() }
func (c appCommands) CmdUnhideAll()      { c.a.flags.unhideAll() }

// The live link's commands and when they are enabled (workspace.Live).
func (c appCommands) CmdSnapshot()            { c.Live().CmdSnapshot() }
func (c appCommands) CmdSnapshotSelection()   { c.Live().CmdSnapshotSelection() }
func (c appCommands) CmdDiffLive()            { c.Live().CmdDiff() }
func (c appCommands) CmdLiveReconnect()       { c.Live().CmdReconnect() }
func (c appCommands) CmdDetach()              { c.Live().Detach() }
func (c appCommands) Attached() bool          { return c.Live().Attached() }
func (c appCommands) AttachedSelection() bool { return c.Live().AttachedSelection() }
func (c appCommands) LiveLost() bool          { return c.Live().Lost() }

// The prefab commands, the inspector's overrides and the Assets panel's prefabs (workspace.Prefabs).
func (c appCommands) CmdInstantiatePrefab()   { c.Prefabs().CmdInstantiate() }
func (c appCommands) CmdSaveAsPrefab()        { c.Prefabs().CmdSaveAs() }
func (c appCommands) CmdRevertInstance()      { c.Prefabs().CmdRevert() }
func (c appCommands) CmdApplyInstance()       { c.Prefabs().CmdApply() }
func (c appCommands) CmdUnpackPrefab()        { c.Prefabs().CmdUnpack() }
func (c appCommands) PrefabList() []string    { return c.Prefabs().List() }
func (c appCommands) PlacePrefab(path string) { c.Prefabs().Place(path) }

// RevertOverride reverts one override of the entities (the inspector's Revert).
func (c appCommands) RevertOverride(es []ecs.Entity, comp, path string) error {
	return c.Prefabs().RevertOverride(es, comp, path)
}

// ApplyOverride writes one override of e into its prefab file (the inspector's Apply).
func (c appCommands) ApplyOverride(e ecs.Entity, comp, path string) error {
	return c.Prefabs().ApplyOverride(e, comp, path)
}

// CmdHide hides the selected entities (not drawn, not picked) and deselects them.
func (c appCommands) CmdHide() {
	sel := c.Doc().Selection()
	c.a.flags.hide(sel.Entities())
	sel.Select()
}

// CmdOpenPrefab opens the prefab of the active entity's instance, to edit it alone (prefab mode): the breadcrumb
// above the hierarchy leads back to the scene, whose instances then show the prefab as it was saved.
func (c appCommands) CmdOpenPrefab() {
	d := c.Doc()
	e, ok := d.Selection().Active()
	if !ok {
		return
	}
	path, ok := prefabOf(d, e)
	switch {
	case d.Path() == "":
		c.a.dialogs.alert("Open Prefab", "Save the scene first: prefab mode comes back to its file.")
		return
	case path == "":
		return
	case !ok:
		c.a.dialogs.alert("Open Prefab", filepath.Base(path)+" is a model: change it where it was made, then export it again.")
		return
	}
	c.a.trail.push(d.Path(), path)
	c.OpenRecent(path)
}

// CmdIsolate shows only the selected entities, or everything again when something is isolated.
func (c appCommands) CmdIsolate() { c.a.flags.isolate(c.Doc().Selection().Entities()) }

// CmdToggleLock locks the selected entities (drawn, not picked nor moved), or unlocks them.
func (c appCommands) CmdToggleLock() { c.a.flags.toggleLock(c.Doc().Selection().Entities()) }

// CmdFrame points the camera at the selection; with nothing selected, at the hierarchy's search results, or at
// everything when there is no search.
func (c appCommands) CmdFrame() {
	if c.Doc().Selection().Len() == 0 {
		if found := c.a.hier.searchResults(); len(found) > 0 {
			c.a.split.under().frame(found)
			return
		}
	}
	c.a.split.under().frameSelection()
}

// CmdView turns the viewport's camera to look along an axis (orthographic).
func (c appCommands) CmdView(v viewport.AxisView) { c.a.split.under().axisView(v) }
func (c appCommands) CmdResetLayout()             { c.a.resetLayout() }
func (c appCommands) CmdShowShortcuts()           { c.a.help.shortcuts = !c.a.help.shortcuts } // F1 opens and closes it
func (c appCommands) CmdAbout()                   { c.a.help.about = true }
func (c appCommands) CmdPalette()                 { c.a.palette.toggle() }

// CmdToggleStats shows or hides the viewport's stats overlay, and remembers it in the settings.
func (c appCommands) CmdToggleStats() {
	vp := c.a.vp
	vp.showStats = !vp.showStats
	c.Settings().ShowStats = vp.showStats
	c.SaveSettings()
}
