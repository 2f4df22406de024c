package editor

import (
	"fmt"
	"strings"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/viewport"
)

// gridDialog is Entity → Spawn Cube Grid…: counts, spacing per axis, centre, mesh, a solid or gradient colour, an
// optional parent group and Spin. It is a tool window, not a modal dialog: the viewport can be orbited to look at
// the preview. Its values are remembered (for the session, and in the settings); the centre starts beside the
// scene's content (gridPlacement).
//
// The preview never holds up typing: the preview's draw list (the scene's instances plus the grid's) is computed
// on a background goroutine from plain data (scene.GridParams.Cube, a copy of the scene's instances), and a big
// preview replaces the viewport's picture only when no field is being edited, because rendering it can take a
// long frame; meanwhile the grid's outline is drawn over the viewport, which costs nothing (gridPreview,
// grid_preview.go). Spawn runs doc.PrepareGrid / GridJob.Run (a background job from workspace.JobThreshold cubes,
// with progress and Cancel) / doc.FinishGrid on the loop thread: ONE undoable step.
type gridDialog struct {
	host   gridHost
	view   gridView
	meshes meshes
	probe  *probe.State
	mark   func(what string) // times a value edit for the probe (workspace.Jobs.MarkNow); nil: not timed

	form      gridForm      // the values (grid_form.go)
	placement gridPlacement // where the centre goes while the user has not set it
	win       gridWindow
	err       string // what is wrong with the values
	preview   gridPreview
}

// gridWindow is the grid dialog's window: whether it was shown and closed, where the keyboard is, and its
// fields' rectangles for the probe.
type gridWindow struct {
	opened  bool // the window was shown once
	closed  bool // Spawn, Cancel or close pressed
	focus   bool // give the first field the keyboard next frame
	active  bool // an item was active at the end of the last frame
	focused bool // the dialog had the keyboard focus at the end of the last frame
	fields  map[string]probe.Rect
}

// reopen brings the window back to the viewport's corner with the keyboard in its first field.
func (w *gridWindow) reopen() { w.opened, w.focus = false, true }

// field records the last item's rectangle for the probe under name.
func (w *gridWindow) field(name string) {
	w.fields[name] = rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
}

// gridHost is what the grid dialog needs of the editor: Spawn, remembering its values, play mode.
type gridHost interface {
	gridCopies // grids of an entity or a prefab (gridsource.go)
	// SpawnGrid spawns the grid p; ready, if not nil, is its job already run (readyGrid).
	SpawnGrid(p scene.GridParams, preview *viewport.DrawList, ready *doc.GridJob)
	// PrepareGrid is doc.PrepareGrid on the open document, with the pause background jobs make after each step
	// (Options.JobStepDelay: e2e tests only, 0 otherwise).
	PrepareGrid(p scene.GridParams) (*doc.GridJob, time.Duration, error)
	RememberGrid(v settings.Grid)
	Playing() bool
}

// gridView is the grid dialog's view of the viewport: the scene it places the grid beside, the camera (At pivot,
// Frame), where the image is, its renders, and the preview and outline it shows (viewportPanel implements it).
type gridView interface {
	sceneList() *viewport.DrawList
	sceneWorld() *ecs.World
	sceneVersion() uint64
	camera() *viewport.Camera
	aspect() float32
	corner() imgui.Vec2
	renders() uint64
	setPreview(list *viewport.DrawList, box *viewport.AABB)
}

// meshes are the meshes scenes can use (the asset registry).
type meshes interface {
	List() []string
	Mesh(ref string) (*assets.Mesh, error)
}

var _ g.Widget = (*gridDialog)(nil)

func newGridDialog(v settings.Grid, host gridHost, view gridView, ms meshes, pr *probe.State) *gridDialog {
	return &gridDialog{host: host, view: view, meshes: ms, probe: pr, form: newGridForm(v),
		placement: gridPlacement{autoPlace: true}, win: gridWindow{focus: true, fields: map[string]probe.Rect{}}}
}

// place puts the centre beside the scene's content while the placement is automatic (gridPlacement.place).
func (d *gridDialog) place() { d.placement.place(&d.form, d.view, !d.win.opened) }

// Build draws the dialog (until it is closed: see done).
func (d *gridDialog) Build() {
	if !d.win.closed {
		d.win.closed = !d.build()
	}
}

// done reports whether the dialog was closed (Spawn, Cancel, Escape, its close button).
func (d *gridDialog) done() bool { return d.win.closed }

