package editor

import (
	"fmt"
	"image"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/glrender"
)

type gizmoOp uint8

const (
	gizmoTranslate gizmoOp = iota
	gizmoRotate
	gizmoScale
)

func (o gizmoOp) imguizmo() imguizmo.OPERATION {
	switch o {
	case gizmoRotate:
		return imguizmo.ROTATE
	case gizmoScale:
		return imguizmo.SCALE
	}
	return imguizmo.TRANSLATE
}

func (o gizmoOp) label() string { return [...]string{"Move", "Rotate", "Scale"}[o] }

func (o gizmoOp) dragKind() doc.DragKind {
	return [...]doc.DragKind{doc.DragMove, doc.DragRotate, doc.DragScale}[o]
}

// viewportPanel shows the scene through the GL renderer: an FBO texture filling the panel, re-rendered only when
// what it shows changed (viewport.RedrawPolicy), with the editor camera driven by the mouse and keyboard, click
// and box selection from the renderer's entity-ID buffer, transform gizmos and a view cube.
type viewportPanel struct {
	r       *glrender.Renderer
	initErr error

	world   *ecs.World
	builder *viewport.Builder
	meshes  viewport.MeshSource
	policy  viewport.RedrawPolicy
	cam     *viewport.Camera // the document's camera (doc.Document.Camera): the one copy of the view
	ctl     viewport.Controller

	selSynced    uint64 // document selection version the builder shows
	selVersion   uint64 // bumped on every selection change (for the redraw policy)
	assetVersion uint64
	playing      bool
	frameAll     bool               // frame the whole scene at the next frame (a scene without a saved camera)
	preview      *viewport.DrawList // drawn instead of the scene while the Spawn Cube Grid dialog previews
	previewBox   *viewport.AABB     // outline of the grid being set up, drawn over the image (costs no render)
	shown        *viewport.DrawList // the list drawn last

	gizmoOp     gizmoOp
	gizmoLocal  bool
	gizmoActive bool
	gizmoFrom   mgl32.Mat4 // the manipulated matrix when the drag began
	gizmoCur    mgl32.Mat4 // the manipulated matrix now

	w, h      int
	hovered   bool
	origin    imgui.Vec2 // screen position of the image's top-left corner
	pressing  bool       // left button went down over the image (not on a gizmo)
	pressAt   imgui.Vec2
	boxing    bool
	lastFrame time.Time
	lastStats glrender.Stats
}

func newViewportPanel(meshes viewport.MeshSource) *viewportPanel {
	c := viewport.DefaultCamera()
	return &viewportPanel{meshes: meshes, cam: &c}
}

// setWorld points the viewport at a world (a newly opened scene, or play mode's clone).
func (v *viewportPanel) setWorld(w *ecs.World) {
	if v.world == w {
		return
	}
	v.world = w
	v.builder = viewport.NewBuilder(w, v.meshes)
	v.selSynced = 0
	v.policy.Invalidate()
}

// ensureRenderer creates the renderer on first use; it needs the window's GL context, current on this thread.
func (v *viewportPanel) ensureRenderer() bool {
	if v.r != nil {
		return true
	}
	if v.initErr != nil {
		return false
	}
	if err := glrender.InitCurrentContext(); err != nil {
		v.initErr = err
		return false
	}
	r, err := glrender.New()
	if err != nil {
		v.initErr = err
		return false
	}
	v.r = r
	return true
}

func (v *viewportPanel) aspect() float32 {
	if v.h == 0 {
		return 1
	}
	return float32(v.w) / float32(v.h)
}

// frameSelection points the camera at the selection (F), or at everything when nothing is selected.
func (v *viewportPanel) frameSelection(a *App) {
	if v.builder == nil {
		return
	}
	dl := v.builder.DrawList()
	var b viewport.AABB
	if sel := a.doc.SelectedEntities(); len(sel) > 0 {
		ids := make([]uint32, 0, len(sel))
		for _, e := range sel {
			ids = append(ids, viewport.EntityID(e))
		}
		b = dl.BoundsOf(ids)
		if b.IsEmpty() { // selected entities without meshes: frame their positions
			b = viewport.EmptyAABB()
			for _, e := range sel {
				b = b.Extend(a.doc.World().WorldMatrix(e).Col(3).Vec3())
			}
		}
	} else {
		b = dl.Bounds()
	}
	if !b.IsEmpty() {
		v.cam.Frame(b, v.aspect())
	}
}

