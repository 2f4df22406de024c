package editor

import (
	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/viewport"
)

// The wiring: App hands each request of the workspace (its ui) and of the viewport panel (its host) to the panel
// or dialog that owns what is asked. Nothing here decides anything.

var (
	_ ui           = (*App)(nil)
	_ viewportHost = (*App)(nil)
)

func (a *App) ask(title, message string, cancel int, onChoose func(int), buttons ...string) {
	a.dialogs.ask(title, message, cancel, onChoose, buttons...)
}
func (a *App) alert(title, message string)         { a.dialogs.alert(title, message) }
func (a *App) chooseFile(req fileRequest)          { a.dialogs.chooseFile(req) }
func (a *App) openGridDialog(values settings.Grid) { a.dialogs.openGrid(values) }

// docChanged points the panels at a new document.
func (a *App) docChanged(d *doc.Document, frame bool) {
	a.hier.setDoc(d)
	a.vp.setDoc(d, frame)
	a.insp.setDoc(inspected{d})
}

// worldReplaced tells the panels that the document's world is another one (reload, play, a new project file).
func (a *App) worldReplaced() {
	a.vp.sync()
	a.hier.invalidate()
}

func (a *App) show(e ecs.Entity)                   { a.hier.show(e) }
func (a *App) reveal(e ecs.Entity)                 { a.hier.reveal(e) }
func (a *App) startRename()                        { a.hier.startRename() }
func (a *App) setGizmo(op gizmoOp)                 { a.vp.setGizmo(op) }
func (a *App) toggleGizmoSpace()                   { a.vp.toggleGizmoSpace() }
func (a *App) frameSelection()                     { a.vp.frameSelection() }
func (a *App) keepPreview(list *viewport.DrawList) { a.vp.keepPreview(list) }
func (a *App) dropPreview(list *viewport.DrawList) { a.vp.dropPreview(list) }
func (a *App) reloadMeshes()                       { a.vp.reloadMeshes() }
func (a *App) adoptPreview(list *viewport.DrawList, cubes []ecs.Entity) {
	a.vp.adoptPreview(list, cubes)
}
func (a *App) sceneVersion() uint64 { return a.vp.sceneVersion() }
func (a *App) sceneBounds() viewport.AABB {
	if l := a.vp.sceneList(); l != nil {
		return l.Bounds()
	}
	return viewport.EmptyAABB()
}

func (a *App) toggleStats() bool {
	a.vp.showStats = !a.vp.showStats
	return a.vp.showStats
}

// resetLayout docks every panel where it starts, all of them open (View → Reset Layout).
func (a *App) resetLayout() {
	a.panels.layoutBuilt = false
	for _, p := range panelNames {
		a.panels.open[p] = true
	}
}

func (a *App) toggleShortcuts() { a.help.shortcuts = !a.help.shortcuts } // F1 opens and closes it
func (a *App) showAbout()       { a.help.about = true }
func (a *App) close()           { a.win.SetShouldClose(true) }
func (a *App) clipboard() string {
	return imgui.ClipboardText()
}
func (a *App) setClipboard(text string) { imgui.SetClipboardText(text) }

// The viewport panel's host.

func (a *App) modalOpen() bool { return a.dialogs.modalOpen() }

// picked reveals the entities selected in the viewport in the hierarchy.
func (a *App) picked(es []ecs.Entity) {
	for _, e := range es {
		a.hier.reveal(e)
	}
	if len(es) == 1 {
		a.hier.show(es[0])
	}
}

// snapStep is the gizmo's snapping step for op.
func (a *App) snapStep(op gizmoOp) float32 {
	st := a.ws.settings
	switch op {
	case gizmoRotate:
		return st.SnapRotate
	case gizmoScale:
		return st.SnapScale
	}
	return st.SnapTranslate
}

// prefabDrop places a prefab dragged from the Assets panel and dropped on the viewport image.
func (a *App) prefabDrop(local imgui.Vec2, w, h int) {
	a.drag.dropOnView(a.ws.doc.Camera(), local, w, h)
}