// build draws the dialog; false when it is closed.
func (d *gridDialog) build() bool {
	if !d.win.opened {
		d.place()
		d.win.opened = true
		if id := d.host.ActiveID(); id != 0 { // "Selected entity" copies what was selected when the dialog opened
			d.form.src.entity = id
		}
		imgui.SetNextWindowFocus()
		imgui.SetNextWindowPosV(imgui.Vec2{X: d.view.corner().X + 16, Y: d.view.corner().Y + 16}, imgui.CondAlways, imgui.Vec2{})
	}
	// Enter and Escape are taken before the window is built: built first, the field that has the keyboard
	// focus would take Enter as "edit me" and keep the keyboard after the dialog is gone, and a window begun
	// without its fields would show empty for the (long) frame of a big spawn. While a value is being typed,
	// Enter commits it (the preview then shows it) and Escape reverts it; a field that merely has the keyboard
	// (the first one, when the dialog opens) does not keep Enter from spawning.
	keys := d.win.focused && !(d.win.active && d.preview.changing)
	spawn := keys && d.err == "" && (imgui.IsKeyPressedBool(imgui.KeyEnter) || imgui.IsKeyPressedBool(imgui.KeyKeypadEnter))
	cancel := keys && imgui.IsKeyPressedBool(imgui.KeyEscape)
	if !spawn && !cancel {
		open := true
		flags := imgui.WindowFlagsAlwaysAutoResize | imgui.WindowFlagsNoCollapse | imgui.WindowFlagsNoDocking | imgui.WindowFlagsNoSavedSettings
		if imgui.BeginV(d.form.src.title(d.host), &open, flags) && open {
			d.win.fields["window"] = rectOf(imgui.WindowPos(), imgui.WindowSize())
			spawn, cancel = d.buildFields()
			spawn = spawn && d.err == ""
		}
		cancel = cancel || !open
		d.win.focused = imgui.IsWindowFocusedV(imgui.FocusedFlagsRootAndChildWindows)
		d.win.active = imgui.IsAnyItemActive()
		imgui.End()
	}
	p := d.form.params()
	if spawn || cancel {
		imgui.InternalClearActiveID()          // no field of the closed dialog keeps the keyboard
		imgui.SetWindowFocusStr(panelViewport) // the keyboard goes back to the viewport, where the result shows
	}
	if spawn {
		ready := d.preview.takeReady(readyKeyOf(p, d.view.sceneWorld())) // taken before close drops it
		d.close()
		if src, ok := d.form.src.source(d.host); ok {
			d.host.SpawnCopies(p, src)
			return false
		}
		var keep *viewport.DrawList
		if shown := &d.preview.state; shown.current() && shown.cubes == p.Len() {
			keep = shown.list // exactly what the spawn makes: shown until the cubes are in the scene
		}
		d.host.SpawnGrid(p, keep, ready)
		return false
	}
	if cancel {
		d.close()
		return false
	}
	d.updatePreview(p)
	return true
}

// buildFields draws the fields and buttons; it returns whether Spawn or Cancel was pressed.
func (d *gridDialog) buildFields() (spawn, cancel bool) {
	f := &d.form
	f.src.build(d.host, gridFieldWidth, d.win.field) // before the focus: the keyboard goes to Count, as before
	if d.win.focus {
		imgui.SetKeyboardFocusHere()
		d.win.focus = false
	}
	f.buildShape(d.win.field)
	f.src.buildSteps(gridFieldWidth, d.win.field)
	d.buildPlacement()
	if f.src.kind == srcCubes {
		f.buildLook(d.meshes)
	} else { // the copies keep their own looks
		f.buildGroup()
	}
	d.place() // the size may have changed
	p := f.params()
	d.err = f.check(p, d.host)
	imgui.Separator()
	d.buildSummary(p)
	imgui.BeginDisabledV(d.err != "")
	spawn = imgui.ButtonV("Spawn", imgui.Vec2{X: 110})
	d.win.field("spawn")
	imgui.EndDisabled()
	imgui.SameLine()
	cancel = imgui.ButtonV("Cancel", imgui.Vec2{X: 110})
	d.win.field("cancel")
	return spawn, cancel
}