// build draws the panel's contents.
func (v *viewportPanel) build(a *App) {
	avail := imgui.ContentRegionAvail()
	w, h := int(avail.X), int(avail.Y)
	v.origin = imgui.CursorScreenPos()
	if a.probe != nil {
		a.probe.state.Viewport = rectOf(v.origin, avail)
	}
	if w < 8 || h < 8 {
		return
	}
	if !v.ensureRenderer() {
		textColored(errorColor, fmt.Sprintf("viewport unavailable: %v", v.initErr))
		return
	}
	v.w, v.h = w, h
	mp := imgui.MousePos()
	local := imgui.Vec2{X: mp.X - v.origin.X, Y: mp.Y - v.origin.Y}
	inside := local.X >= 0 && local.Y >= 0 && local.X < avail.X && local.Y < avail.Y
	// Over the view cube the mouse belongs to the cube (a click turns the camera): no picking, no camera drags.
	v.hovered = inside && imgui.IsWindowHoveredV(imgui.HoveredFlagsNone) && !imguizmo.IsOver() && !imguizmo.IsUsingAny() &&
		!v.overViewCube(mp)

	v.setWorld(a.doc.World())
	v.playing = a.doc.Playing() && !a.doc.Paused()
	if sv := a.doc.SelectionVersion(); sv != v.selSynced {
		v.selSynced = sv
		v.builder.SetSelection(a.doc.SelectedEntities())
		v.selVersion++
	}
	v.builder.Update()
	if v.frameAll {
		v.frameAll = false
		if b := v.builder.DrawList().Bounds(); !b.IsEmpty() {
			v.cam.Frame(b, float32(w)/float32(h))
		}
	}
	v.updateCamera(a, local, w, h)

	dl := v.builder.DrawList()
	if v.preview != nil {
		dl = v.preview
	}
	if dl != v.shown {
		v.shown = dl
		v.policy.Invalidate()
	}
	state := viewport.FrameState{
		SceneTick: dl.Version(), Selection: v.selVersion, Camera: *v.cam,
		Width: w, Height: h, Assets: v.assetVersion, Playing: v.playing,
	}
	if reason := v.policy.Decide(state); reason != 0 {
		if rw, rh := v.r.Size(); rw != w || rh != h {
			if err := v.r.Resize(w, h); err != nil {
				a.console.Errorf("viewport: %v", err)
			}
		}
		if err := v.r.Render(dl, *v.cam); err != nil {
			a.console.Errorf("viewport: %v", err)
		}
		v.lastStats = v.r.Stats()
	}
	// GL textures have row 0 at the bottom: flip V so the image is the right way up.
	imgui.ImageV(imgui.TextureID(v.r.Texture()), avail, imgui.Vec2{X: 0, Y: 1}, imgui.Vec2{X: 1, Y: 0})
	a.viewportPrefabDrop(local, w, h) // a prefab dragged from the Assets panel (prefab.go)

	v.drawPreviewBox()
	v.buildGizmo(a)
	v.handlePicking(a, local, inside)
	v.buildViewCube()
	if a.probe != nil {
		a.probe.state.ViewCube = rectOf(v.viewCubePos(), imgui.Vec2{X: viewCubeSize, Y: viewCubeSize})
	}
	if a.showStats {
		v.buildStatsOverlay()
	}
	if a.probe != nil {
		a.probe.state.ViewportRenders = v.policy.Renders()
	}
}

// updateCamera applies this frame's mouse and keyboard to the camera (orbit, pan, zoom, fly).
func (v *viewportPanel) updateCamera(a *App, local imgui.Vec2, w, h int) {
	now := time.Now()
	dt := float32(now.Sub(v.lastFrame).Seconds())
	if v.lastFrame.IsZero() || dt > 0.25 {
		dt = 1.0 / 60
	}
	v.lastFrame = now
	io := imgui.CurrentIO()
	md := io.MouseDelta()
	in := viewport.Input{
		MouseX: local.X, MouseY: local.Y,
		MouseDX: md.X, MouseDY: md.Y,
		Hovered: v.hovered && !a.modalOpen(),
		Left:    imgui.IsMouseDown(imgui.MouseButtonLeft),
		Middle:  imgui.IsMouseDown(imgui.MouseButtonMiddle),
		Right:   imgui.IsMouseDown(imgui.MouseButtonRight),
		Alt:     io.KeyAlt(), Shift: io.KeyShift(),
		Dt: dt,
	}
	if in.Hovered {
		in.Wheel = io.MouseWheel()
	}
	if !io.WantTextInput() && !a.modalOpen() {
		in.W, in.A, in.S, in.D = imgui.IsKeyDown(imgui.KeyW), imgui.IsKeyDown(imgui.KeyA), imgui.IsKeyDown(imgui.KeyS), imgui.IsKeyDown(imgui.KeyD)
		in.Q, in.E = imgui.IsKeyDown(imgui.KeyQ), imgui.IsKeyDown(imgui.KeyE)
	}
	v.ctl.Update(v.cam, in, w, h)
}

