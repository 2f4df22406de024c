package editor

import (
	"fmt"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/glrender"
)

// viewportPanel shows the scene through the GL renderer: an FBO texture filling the panel, re-rendered only when
// what it shows changed (viewport.RedrawPolicy), with the editor camera driven by the mouse and keyboard.
type viewportPanel struct {
	r       *glrender.Renderer
	initErr error

	world   *ecs.World
	builder *viewport.Builder
	meshes  viewport.MeshSource
	policy  viewport.RedrawPolicy
	Camera  viewport.Camera
	ctl     viewport.Controller

	selVersion   uint64
	assetVersion uint64
	playing      bool

	w, h      int
	hovered   bool
	origin    imgui.Vec2 // screen position of the image's top-left corner
	lastFrame time.Time
	lastStats glrender.Stats
}

func newViewportPanel(meshes viewport.MeshSource) *viewportPanel {
	return &viewportPanel{meshes: meshes, Camera: viewport.DefaultCamera()}
}

// setWorld points the viewport at a world (a newly opened scene, or play mode's clone).
func (v *viewportPanel) setWorld(w *ecs.World) {
	if v.world == w {
		return
	}
	v.world = w
	v.builder = viewport.NewBuilder(w, v.meshes)
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

// build draws the panel's contents. It returns the rectangle it used (for the probe).
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
		imgui.TextColored(imgui.Vec4{X: 1, Y: 0.4, Z: 0.4, W: 1}, fmt.Sprintf("viewport unavailable: %v", v.initErr))
		return
	}

	// Input: an invisible button over the whole image catches clicks and drags so that the window doesn't move.
	imgui.InvisibleButtonV("##viewportinput", avail, imgui.ButtonFlagsMouseButtonLeft|imgui.ButtonFlagsMouseButtonRight|imgui.ButtonFlagsMouseButtonMiddle)
	v.hovered = imgui.IsItemHovered()
	active := imgui.IsItemActive()
	now := time.Now()
	dt := float32(now.Sub(v.lastFrame).Seconds())
	if v.lastFrame.IsZero() || dt > 0.25 {
		dt = 1.0 / 60
	}
	v.lastFrame = now
	io := imgui.CurrentIO()
	mp := imgui.MousePos()
	md := io.MouseDelta()
	in := viewport.Input{
		MouseX: mp.X - v.origin.X, MouseY: mp.Y - v.origin.Y,
		MouseDX: md.X, MouseDY: md.Y,
		Hovered: v.hovered || active,
		Left:    imgui.IsMouseDown(imgui.MouseButtonLeft),
		Middle:  imgui.IsMouseDown(imgui.MouseButtonMiddle),
		Right:   imgui.IsMouseDown(imgui.MouseButtonRight),
		Alt:     io.KeyAlt(), Shift: io.KeyShift(),
		Dt: dt,
	}
	if v.hovered {
		in.Wheel = io.MouseWheel()
	}
	if !io.WantTextInput() {
		in.W, in.A, in.S, in.D = imgui.IsKeyDown(imgui.KeyW), imgui.IsKeyDown(imgui.KeyA), imgui.IsKeyDown(imgui.KeyS), imgui.IsKeyDown(imgui.KeyD)
		in.Q, in.E = imgui.IsKeyDown(imgui.KeyQ), imgui.IsKeyDown(imgui.KeyE)
	}
	v.ctl.Update(&v.Camera, in, w, h)

	var sceneVersion uint64
	if v.builder != nil {
		v.builder.Update()
		sceneVersion = v.builder.DrawList().Version()
	}
	state := viewport.FrameState{
		SceneTick: sceneVersion, Selection: v.selVersion, Camera: v.Camera,
		Width: w, Height: h, Assets: v.assetVersion, Playing: v.playing,
	}
	if reason := v.policy.Decide(state); reason != 0 {
		if rw, rh := v.r.Size(); rw != w || rh != h {
			if err := v.r.Resize(w, h); err != nil {
				a.console.Errorf("viewport: %v", err)
			}
		}
		dl := viewport.NewDrawList()
		if v.builder != nil {
			dl = v.builder.DrawList()
		}
		if err := v.r.Render(dl, v.Camera); err != nil {
			a.console.Errorf("viewport: %v", err)
		}
		v.lastStats = v.r.Stats()
	}
	// GL textures have row 0 at the bottom: flip V so the image is the right way up.
	imgui.SetCursorScreenPos(v.origin)
	imgui.ImageV(imgui.TextureID(v.r.Texture()), avail, imgui.Vec2{X: 0, Y: 1}, imgui.Vec2{X: 1, Y: 0})
	if a.showStats {
		v.buildStatsOverlay(a)
	}
	if a.probe != nil {
		a.probe.state.ViewportRenders = v.policy.Renders()
	}
}

// busy reports whether the viewport needs frames without input (a camera drag or fly in progress, play mode).
func (v *viewportPanel) busy() bool {
	return v.playing || v.ctl.Mode() != viewport.ModeNone
}

// delete frees GL objects; call on the loop thread before the context goes away.
func (v *viewportPanel) delete() {
	if v.r != nil {
		v.r.Delete()
		v.r = nil
	}
}

// buildStatsOverlay draws the statistics overlay in the viewport's top-left corner (View → Stats Overlay).
func (v *viewportPanel) buildStatsOverlay(a *App) {
	dl := imgui.WindowDrawList()
	st := v.lastStats
	io := imgui.CurrentIO()
	fps := io.Framerate()
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
	w := float32(0)
	for _, l := range lines {
		w = max(w, imgui.CalcTextSize(l).X)
	}
	p0 := imgui.Vec2{X: v.origin.X + 8, Y: v.origin.Y + 8}
	p1 := imgui.Vec2{X: p0.X + w + 2*pad, Y: p0.Y + float32(len(lines))*lh + 2*pad}
	dl.AddRectFilledV(p0, p1, imgui.ColorU32Vec4(imgui.Vec4{X: 0, Y: 0, Z: 0, W: 0.55}), 4, 0)
	for i, l := range lines {
		dl.AddTextVec2(imgui.Vec2{X: p0.X + pad, Y: p0.Y + pad + float32(i)*lh}, 0xffe0e0e0, l)
	}
}

// reloadMeshes picks up reloaded asset meshes and redraws.
func (v *viewportPanel) reloadMeshes() {
	if v.builder != nil {
		v.builder.ReloadMeshes()
	}
	v.assetVersion++
}
