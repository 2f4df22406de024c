package editor

import (
	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/assets/watch"
)

// The cmd* methods are the actions of the command table (actions.go).

func (a *App) notYet(what string) { a.console.Warnf("%s is not available yet", what) }

func (a *App) cmdNew()            { a.notYet("New") }
func (a *App) cmdOpen()           { a.notYet("Open") }
func (a *App) cmdSave()           { a.notYet("Save") }
func (a *App) cmdSaveAs()         { a.notYet("Save As") }
func (a *App) cmdExport()         { a.notYet("Export") }
func (a *App) cmdQuit()           { a.quit() }
func (a *App) cmdUndo()           { a.notYet("Undo") }
func (a *App) cmdRedo()           { a.notYet("Redo") }
func (a *App) cmdCopy()           { a.notYet("Copy") }
func (a *App) cmdPaste()          { a.notYet("Paste") }
func (a *App) cmdDuplicate()      { a.notYet("Duplicate") }
func (a *App) cmdDelete()         { a.notYet("Delete") }
func (a *App) cmdSelectAll()      { a.notYet("Select All") }
func (a *App) cmdRename()         { a.notYet("Rename") }
func (a *App) cmdCreateEmpty()    { a.notYet("Create Empty") }
func (a *App) cmdCreateCube()     { a.notYet("Create Cube") }
func (a *App) cmdSpawnGrid()      { a.notYet("Spawn Cube Grid") }
func (a *App) cmdPlayStop()       { a.notYet("Play") }
func (a *App) cmdPause()          { a.notYet("Pause") }
func (a *App) cmdStep()           { a.notYet("Step") }
func (a *App) cmdGizmoTranslate() { a.notYet("Gizmo") }
func (a *App) cmdGizmoRotate()    { a.notYet("Gizmo") }
func (a *App) cmdGizmoScale()     { a.notYet("Gizmo") }
func (a *App) cmdGizmoSpace()     { a.notYet("Gizmo") }
func (a *App) cmdFrame()          { a.notYet("Frame") }
func (a *App) cmdToggleStats()    { a.showStats = !a.showStats }
func (a *App) cmdResetLayout() {
	a.layoutBuilt = false
	for _, p := range panelNames {
		a.panelOpen[p] = true
	}
}
func (a *App) cmdShowShortcuts() { a.showShortcuts = true }
func (a *App) cmdAbout()         { a.showAbout = true }

func (a *App) canUndo() bool      { return false }
func (a *App) canRedo() bool      { return false }
func (a *App) hasSelection() bool { return false }
func (a *App) editable() bool     { return true }
func (a *App) playing() bool      { return false }
func (a *App) modalOpen() bool    { return a.modal != "" || a.files != nil }

// quit closes the window as if the user had closed it.
func (a *App) quit() {
	if a.onCloseRequest() {
		a.mw.SetShouldClose(true)
	}
}

func (a *App) buildRecentMenu() {
	if imgui.BeginMenuV("Open Recent", len(a.settings.Recent) > 0) {
		for _, p := range a.settings.Recent {
			if imgui.MenuItemBool(p) {
				a.notYet("Open Recent")
			}
		}
		imgui.EndMenu()
	}
}

func (a *App) buildToolbar() {}

func (a *App) buildDialogs() {
	if a.files != nil && !a.files.build() {
		a.files = nil
	}
	if a.showShortcuts {
		imgui.SetNextWindowSizeV(imgui.Vec2{X: 460, Y: 560}, imgui.CondFirstUseEver)
		if imgui.BeginV("Shortcuts", &a.showShortcuts, 0) {
			if imgui.BeginTableV("##shortcuts", 2, imgui.TableFlagsRowBg|imgui.TableFlagsBorders, imgui.Vec2{}, 0) {
				for i := range actions {
					ac := &actions[i]
					if len(ac.keys) == 0 {
						continue
					}
					imgui.TableNextRow()
					imgui.TableNextColumn()
					imgui.Text(ac.label)
					imgui.TableNextColumn()
					imgui.Text(ac.allShortcutText())
				}
				imgui.EndTable()
			}
		}
		imgui.End()
	}
	if a.showAbout {
		if imgui.BeginV("About Voltex Editor", &a.showAbout, imgui.WindowFlagsAlwaysAutoResize) {
			imgui.Text("Voltex Editor")
			imgui.TextDisabled("A visual editor for ECS scenes.")
		}
		imgui.End()
	}
}

// onSceneFileEvent reacts to the open scene file changing on disk.
func (a *App) onSceneFileEvent(ev watch.Event) {
	a.console.Warnf("%s changed on disk (%s)", a.scenePath, ev.Kind)
}
