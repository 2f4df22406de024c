package editor

import (
	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/snap"
)

// The wiring: App hands each request of the workspace (its UI, appUI) and of the viewport panel (its host) to the panel
// or dialog that owns what is asked. Nothing here decides anything.

var (
	_ workspace.UI = appUI{}
	_ viewportHost = (*App)(nil)
)

// appUI is the window as the workspace sees it (workspace.UI).
type appUI struct{ a *App }

func (u appUI) Ask(title, message string, cancel int, onChoose func(int), buttons ...string) {
	u.a.dialogs.ask(title, message, cancel, onChoose, buttons...)
}
func (u appUI) Alert(title, message string)          { u.a.dialogs.alert(title, message) }
func (u appUI) ChooseFile(req workspace.FileRequest) { u.a.dialogs.chooseFile(req) }
func (u appUI) OpenGridDialog(values settings.Grid)  { u.a.dialogs.openGrid(values) }
func (u appUI) AskKeepPlayChanges(ch *doc.PlayChanges, keepUser bool, keep func([]doc.PlayChange)) {
	d := u.a.ws.Doc()
	name := func(id uint64) string {
		if e, ok := d.Entity(id); ok {
			return d.Name(e)
		}
		return ""
	}
	u.a.dialogs.keep = newKeepDialog(ch, keepUser, name, keep)
}

func (u appUI) ShowDiff(req workspace.DiffRequest) { u.a.dialogs.showDiff(req) }

// DocChanged points the panels at a new document.
func (u appUI) DocChanged(d *doc.Document, frame bool) {
	u.a.hier.setDoc(d)
	u.a.vp.setDoc(d, frame)
	u.a.insp.setDoc(inspected{d})
}

// WorldReplaced tells the panels that the document's world is another one (reload, play, a new project file).
func (u appUI) WorldReplaced() {
	u.a.vp.sync()
	u.a.hier.invalidate()
}

func (u appUI) Show(e ecs.Entity)                   { u.a.hier.show(e) }
func (u appUI) Reveal(e ecs.Entity)                 { u.a.hier.reveal(e) }
func (u appUI) KeepPreview(list *viewport.DrawList) { u.a.vp.keepPreview(list) }
func (u appUI) DropPreview(list *viewport.DrawList) { u.a.vp.dropPreview(list) }
func (u appUI) ReloadMeshes()                       { u.a.vp.reloadMeshes() }
func (u appUI) AdoptPreview(list *viewport.DrawList, cubes []ecs.Entity) {
	u.a.vp.adoptPreview(list, cubes)
}
func (u appUI) SceneVersion() uint64 { return u.a.vp.sceneVersion() }
func (u appUI) SceneBounds() viewport.AABB {
	if l := u.a.vp.sceneList(); l != nil {
		return l.Bounds()
	}
	return viewport.EmptyAABB()
}

func (u appUI) SurfaceAhead() (snap.SurfaceHit, bool) { return u.a.vp.surfaceAhead() }

func (u appUI) Close()                   { u.a.win.SetShouldClose(true) }
func (u appUI) Clipboard() string        { return imgui.ClipboardText() }
func (u appUI) SetClipboard(text string) { imgui.SetClipboardText(text) }

// resetLayout docks every panel where it starts, open as at the start (View → Reset Layout).
func (a *App) resetLayout() {
	a.panels.layoutBuilt = false
	for _, p := range panelNames {
		a.panels.open[p] = !panelOpensClosed(p)
	}
}

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
	st := a.ws.Settings()
	switch op {
	case gizmoRotate:
		return st.SnapRotate
	case gizmoScale:
		return st.SnapScale
	}
	return st.SnapTranslate
}

// snapModes is the snapping the toolbar turned on.
func (a *App) snapModes() snapModes {
	st := a.ws.Settings()
	return snapModes{grid: st.GridSnap, surface: st.SurfaceSnap}
}

// prefabDrop places a prefab dragged from the Assets panel and dropped on the viewport image.
func (a *App) prefabDrop(local imgui.Vec2, w, h int) {
	surface := func(viewport.Ray) (snap.SurfaceHit, bool) { return snap.SurfaceHit{}, false }
	if a.snapModes().surface {
		surface = a.vp.surfaceAt
	}
	a.drag.dropOnView(a.ws.Doc().Camera(), local, w, h, surface)
}
