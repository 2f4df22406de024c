package editor

import (
	"fmt"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	g "github.com/AllenDang/giu"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/viewport"
)

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
	// Editing reports whether an edit is going on (a transaction: the pictures meanwhile are of no undo step).
	Editing() bool
}

// viewportHost is what the viewport panel needs of the rest of the editor.
type viewportHost interface {
	// modalOpen reports whether a dialog has the keyboard and mouse (no camera keys, no picking).
	modalOpen() bool
	// picked is told the entities a click or a box in the viewport selected (the hierarchy reveals them).
	picked(es []ecs.Entity)
	// snapStep is the gizmo's step for op while grid snapping is on or Ctrl is held (View → Gizmo Snapping).
	snapStep(op gizmoOp) float32
	// snapModes is the snapping the toolbar turned on.
	snapModes() snapModes
	// prefabDrop places a prefab dropped on the image at local (pixels in the w×h image) (prefab.go).
	prefabDrop(local imgui.Vec2, w, h int)
}

// entityFilter is what the user hid and locked (entityFlags implements it): hidden entities are left out of the
// draw list, locked ones are passed over by picking and refuse the gizmo.
type entityFilter interface {
	hideFunc() func(ecs.Entity) bool // nil: nothing hidden
	locked(e ecs.Entity) bool
	hasLocks() bool
	changes() uint64 // bumped on every change
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

	scene     viewportScene // the world drawn, its draw list and the versions the redraw policy compares
	policy    viewport.RedrawPolicy
	ctl       viewport.Controller
	playing   bool
	frameAll  bool // frame the whole scene at the next frame (a scene without a saved camera)
	showStats bool // View → Stats Overlay

	pic     viewportPicture // the picture on screen and the one being drawn, the preview, adoption
	gz      gizmoState      // the transform gizmo
	area    imageArea       // where the image is and whether the mouse is over it
	markers sceneMarkers    // the lights and cameras drawn over the image, the selected camera's preview
	box     boxSelect       // a click or box selection in progress
	clock   inputClock      // the frame's time and input
}

var _ g.Widget = (*viewportPanel)(nil)

func newViewportPanel(d viewportDoc, host viewportHost, meshes viewport.MeshSource, newRenderer func() (viewport.Renderer, error),
	log logger, pr *probe.State) *viewportPanel {
	return &viewportPanel{doc: d, host: host, scene: viewportScene{meshes: meshes}, newRenderer: newRenderer, log: log, probe: pr}
}