// handlePicking: a left click selects what is under the cursor (Ctrl toggles), a left drag selects what is
// inside the box (Ctrl adds) — read from the renderer's entity-ID attachment.
func (v *viewportPanel) handlePicking(a *App, local imgui.Vec2, inside bool) {
	io := imgui.CurrentIO()
	if imgui.IsMouseClickedBool(imgui.MouseButtonLeft) && v.hovered && !io.KeyAlt() && !a.modalOpen() {
		v.pressing, v.boxing, v.pressAt = true, false, local
	}
	if !v.pressing {
		return
	}
	if imguizmo.IsUsingAny() {
		v.pressing = false
		return
	}
	dx, dy := local.X-v.pressAt.X, local.Y-v.pressAt.Y
	if dx*dx+dy*dy > 16 {
		v.boxing = true
	}
	rect := image.Rect(int(min(v.pressAt.X, local.X)), int(min(v.pressAt.Y, local.Y)),
		int(max(v.pressAt.X, local.X))+1, int(max(v.pressAt.Y, local.Y))+1)
	if v.boxing {
		dl := imgui.WindowDrawList()
		p0 := imgui.Vec2{X: v.origin.X + float32(rect.Min.X), Y: v.origin.Y + float32(rect.Min.Y)}
		p1 := imgui.Vec2{X: v.origin.X + float32(rect.Max.X), Y: v.origin.Y + float32(rect.Max.Y)}
		dl.AddRectFilled(p0, p1, 0x30ff9933)
		dl.AddRect(p0, p1, 0xc0ff9933)
	}
	if imgui.IsMouseDown(imgui.MouseButtonLeft) {
		return
	}
	v.pressing = false
	var es []ecs.Entity
	if v.boxing {
		for _, id := range v.r.ReadIDs(rect) {
			if e, ok := v.builder.Entity(id); ok {
				es = append(es, e)
			}
		}
	} else if inside {
		if e, ok := v.builder.Entity(v.r.ReadID(int(local.X), int(local.Y))); ok {
			es = append(es, e)
		}
	}
	ctrl := io.KeyCtrl()
	switch {
	case ctrl && v.boxing:
		a.doc.AddToSelection(es...)
	case ctrl && len(es) == 1:
		a.doc.ToggleSelected(es[0])
	case ctrl:
	default:
		a.doc.Select(es...)
	}
	for _, e := range es {
		a.hier.reveal(e)
	}
	if len(es) == 1 {
		a.hier.show(es[0])
	}
}

// buildGizmo draws the transform gizmo on the active entity and turns a drag into ONE undoable edit of the
// selected entities' Transforms (Ctrl snaps to the steps in the settings).
func (v *viewportPanel) buildGizmo(a *App) {
	active, ok := a.doc.Active()
	w := a.doc.World()
	tid, hasT := ecs.ComponentIDOf[ecs.Transform](w)
	if !ok || !hasT || !w.Has(active, tid) || a.doc.Playing() {
		v.endGizmo(a)
		if a.probe != nil {
			a.probe.state.Gizmo = [2]int{}
		}
		return
	}
	imguizmo.SetDrawlistV(imgui.WindowDrawList())
	imguizmo.SetRect(v.origin.X, v.origin.Y, float32(v.w), float32(v.h))
	imguizmo.SetOrthographic(false)
	view := v.cam.View()
	proj := v.cam.Proj(v.aspect())
	m := w.WorldMatrix(active)
	if v.gizmoActive {
		m = v.gizmoCur // continue from the matrix ImGuizmo gave last frame (no decomposition drift)
	}
	mode := imguizmo.WORLD
	if v.gizmoLocal || v.gizmoOp == gizmoScale {
		mode = imguizmo.LOCAL
	}
	var snap *float32
	var steps [3]float32
	if imgui.CurrentIO().KeyCtrl() {
		s := a.settings.SnapTranslate
		switch v.gizmoOp {
		case gizmoRotate:
			s = a.settings.SnapRotate
		case gizmoScale:
			s = a.settings.SnapScale
		}
		steps = [3]float32{s, s, s}
		snap = &steps[0]
	}
	if a.probe != nil {
		if x, y, ok := v.cam.WorldToPixel(m.Col(3).Vec3(), v.w, v.h); ok {
			a.probe.state.Gizmo = [2]int{int(v.origin.X + x), int(v.origin.Y + y)}
		}
	}
	changed := imguizmo.ManipulateV(&view[0], &proj[0], v.gizmoOp.imguizmo(), mode, &m[0], nil, snap, nil, nil)
	using := imguizmo.IsUsing()
	if using && !v.gizmoActive {
		v.gizmoActive = true
		v.gizmoFrom = w.WorldMatrix(active)
		a.doc.BeginTransformDrag(v.gizmoOp.label(), v.gizmoOp.dragKind(), a.doc.SelectedEntities())
	}
	if v.gizmoActive {
		v.gizmoCur = m
	}
	if v.gizmoActive && changed {
		if err := a.doc.DragWorld(m.Mul4(v.gizmoFrom.Inv())); err != nil {
			a.console.Errorf("%s: %v", v.gizmoOp.label(), err)
		}
	}
	if !using && v.gizmoActive {
		v.endGizmo(a)
	}
}

