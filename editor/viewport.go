package editor

import (
	"fmt"
	"image"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	g "github.com/AllenDang/giu"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/viewport"
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

// viewportDoc is what the viewport panel reads and changes of the open document (doc.Document implements it): the
// world it draws, the camera it moves (the document's, the one copy of the view), the selection it picks and the
// transform drags of the gizmo.
type viewportDoc interface {
	World() *ecs.World
	Camera() *viewport.Camera
	PlayMode() *doc.Play
	Selection() *doc.Selection
	BeginTransformDrag(label string, kind doc.DragKind, es []ecs.Entity)
	DragWorld(delta mgl32.Mat4) error
	EndEdit()
}

// viewportHost is what the viewport panel needs of the rest of the editor.
type viewportHost interface {
	// modalOpen reports whether a dialog has the keyboard and mouse (no camera keys, no picking).
	modalOpen() bool
	// picked is told the entities a click or a box in the viewport selected (the hierarchy reveals them).
	picked(es []ecs.Entity)
	// snapStep is the gizmo's step for op while Ctrl is held (View → Gizmo Snapping).
	snapStep(op gizmoOp) float32
	// prefabDrop places a prefab dropped on the image at local (pixels in the w×h image) (prefab.go).
	prefabDrop(local imgui.Vec2, w, h int)
}

// viewportPanel shows the scene through a Renderer (viewport.Renderer: OpenGL in the editor, a fake in tests): its
// offscreen image fills the panel, re-rendered only when what it shows changed (viewport.RedrawPolicy). The mouse
// and keyboard drive the document's camera; a click or a box selects from the renderer's entity-id image; the
// gizmo turns a drag into one undoable transform edit; the view cube turns the camera.
type viewportPanel struct {
	doc         viewportDoc
	host        viewportHost
	log         logger
	probe       *probe.State
	newRenderer func() (viewport.Renderer, error) // called on first Build, on the thread that owns the GL context
	r           viewport.Renderer
	initErr     error

	world   *ecs.World
	builder *viewport.Builder
	meshes  viewport.MeshSource
	policy  viewport.RedrawPolicy
	ctl     viewport.Controller

	selSynced    uint64 // document selection version the builder shows
	selVersion   uint64 // bumped on every selection change (for the redraw policy)
	assetVersion uint64
	playing      bool
	frameAll     bool               // frame the whole scene at the next frame (a scene without a saved camera)
	preview      *viewport.DrawList // drawn instead of the scene while the Spawn Cube Grid dialog previews
	previewBox   *viewport.AABB     // outline of the grid being set up, drawn over the image (costs no render)
	shown        *viewport.DrawList // the list drawn last
	pictured     *viewport.DrawList // the list the picture on screen is of (nil: none yet)
	adopt        *adoption          // a spawned grid's preview, whose picture becomes the scene's (adoptPreview)
	adopted      int                // pictures adopted (the probe's Picture.Adopted)
	sizeSeen     [2]int             // the panel's size in the last frame it was built (render)
	showStats    bool               // View → Stats Overlay

	gizmoOp     gizmoOp
	gizmoLocal  bool
	gizmoActive bool
	gizmoFrom   mgl32.Mat4 // the manipulated matrix when the drag began
	gizmoCur    mgl32.Mat4 // the manipulated matrix now

	w, h      int
	hovered   bool
	overImage bool       // the mouse is over the image (the gizmo and the view cube too): the viewport's keys work
	origin    imgui.Vec2 // screen position of the image's top-left corner
	pressing  bool       // left button went down over the image (not on a gizmo)
	pressAt   imgui.Vec2
	boxing    bool
	lastFrame time.Time
	lastStats viewport.RenderStats
	pending   bool      // a picture is being drawn over several frames
	lastInput time.Time // the last frame with user input (keys, mouse, text)
	coarse    bool      // the picture on screen was thinned (the view was moving): a full one follows
	moved     bool      // the last frame's picture was asked for because the view or the scene changed
	viewMoved bool      // because the view changed
	built     bool      // the panel was built in this frame (lateRender)
	drew      bool      // the panel drew (some of) a picture in this frame (lateRender)
	builtAt   [2]uint64 // the list's version and the selection's when it was (lateRender)
	inputNow  bool      // this frame has user input (a key or button held, the mouse moving, events)
	typing    bool      // a text field has the keyboard
	// currentAt is the newest time (unix ns) at which the picture on screen was known to show everything the
	// viewport shows: the state it was drawn from was sampled then, and nothing changed since (probe marks).
	currentAt int64
}

// pictureShows reports whether the picture in the last frame showed the state the editor had at time t (unix ns).
func (v *viewportPanel) pictureShows(t int64) bool { return v.currentAt >= t }

// notShown is called in frames that do not build the panel (closed or hidden): there is no picture to wait for.
func (v *viewportPanel) notShown() { v.currentAt = time.Now().UnixNano() }

var _ g.Widget = (*viewportPanel)(nil)

func newViewportPanel(d viewportDoc, host viewportHost, meshes viewport.MeshSource, newRenderer func() (viewport.Renderer, error),
	log logger, pr *probe.State) *viewportPanel {
	return &viewportPanel{doc: d, host: host, meshes: meshes, newRenderer: newRenderer, log: log, probe: pr}
}

// setDoc shows another document; a scene whose file had no camera is framed when it is first drawn.
func (v *viewportPanel) setDoc(d viewportDoc, frame bool) {
	v.doc = d
	v.frameAll = frame
	v.sync()
}

// sync points the panel at the document's world (a newly opened scene, or play mode's clone) and its selection,
// and brings the draw list up to date.
func (v *viewportPanel) sync() {
	if w := v.doc.World(); v.world != w {
		v.world = w
		if v.builder != nil { // the last world's list is not drawn again: its GPU buffers and kept picture go
			v.forget(v.builder.DrawList())
		}
		v.builder = viewport.NewBuilder(w, v.meshes)
		v.selSynced = 0
		v.policy.Invalidate()
	}
	if sv := v.doc.Selection().Version(); sv != v.selSynced {
		v.selSynced = sv
		v.builder.SetSelection(v.doc.Selection().Entities())
		v.selVersion++
	}
	v.builder.Update()
}

// ensureRenderer creates the renderer on first use; it needs the window's GL context, current on this thread.
func (v *viewportPanel) ensureRenderer() bool {
	if v.r != nil {
		return true
	}
	if v.initErr != nil {
		return false
	}
	r, err := v.newRenderer()
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
func (v *viewportPanel) frameSelection() {
	if v.builder == nil {
		return
	}
	dl := v.builder.DrawList()
	var b viewport.AABB
	if sel := v.doc.Selection().Entities(); len(sel) > 0 {
		ids := make([]uint32, 0, len(sel))
		for _, e := range sel {
			ids = append(ids, viewport.EntityID(e))
		}
		b = dl.BoundsOf(ids)
		if b.IsEmpty() { // selected entities without meshes: frame their positions
			b = viewport.EmptyAABB()
			for _, e := range sel {
				b = b.Extend(v.doc.World().WorldMatrix(e).Col(3).Vec3())
			}
		}
	} else {
		b = dl.Bounds()
	}
	if !b.IsEmpty() {
		v.doc.Camera().Frame(b, v.aspect())
	}
}

// Build draws the panel's contents.
func (v *viewportPanel) Build() {
	avail := imgui.ContentRegionAvail()
	w, h := int(avail.X), int(avail.Y)
	v.origin = imgui.CursorScreenPos()
	if v.probe != nil {
		v.probe.Viewport = rectOf(v.origin, avail)
	}
	if w < 8 || h < 8 {
		v.notShown()
		return
	}
	if !v.ensureRenderer() {
		v.notShown()
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
	// The viewport's keys (W, E, R, X, F) work wherever the mouse is over the image, the gizmo and the view cube
	// included (F with the mouse on the selected entity's gizmo framed nothing).
	v.overImage = inside && imgui.IsWindowHoveredV(imgui.HoveredFlagsNone) && !imguizmo.IsUsingAny()

	v.sync()
	v.inputNow = userActive() || imgui.CurrentContext().InputEventsQueue().Size > 0
	if v.inputNow {
		v.lastInput = time.Now()
	}
	v.typing = imgui.CurrentIO().WantTextInput()
	v.playing = v.doc.PlayMode().Playing() && !v.doc.PlayMode().Paused()
	cam := v.doc.Camera()
	if v.frameAll {
		v.frameAll = false
		if b := v.builder.DrawList().Bounds(); !b.IsEmpty() {
			cam.Frame(b, float32(w)/float32(h))
		}
	}
	v.updateCamera(local, w, h)
	v.render(w, h)
	v.built = true
	v.builtAt = [2]uint64{v.shown.Version(), v.selVersion}
	if v.probe != nil {
		v.probe.Picture.Pending = v.pending
	}
	// GL textures have row 0 at the bottom: flip V so the image is the right way up.
	if tex := v.r.Texture(); tex != 0 {
		imgui.ImageV(imgui.TextureID(tex), avail, imgui.Vec2{X: 0, Y: 1}, imgui.Vec2{X: 1, Y: 0})
	} else {
		imgui.Dummy(avail) // no picture yet (render): the panel's background
	}
	v.host.prefabDrop(local, w, h) // a prefab dragged from the Assets panel (prefab.go)

	v.drawPreviewBox()
	v.buildGizmo()
	v.handlePicking(local, inside)
	v.buildViewCube()
	if v.probe != nil {
		side := v.viewCubeSide()
		v.probe.ViewCube = rectOf(v.viewCubePos(), imgui.Vec2{X: side, Y: side})
	}
	v.buildDrawingNote()
	if v.showStats {
		v.buildStatsOverlay()
	}
	if v.probe != nil {
		v.probe.ViewportRenders = v.policy.Renders()
	}
}

// buildDrawingNote says, over the image, that the picture of the scene is being drawn, while the image has no
// picture of it yet (a big scene just opened is drawn over many frames, and the last picture, of another scene,
// would look like an empty one meanwhile). A change of the scene on screen keeps its last picture without a word.
func (v *viewportPanel) buildDrawingNote() {
	note := ""
	if dl := v.shown; v.pending && dl != nil && dl == v.builder.DrawList() && v.pictured != dl && dl.Len() > 0 {
		pct := 0
		if st := v.r.Stats(); st.Pending && st.PendingOf > 0 {
			pct = 100 * st.PendingDone / st.PendingOf
		}
		noun := "entities"
		if dl.Len() == 1 {
			noun = "entity"
		}
		note = fmt.Sprintf("Drawing %s %s… %d %%", words.Thousands(int64(dl.Len())), noun, pct)
		v.drawNote(note, float32(pct)/100)
	}
	if v.probe != nil {
		v.probe.Picture.Drawing = note
	}
}

// drawNote draws text and a progress bar (frac of it filled) in a dark box at the centre of the image.
func (v *viewportPanel) drawNote(text string, frac float32) {
	const pad, barH = 12, 6
	ts := imgui.CalcTextSize(text)
	w, h := ts.X+2*pad, ts.Y+barH+3*pad
	x := v.origin.X + (float32(v.w)-w)/2
	y := v.origin.Y + (float32(v.h)-h)/2
	dl := imgui.WindowDrawList()
	dl.AddRectFilledV(imgui.Vec2{X: x, Y: y}, imgui.Vec2{X: x + w, Y: y + h}, imgui.ColorU32Vec4(imgui.Vec4{X: 0.08, Y: 0.09, Z: 0.11, W: 0.85}), 6, 0)
	dl.AddTextVec2(imgui.Vec2{X: x + pad, Y: y + pad}, imgui.ColorU32Vec4(*imgui.StyleColorVec4(imgui.ColText)), text)
	bar := imgui.Vec2{X: x + pad, Y: y + 2*pad + ts.Y}
	dl.AddRectFilled(bar, imgui.Vec2{X: bar.X + ts.X, Y: bar.Y + barH}, imgui.ColorU32Vec4(*imgui.StyleColorVec4(imgui.ColFrameBg)))
	dl.AddRectFilled(bar, imgui.Vec2{X: bar.X + ts.X*frac, Y: bar.Y + barH}, imgui.ColorU32Vec4(*imgui.StyleColorVec4(imgui.ColPlotHistogram)))
}

// Drawing budgets: how long one frame may spend on the viewport's picture (GPU work included). A picture that
// costs more is drawn over several frames while the last complete one stays on screen; while the view or the
// scene changes frame after frame, a thinned picture that fits is drawn instead.
// While the user gives input (a key or button held, the mouse moving; while typing, also shortly after), frames stay
// short so that they are handled at once; without input — right after a discrete key such as Ctrl+Z — the picture
// gets more of each frame and completes in fewer of them (each frame also costs the UI's own drawing, which on a
// software renderer is a good part of a frame).
const (
	drawBudget     = 15 * time.Millisecond
	idleDrawBudget = 60 * time.Millisecond
	inputCalm      = 300 * time.Millisecond // how long after the last input (typing) the bigger budget waits
)

// render keeps the image up to date: a new picture when what it shows changed — the draw list (the scene, or the
// grid dialog's preview), the selection, the camera, the size, the meshes, or play mode — drawn over as many
// frames as it takes (viewport.Renderer.Draw).
func (v *viewportPanel) render(w, h int) {
	dl := v.builder.DrawList()
	if v.preview != nil {
		dl = v.preview
	}
	if v.adopt != nil && v.adoptPicture(dl) {
		v.policy.Invalidate()
	}
	if dl != v.shown {
		v.shown = dl
		v.policy.Invalidate()
	}
	// The first picture waits for the panel's size to settle: in the window's first frame the dock layout is not
	// applied yet and the panel spans the whole window. Framebuffers for that size, dropped a frame later for the
	// docked size, cost the first frame about 0.3 s on this machine (llvmpipe zeroes a new texture: 44 MB of fresh
	// pages at 1600×1000).
	settled := v.sizeSeen == [2]int{w, h}
	v.sizeSeen = [2]int{w, h}
	if rw, _ := v.r.Size(); rw == 0 && !settled {
		v.pending = true // a frame follows
		return
	}
	cam := *v.doc.Camera()
	sampled := time.Now().UnixNano()
	state := viewport.FrameState{
		SceneTick: dl.Version(), Selection: v.selVersion, Camera: cam,
		Width: w, Height: h, Assets: v.assetVersion, Playing: v.playing,
	}
	reason := v.policy.Decide(state)
	// The view moving (an orbit, pan or fly while its button is held; the camera changing frame after frame, as
	// the view cube turns it): thinned pictures that fit a frame, replaced by the full one, drawn at once, in the
	// first frame after the motion ends. The scene changing frame after frame (play mode, a gizmo drag): complete
	// pictures, each finished before the next is begun.
	viewMoving := reason&viewport.ReasonCamera != 0
	sceneMoving := reason&(viewport.ReasonScene|viewport.ReasonPlaying) != 0
	interactive := v.ctl.Mode() != viewport.ModeNone || viewMoving && v.viewMoved
	changing := sceneMoving && (v.moved || v.gizmoActive)
	v.moved, v.viewMoved = viewMoving || sceneMoving, viewMoving
	v.drew = false
	if reason == 0 && !v.pending && !v.coarse {
		v.currentAt, v.pictured = sampled, dl
		return
	}
	v.drew = true
	if rw, rh := v.r.Size(); rw != w || rh != h {
		if err := v.r.Resize(w, h); err != nil {
			v.log.Errorf("viewport: %v", err)
		}
	}
	done, err := v.r.Draw(dl, cam, viewport.DrawOptions{Budget: v.budget(interactive), Interactive: interactive, Changing: changing})
	if err != nil {
		v.log.Errorf("viewport: %v", err)
	}
	v.pending = !done
	if !done {
		return
	}
	v.pictured = dl
	if v.coarse = v.r.Stats().Thinned; !v.coarse {
		v.currentAt = sampled
	}
	v.noteStats()
}

// budget is how long this frame may spend on the picture (see drawBudget): the bigger budget once the input is
// calm, and at once after a discrete change (a key pressed and released: undo, delete, a spawn) while nothing is
// held or moving and no text field has the keyboard (typing keeps its frames short).
func (v *viewportPanel) budget(interactive bool) time.Duration {
	if !interactive && (time.Since(v.lastInput) > inputCalm || (!v.inputNow && !v.typing)) {
		return idleDrawBudget
	}
	return drawBudget
}

// noteStats tells the probe about a picture completed.
func (v *viewportPanel) noteStats() {
	st := v.r.Stats()
	if st.Renders != v.lastStats.Renders || st.Steps == 0 {
		v.lastStats = st
		if v.probe != nil {
			v.probe.Picture = probe.Picture{Drawn: st.Instances, Total: st.Total, Stride: st.Stride, Steps: st.Steps,
				Pictures: st.Renders, Completed: time.Now().UnixNano(), Adopted: v.adopted}
		}
	}
}

// lateRender runs after the panels that change the scene in a frame were built after this one (the Inspector's
// field edits, the gizmo, dialogs, merged jobs): a change a patch drawn at once covers is drawn into the image
// now (viewport.DrawOptions.PatchOnly: the texture shown stays the one the panel gave ImGui), so that this frame
// shows it instead of the next one. A bigger change (a merged spawn of many, drawn over frames) begins now, with
// this frame's budget, when the panel drew nothing in this frame and no input is going on (the frame's budget is
// unspent): its picture is complete a frame earlier. Anything else is left to the next frame's render.
func (v *viewportPanel) lateRender() {
	if !v.built || v.r == nil || v.pending || v.coarse {
		v.built = false
		return
	}
	v.built = false
	sampled := time.Now().UnixNano()
	v.sync()
	dl := v.builder.DrawList()
	if v.preview != nil {
		dl = v.preview
	}
	if v.adopt != nil && v.adoptPicture(dl) {
		v.policy.Invalidate()
		v.builtAt = [2]uint64{} // the picture changed lists: composed again below
	}
	if rw, rh := v.r.Size(); dl != v.shown || rw != v.w || rh != v.h || v.builtAt == [2]uint64{dl.Version(), v.selVersion} {
		return // something else to draw, or nothing changed since the panel was built
	}
	tex := v.r.Texture()
	o := viewport.DrawOptions{Budget: v.budget(false), PatchOnly: true}
	if !v.drew && o.Budget == idleDrawBudget && !v.gizmoActive && v.ctl.Mode() == viewport.ModeNone {
		o.PatchOnly = false // the frame's budget is unspent: a bigger picture begins now
	}
	done, err := v.r.Draw(dl, *v.doc.Camera(), o)
	if err != nil {
		v.log.Errorf("viewport: %v", err)
	}
	v.pending = !done && !o.PatchOnly
	if done {
		v.pictured = dl
	}
	if done && v.r.Texture() == tex {
		v.currentAt = sampled
		v.noteStats()
	}
}

// updateCamera applies this frame's mouse and keyboard to the camera (orbit, pan, zoom, fly).
func (v *viewportPanel) updateCamera(local imgui.Vec2, w, h int) {
	now := time.Now()
	dt := float32(now.Sub(v.lastFrame).Seconds())
	if v.lastFrame.IsZero() || dt > 0.25 {
		dt = 1.0 / 60
	}
	v.lastFrame = now
	io := imgui.CurrentIO()
	md := io.MouseDelta()
	modal := v.host.modalOpen()
	in := viewport.Input{
		MouseX: local.X, MouseY: local.Y,
		MouseDX: md.X, MouseDY: md.Y,
		Hovered: v.hovered && !modal,
		Left:    imgui.IsMouseDown(imgui.MouseButtonLeft),
		Middle:  imgui.IsMouseDown(imgui.MouseButtonMiddle),
		Right:   imgui.IsMouseDown(imgui.MouseButtonRight),
		Alt:     io.KeyAlt(), Shift: io.KeyShift(),
		Dt: dt,
	}
	if in.Hovered {
		in.Wheel = io.MouseWheel()
	}
	if !io.WantTextInput() && !modal {
		in.W, in.A, in.S, in.D = imgui.IsKeyDown(imgui.KeyW), imgui.IsKeyDown(imgui.KeyA), imgui.IsKeyDown(imgui.KeyS), imgui.IsKeyDown(imgui.KeyD)
		in.Q, in.E = imgui.IsKeyDown(imgui.KeyQ), imgui.IsKeyDown(imgui.KeyE)
	}
	v.ctl.Update(v.doc.Camera(), in, w, h)
}

// handlePicking: a left click selects what is under the cursor (Ctrl toggles), a left drag selects what is
// inside the box (Ctrl adds) — read from the renderer's entity-ID image.
func (v *viewportPanel) handlePicking(local imgui.Vec2, inside bool) {
	io := imgui.CurrentIO()
	if imgui.IsMouseClickedBool(imgui.MouseButtonLeft) && v.hovered && !io.KeyAlt() && !v.host.modalOpen() {
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
		v.doc.Selection().Add(es...)
	case ctrl && len(es) == 1:
		v.doc.Selection().Toggle(es[0])
	case ctrl:
	default:
		v.doc.Selection().Select(es...)
	}
	v.host.picked(es)
}

// buildGizmo draws the transform gizmo on the active entity and turns a drag into ONE undoable edit of the
// selected entities' Transforms (Ctrl snaps to the steps in the settings).
func (v *viewportPanel) buildGizmo() {
	active, ok := v.doc.Selection().Active()
	w := v.doc.World()
	tid, hasT := ecs.ComponentIDOf[ecs.Transform](w)
	if !ok || !hasT || !w.Has(active, tid) || v.doc.PlayMode().Playing() {
		v.endGizmo()
		if v.probe != nil {
			v.probe.Gizmo = [2]int{}
		}
		return
	}
	cam := v.doc.Camera()
	imguizmo.SetDrawlistV(imgui.WindowDrawList())
	imguizmo.SetRect(v.origin.X, v.origin.Y, float32(v.w), float32(v.h))
	imguizmo.SetOrthographic(false)
	view := cam.View()
	proj := cam.Proj(v.aspect())
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
		s := v.host.snapStep(v.gizmoOp)
		steps = [3]float32{s, s, s}
		snap = &steps[0]
	}
	if v.probe != nil {
		if x, y, ok := cam.WorldToPixel(m.Col(3).Vec3(), v.w, v.h); ok {
			v.probe.Gizmo = [2]int{int(v.origin.X + x), int(v.origin.Y + y)}
		}
	}
	changed := imguizmo.ManipulateV(&view[0], &proj[0], v.gizmoOp.imguizmo(), mode, &m[0], nil, snap, nil, nil)
	using := imguizmo.IsUsing()
	if using && !v.gizmoActive {
		v.gizmoActive = true
		v.gizmoFrom = w.WorldMatrix(active)
		v.doc.BeginTransformDrag(v.gizmoOp.label(), v.gizmoOp.dragKind(), v.doc.Selection().Entities())
	}
	if v.gizmoActive {
		v.gizmoCur = m
	}
	if v.gizmoActive && changed {
		if err := v.doc.DragWorld(m.Mul4(v.gizmoFrom.Inv())); err != nil {
			v.log.Errorf("%s: %v", v.gizmoOp.label(), err)
		}
	}
	if !using && v.gizmoActive {
		v.endGizmo()
	}
}

func (v *viewportPanel) endGizmo() {
	if v.gizmoActive {
		v.gizmoActive = false
		v.doc.EndEdit()
	}
}

// setGizmo chooses the gizmo (W, E, R and the toolbar).
func (v *viewportPanel) setGizmo(op gizmoOp) { v.gizmoOp = op }

// toggleGizmoSpace switches the gizmo between world and local axes (X).
func (v *viewportPanel) toggleGizmoSpace() { v.gizmoLocal = !v.gizmoLocal }

// viewCubeSize is the side of the view cube's square, in pixels, in a viewport big enough for it.
const viewCubeSize = 96

// viewCubeMin is the smallest view cube drawn: in a viewport with less room there is none.
const viewCubeMin = 32

// viewCubeSide is the side of the view cube's square: viewCubeSize, less in a small viewport so that it stays
// inside it with its margin (0: no room for one).
func (v *viewportPanel) viewCubeSide() float32 {
	side := min(viewCubeSize, float32(v.w)/3, float32(v.h)-16)
	if side < viewCubeMin {
		return 0
	}
	return side
}

// viewCubePos is the top-left corner of the view cube's square (the viewport's top-right corner).
func (v *viewportPanel) viewCubePos() imgui.Vec2 {
	return imgui.Vec2{X: v.origin.X + float32(v.w) - v.viewCubeSide() - 8, Y: v.origin.Y + 8}
}

// overViewCube reports whether screen point p is on the view cube's square.
func (v *viewportPanel) overViewCube(p imgui.Vec2) bool {
	c, side := v.viewCubePos(), v.viewCubeSide()
	return p.X >= c.X && p.Y >= c.Y && p.X < c.X+side && p.Y < c.Y+side
}

// buildViewCube draws the orientation cube in the top-right corner; clicking a face turns the camera to it.
func (v *viewportPanel) buildViewCube() {
	if imgui.InternalCurrentWindow().Hidden() {
		return // ImGuizmo draws it on a list of its own, which a hidden panel (App.panel) does not hide
	}
	side := v.viewCubeSide()
	if side == 0 {
		return
	}
	cam := v.doc.Camera()
	view := cam.View()
	before := view
	pos := v.viewCubePos()
	imguizmo.ViewManipulateFloat(&view[0], cam.Distance, pos, imgui.Vec2{X: side, Y: side}, 0x00000000)
	if view != before {
		*cam = cam.WithView(view)
	}
}

// busy reports whether the viewport needs frames without input (a camera drag or fly in progress, play mode).
func (v *viewportPanel) busy() bool {
	return v.playing || v.ctl.Mode() != viewport.ModeNone || v.gizmoActive || imguizmo.IsUsingViewManipulate() ||
		v.pending || v.coarse || v.moved
}

// delete frees the renderer; call on the loop thread before the GL context goes away.
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

// renders counts the renders so far.
func (v *viewportPanel) renders() uint64 { return v.policy.Renders() }

// pictures counts the pictures completed (a picture drawn over several frames shows when it is complete).
func (v *viewportPanel) pictures() uint64 { return v.lastStats.Renders }

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

// The grid dialog's view of the viewport (gridView): the scene it places the grid beside, the camera, the
// preview it shows.

// sceneList returns the scene's draw list as of the panel's last frame (nil before its first).
func (v *viewportPanel) sceneList() *viewport.DrawList {
	if v.builder == nil {
		return nil
	}
	return v.builder.DrawList()
}

// sceneWorld returns the world the viewport draws.
func (v *viewportPanel) sceneWorld() *ecs.World { return v.world }

// camera returns the camera the viewport shows (the document's).
func (v *viewportPanel) camera() *viewport.Camera { return v.doc.Camera() }

// corner returns the screen position of the image's top-left corner.
func (v *viewportPanel) corner() imgui.Vec2 { return v.origin }

// setPreview makes the viewport draw list instead of the scene (nil: the scene again) and box's outline over the
// image (nil: none).
func (v *viewportPanel) setPreview(list *viewport.DrawList, box *viewport.AABB) {
	v.showPreview(list)
	v.previewBox = box
}

// showPreview makes list the preview drawn (nil: the scene). The renderer forgets the list shown before (a preview
// replaced by a newer one, or the closed dialog's): it would keep its GPU buffers — at 1M, llvmpipe's copy of a
// million instances and the grid's, about 100 MB of C heap — and the list itself until it drew another.
func (v *viewportPanel) showPreview(list *viewport.DrawList) {
	if old := v.preview; old != nil && old != list {
		v.forget(old)
	}
	v.preview = list
}

// adoption is a grid's preview list and the ids its cubes have in the scene since the grid was spawned.
type adoption struct {
	from *viewport.DrawList
	ids  []uint32 // ids[i]: the id of the preview's cube previewIDBase+i+1
}

// rename is the id in the scene of an id of the preview (the scene's own instances keep theirs).
func (a *adoption) rename(id uint32) uint32 {
	if id > previewIDBase && int(id-previewIDBase) <= len(a.ids) {
		return a.ids[id-previewIDBase-1]
	}
	return id
}

// adoptPreview says that list, the grid dialog's preview of a grid now spawned as cubes (in the grid's order),
// drew what the scene's list draws now, but for the cubes' ids: the next picture of the scene takes the
// preview's picture on screen instead of drawing it again (adoptPicture).
func (v *viewportPanel) adoptPreview(list *viewport.DrawList, cubes []ecs.Entity) {
	if list == nil || len(cubes) == 0 {
		return
	}
	ids := make([]uint32, len(cubes))
	for i, e := range cubes {
		ids[i] = viewport.EntityID(e)
	}
	v.adopt = &adoption{from: list, ids: ids}
}

// adoptPicture makes the picture on screen, of a spawned grid's preview, the picture of dl (the scene's list, up
// to date) when the renderer finds that dl draws what the preview drew (glrender.Renderer.Adopt); it reports
// whether it did. A spawn of 100,000 cubes beside 100,000 is then in the picture in the frame that adds them,
// instead of after the hundreds of milliseconds its drawing takes on a software renderer.
func (v *viewportPanel) adoptPicture(dl *viewport.DrawList) bool {
	a := v.adopt
	v.adopt = nil
	if a == nil || v.preview != nil || dl != v.builder.DrawList() || v.pending || v.coarse {
		return false
	}
	r, ok := v.r.(interface {
		Adopt(from, to *viewport.DrawList, rename func(uint32) uint32) bool
	})
	if !ok || !r.Adopt(a.from, dl, a.rename) {
		return false
	}
	v.shown = dl
	v.adopted++
	return true
}

// forget tells the renderer that dl will not be drawn again (glrender.Renderer.Forget: its GPU state and kept
// picture are freed).
func (v *viewportPanel) forget(dl *viewport.DrawList) {
	if f, ok := v.r.(interface{ Forget(*viewport.DrawList) }); ok {
		f.Forget(dl)
	}
}

// keepPreview shows list (the grid dialog's preview of a grid being spawned) until dropPreview; nil does nothing.
func (v *viewportPanel) keepPreview(list *viewport.DrawList) {
	if list != nil {
		v.showPreview(list)
	}
}

// dropPreview stops showing list if it is the preview shown.
func (v *viewportPanel) dropPreview(list *viewport.DrawList) {
	if v.preview == list {
		v.showPreview(nil)
	}
}

// gizmo returns the gizmo's mode and whether it uses local axes (the toolbar shows them).
func (v *viewportPanel) gizmo() (gizmoOp, bool) { return v.gizmoOp, v.gizmoLocal }

// statsShown reports whether the stats overlay is on (View → Stats Overlay).
func (v *viewportPanel) statsShown() bool { return v.showStats }

// drawPreviewBox draws the outline of the grid being set up over the viewport image, which it dims a little (the
// cubes shown, if any, are for older values): ImGui shapes, no render.
func (v *viewportPanel) drawPreviewBox() {
	b := v.previewBox
	if b == nil {
		return
	}
	cam := v.doc.Camera()
	dl := imgui.WindowDrawList()
	dl.AddRectFilled(v.origin, imgui.Vec2{X: v.origin.X + float32(v.w), Y: v.origin.Y + float32(v.h)}, 0x50000000)
	var px [8]imgui.Vec2
	var ok [8]bool
	for i := range 8 {
		c := mgl32.Vec3{b.Min[0], b.Min[1], b.Min[2]}
		for axis := range 3 {
			if i&(1<<axis) != 0 {
				c[axis] = b.Max[axis]
			}
		}
		x, y, in := cam.WorldToPixel(c, v.w, v.h)
		px[i], ok[i] = imgui.Vec2{X: v.origin.X + x, Y: v.origin.Y + y}, in
	}
	const shadow, line = 0xc0000000, 0xff60e0ff // ABGR: a dark edge under a bright yellow line
	for pass, col := range [2]uint32{shadow, line} {
		for i := range 8 {
			for axis := range 3 {
				j := i | 1<<axis
				if j != i && ok[i] && ok[j] {
					dl.AddLineV(px[i], px[j], col, float32(4-2*pass))
				}
			}
		}
	}
}