// setDoc shows another document; a scene whose file had no camera is framed when it is first drawn.
func (v *viewportPanel) setDoc(d viewportDoc, frame bool) {
	v.doc = d
	v.frameAll = frame
	v.sync()
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

func (v *viewportPanel) aspect() float32 { return v.area.aspect() }

// Build draws the panel's contents.
func (v *viewportPanel) Build() {
	avail := imgui.ContentRegionAvail()
	w, h := int(avail.X), int(avail.Y)
	v.area.origin = imgui.CursorScreenPos()
	if v.probe != nil {
		v.probe.Viewport = rectOf(v.area.origin, avail)
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
	v.area.w, v.area.h = w, h
	mp := imgui.MousePos()
	local := imgui.Vec2{X: mp.X - v.area.origin.X, Y: mp.Y - v.area.origin.Y}
	inside := local.X >= 0 && local.Y >= 0 && local.X < avail.X && local.Y < avail.Y
	// Over the view cube the mouse belongs to the cube (a click turns the camera), over a camera's preview to
	// the preview: no picking, no camera drags.
	v.area.hovered = inside && imgui.IsWindowHoveredV(imgui.HoveredFlagsNone) && !imguizmo.IsOver() && !imguizmo.IsUsingAny() &&
		!v.area.overViewCube(mp) && !v.markers.preview.holds(mp)
	// The viewport's keys (W, E, R, X, F) work wherever the mouse is over the image, the gizmo and the view cube
	// included (F with the mouse on the selected entity's gizmo framed nothing).
	v.area.overImage = inside && imgui.IsWindowHoveredV(imgui.HoveredFlagsNone) && !imguizmo.IsUsingAny()

	v.sync()
	if v.scene.deferred {
		v.showDeferred(avail)
		return
	}
	v.clock.note(userActive() || imgui.CurrentContext().InputEventsQueue().Size > 0, imgui.CurrentIO().WantTextInput())
	v.playing = v.doc.PlayMode().Playing() && !v.doc.PlayMode().Paused()
	cam := v.doc.Camera()
	if v.frameAll {
		v.frameAll = false
		if b := v.scene.builder.DrawList().Bounds(); !b.IsEmpty() {
			cam.Frame(b, float32(w)/float32(h))
		}
	}
	v.updateCamera(local, w, h)
	v.render(w, h)
	v.pic.built = true
	v.pic.builtAt = [2]uint64{v.pic.shown.Version(), v.scene.selVersion}
	if v.probe != nil {
		v.probe.Picture.Pending = v.pic.pending
	}
	// GL textures have row 0 at the bottom: flip V so the image is the right way up.
	if tex := v.r.Texture(); tex != 0 {
		imgui.ImageV(imgui.TextureID(tex), avail, imgui.Vec2{X: 0, Y: 1}, imgui.Vec2{X: 1, Y: 0})
	} else {
		imgui.Dummy(avail) // no picture yet (render): the panel's background
	}
	v.host.prefabDrop(local, w, h) // a prefab dragged from the Assets panel (prefab.go)

	v.drawPreviewBox()
	v.drawMarkers()
	v.buildCameraPreview()
	v.buildGizmo()
	v.handlePicking(local, inside)
	v.buildViewCube()
	if v.probe != nil {
		side := v.area.viewCubeSide()
		v.probe.ViewCube = rectOf(v.area.viewCubePos(), imgui.Vec2{X: side, Y: side})
	}
	v.buildDrawingNote()
	if v.showStats {
		v.buildStatsOverlay()
	}
	if v.probe != nil {
		v.probe.ViewportRenders = v.policy.Renders()
	}
}

// busy reports whether the viewport needs frames without input (a camera drag or fly in progress, play mode).
func (v *viewportPanel) busy() bool {
	return v.playing || v.ctl.Mode() != viewport.ModeNone || v.gz.active || imguizmo.IsUsingViewManipulate() ||
		v.pic.busy() || v.markers.preview.pending
}

// delete frees the renderer; call on the loop thread before the GL context goes away.
func (v *viewportPanel) delete() {
	if v.r != nil {
		v.r.Delete()
		v.r = nil
	}
	v.markers.preview.free()
}

// buildStatsOverlay draws the statistics overlay in the viewport's top-left corner (View → Stats Overlay).
func (v *viewportPanel) buildStatsOverlay() {
	dl := imgui.WindowDrawList()
	st := v.pic.lastStats
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
	p0 := imgui.Vec2{X: v.area.origin.X + 8, Y: v.area.origin.Y + 8}
	p1 := imgui.Vec2{X: p0.X + wd + 2*pad, Y: p0.Y + float32(len(lines))*lh + 2*pad}
	dl.AddRectFilledV(p0, p1, imgui.ColorU32Vec4(imgui.Vec4{X: 0, Y: 0, Z: 0, W: 0.55}), 4, 0)
	for i, l := range lines {
		dl.AddTextVec2(imgui.Vec2{X: p0.X + pad, Y: p0.Y + pad + float32(i)*lh}, 0xffe0e0e0, l)
	}
}

// corner returns the screen position of the image's top-left corner.
func (v *viewportPanel) corner() imgui.Vec2 { return v.area.origin }

// statsShown reports whether the stats overlay is on (View → Stats Overlay).
func (v *viewportPanel) statsShown() bool { return v.showStats }