// buildPlacement draws the centre and the buttons that place it (beside the scene, at the pivot, at the origin)
// or point the view at the grid (Frame).
func (d *gridDialog) buildPlacement() {
	imgui.SetNextItemWidth(gridFieldWidth)
	if imgui.DragFloat3V("Centre", &d.form.centre, 0.1, -1e5, 1e5, "%.2f", imgui.SliderFlagsAlwaysClamp) {
		d.placement.autoPlace = false
	}
	d.win.field("centre")
	const centreHelp = "Where the middle of the grid goes (world position): the grid extends half its size on each side\n" +
		"of it — it is the centre, not a corner. A new grid starts beside what the scene already holds,\n" +
		"so it never lands on it; \"At pivot\" puts it where the view looks instead."
	if imgui.IsItemHovered() {
		tooltip(centreHelp)
	}
	imgui.SameLine()
	textDisabled("(?)")
	if imgui.IsItemHovered() {
		tooltip(centreHelp)
	}
	if imgui.SmallButton("Beside scene") {
		d.placement.besideScene()
		d.place()
	}
	imgui.SameLine()
	if imgui.SmallButton("At pivot") {
		d.placement.autoPlace, d.form.centre = false, d.view.camera().Pivot
	}
	imgui.SameLine()
	if imgui.SmallButton("At origin") {
		d.placement.autoPlace, d.form.centre = false, [3]float32{}
	}
	imgui.SameLine()
	if sl := d.view.sceneList(); imgui.SmallButton("Frame") && sl != nil {
		d.view.camera().Frame(sl.Bounds().Union(gridBounds(d.form.params())), d.view.aspect())
	}
	if imgui.IsItemHovered() {
		tooltip("Point the view at the scene and the new grid together")
	}
}

// buildSummary says how many cubes go where, and what is wrong or what the preview is doing.
func (d *gridDialog) buildSummary(p scene.GridParams) {
	where := "at the centre above"
	if d.placement.autoPlace {
		where = "beside the scene"
	}
	text(fmt.Sprintf("%s, %s", d.form.src.copyWord(p.Len()), where))
	switch {
	case d.err != "":
		textColored(imgui.Vec4{X: 1, Y: 0.45, Z: 0.4, W: 1}, d.err)
	case !d.preview.state.current() && d.preview.changing:
		textDisabled("outline shown; the cubes follow on Enter or a click outside the fields")
	case !d.preview.state.current() && !d.host.Playing():
		textDisabled("computing the preview…")
	}
}

// close ends the dialog: its preview work stops, its values are remembered.
func (d *gridDialog) close() {
	d.preview.stop()
	d.view.setPreview(nil, nil)
	d.host.RememberGrid(d.form.values())
}

// updatePreview keeps the viewport's preview in step with the values: the outline at once, the cubes when they
// are computed (in the background) and may be shown (see previewState.offer).
func (d *gridDialog) updatePreview(p scene.GridParams) {
	now := time.Now()
	valid := d.err == ""
	pv := &d.preview
	k := keyOf(p, d.view.sceneVersion(), d.view.sceneWorld())
	k.src = d.form.src.key()
	pv.countEdit(k, now, d.view.renders(), d.mark)
	pv.state.setWant(k)
	playing := d.host.Playing()
	pv.collect(k, playing)
	// Editing: a field is active and its value has changed since (a field that merely has the keyboard, as the
	// first one has when the dialog opens, lets a big preview show).
	pv.changing = pv.changing && imgui.IsAnyItemActive()
	editing := pv.changing
	settled := !editing || now.Sub(pv.lastChange) > 100*time.Millisecond
	if valid && !playing && settled {
		d.compute(k, p)
	}
	pv.show(k, editing)
	pv.prepare(p, valid && !playing && !editing && d.form.src.key() == "" && pv.state.current() &&
		now.Sub(pv.lastChange) > readyAfter, d.view.sceneWorld(), d.host)
	list := pv.state.list
	if playing {
		list = nil // the play world animates: a preview made from the edit scene would hide it
	}
	var box *viewport.AABB
	if valid && !pv.state.current() {
		b := gridBounds(p)
		box = &b
	}
	d.view.setPreview(list, box)
	if d.probe != nil {
		d.probe.Grid = &probe.GridDialog{
			Title:   strings.TrimSuffix(d.form.src.titleStr, gridWindowID),
			Count:   d.form.counts(),
			Spacing: d.form.spacing, Centre: d.form.centre, Fields: d.win.fields, Typing: d.win.active && imgui.CurrentIO().WantTextInput(),
			Preview: pv.state.mode(valid), PreviewCubes: pv.state.cubes, Edits: pv.edits, EditRenders: pv.editRender,
			Ready: pv.ready.isReady(),
		}
	}
}

// compute starts a preview worker for the values k unless the preview shown is for them or one is being computed.
func (d *gridDialog) compute(k previewKey, p scene.GridParams) {
	sl := d.view.sceneList()
	if !d.preview.idle() || sl == nil {
		return
	}
	ref := p.Mesh
	if ref == "" {
		ref = scene.MeshCube
	}
	mesh, _ := d.meshes.Mesh(ref)
	d.preview.start(k, p, sl, d.view.sceneWorld(), mesh, d.form.src.shapeFor(d.host, d.meshes, k.sceneVer))
}