func (v *viewportPanel) endGizmo(a *App) {
	if v.gizmoActive {
		v.gizmoActive = false
		a.doc.EndEdit()
	}
}

// viewCubeSize is the side of the view cube's square, in pixels.
const viewCubeSize = 96

// viewCubePos is the top-left corner of the view cube's square (the viewport's top-right corner).
func (v *viewportPanel) viewCubePos() imgui.Vec2 {
	return imgui.Vec2{X: v.origin.X + float32(v.w) - viewCubeSize - 8, Y: v.origin.Y + 8}
}

// overViewCube reports whether screen point p is on the view cube's square.
func (v *viewportPanel) overViewCube(p imgui.Vec2) bool {
	c := v.viewCubePos()
	return p.X >= c.X && p.Y >= c.Y && p.X < c.X+viewCubeSize && p.Y < c.Y+viewCubeSize
}

// buildViewCube draws the orientation cube in the top-right corner; clicking a face turns the camera to it.
func (v *viewportPanel) buildViewCube() {
	view := v.cam.View()
	before := view
	pos := v.viewCubePos()
	imguizmo.ViewManipulateFloat(&view[0], v.cam.Distance, pos, imgui.Vec2{X: viewCubeSize, Y: viewCubeSize}, 0x00000000)
	if view != before {
		*v.cam = v.cam.WithView(view)
	}
}

// busy reports whether the viewport needs frames without input (a camera drag or fly in progress, play mode).
func (v *viewportPanel) busy() bool {
	return v.playing || v.ctl.Mode() != viewport.ModeNone || v.gizmoActive || imguizmo.IsUsingViewManipulate()
}

// delete frees GL objects; call on the loop thread before the context goes away.
func (v *viewportPanel) delete() {
	if v.r != nil {
		v.r.Delete()
		v.r = nil
	}
}

// reloadMeshes picks up reloaded asset meshes and redraws.
func (v *viewportPanel) reloadMeshes() {
	if v.builder != nil {
		v.builder.ReloadMeshes()
	}
	v.assetVersion++
}

// buildStatsOverlay draws the statistics overlay in the viewport's top-left corner (View → Stats Overlay).
func (v *viewportPanel) buildStatsOverlay() {
	dl := imgui.WindowDrawList()
	st := v.lastStats
	fps := imgui.CurrentIO().Framerate()
	ms := float32(0)
	if fps > 0 {
		ms = 1000 / fps
	}
	lines := [...]string{
		fmt.Sprintf("%.0f FPS  %.1f ms", fps, ms),
		fmt.Sprintf("viewport renders %d", v.policy.Renders()),
		fmt.Sprintf("draw calls %d", st.DrawCalls),
		fmt.Sprintf("instances %d", st.Instances),
		fmt.Sprintf("triangles %d", st.Triangles),
		fmt.Sprintf("uploaded %d B", st.UploadedBytes),
	}
	pad := float32(6)
	lh := imgui.TextLineHeight()
	wd := float32(0)
	for _, l := range lines {
		wd = max(wd, imgui.CalcTextSize(l).X)
	}
	p0 := imgui.Vec2{X: v.origin.X + 8, Y: v.origin.Y + 8}
	p1 := imgui.Vec2{X: p0.X + wd + 2*pad, Y: p0.Y + float32(len(lines))*lh + 2*pad}
	dl.AddRectFilledV(p0, p1, imgui.ColorU32Vec4(imgui.Vec4{X: 0, Y: 0, Z: 0, W: 0.55}), 4, 0)
	for i, l := range lines {
		dl.AddTextVec2(imgui.Vec2{X: p0.X + pad, Y: p0.Y + pad + float32(i)*lh}, 0xffe0e0e0, l)
	}
}

// sceneVersion is the version of what the viewport draws (changes when meshes come into or go out of use).
func (v *viewportPanel) sceneVersion() uint64 {
	if v.builder == nil {
		return 0
	}
	return v.builder.DrawList().Version()
}
