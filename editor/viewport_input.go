package editor

import (
	"image"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/viewport"
)

// imageArea is where the viewport's image is on screen and whether the mouse is over it.
type imageArea struct {
	w, h      int
	origin    imgui.Vec2 // screen position of the image's top-left corner
	hovered   bool       // the mouse is over the image itself (not the gizmo or the view cube): clicks pick
	overImage bool       // the mouse is over the image (the gizmo and the view cube too): the viewport's keys work
}

// boxSelect is a left-button press over the image: a click, or a box once dragged far enough.
type boxSelect struct {
	pressing bool // left button went down over the image (not on a gizmo)
	pressAt  imgui.Vec2
	boxing   bool
}

// inputClock is the frame's time and input, for the camera's speed and the drawing budget.
type inputClock struct {
	lastFrame time.Time
	lastInput time.Time // the last frame with user input (keys, mouse, text)
	inputNow  bool      // this frame has user input (a key or button held, the mouse moving, events)
	typing    bool      // a text field has the keyboard
}

// frameDt is the seconds since the last frame (a 60th after a pause, or at the first), and now the last frame.
func (c *inputClock) frameDt(now time.Time) float32 {
	dt := float32(now.Sub(c.lastFrame).Seconds())
	if c.lastFrame.IsZero() || dt > 0.25 {
		dt = 1.0 / 60
	}
	c.lastFrame = now
	return dt
}

// note records this frame's input: whether there is some (inputNow) and whether a text field has the keyboard.
func (c *inputClock) note(inputNow, typing bool) {
	c.inputNow, c.typing = inputNow, typing
	if inputNow {
		c.lastInput = time.Now()
	}
}

// aspect is the image's width over its height (1 before it has a size).
func (a *imageArea) aspect() float32 {
	if a.h == 0 {
		return 1
	}
	return float32(a.w) / float32(a.h)
}

// updateCamera applies this frame's mouse and keyboard to the camera (orbit, pan, zoom, fly).
func (v *viewportPanel) updateCamera(local imgui.Vec2, w, h int) {
	dt := v.clock.frameDt(time.Now())
	io := imgui.CurrentIO()
	md := io.MouseDelta()
	modal := v.host.modalOpen()
	in := viewport.Input{
		MouseX: local.X, MouseY: local.Y,
		MouseDX: md.X, MouseDY: md.Y,
		Hovered: v.area.hovered && !modal,
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

// drag follows the pointer at local: a box once it went more than 4 pixels from the press; it returns the
// rectangle between the press and the pointer (image pixels, both corners inside).
func (b *boxSelect) drag(local imgui.Vec2) image.Rectangle {
	dx, dy := local.X-b.pressAt.X, local.Y-b.pressAt.Y
	if dx*dx+dy*dy > 16 {
		b.boxing = true
	}
	return image.Rect(int(min(b.pressAt.X, local.X)), int(min(b.pressAt.Y, local.Y)),
		int(max(b.pressAt.X, local.X))+1, int(max(b.pressAt.Y, local.Y))+1)
}

// handlePicking: a left click selects what is under the cursor (Ctrl toggles), a left drag selects what is
// inside the box (Ctrl adds) — read from the renderer's entity-ID image.
func (v *viewportPanel) handlePicking(local imgui.Vec2, inside bool) {
	io := imgui.CurrentIO()
	if imgui.IsMouseClickedBool(imgui.MouseButtonLeft) && v.area.hovered && !io.KeyAlt() && !v.host.modalOpen() {
		v.box.pressing, v.box.boxing, v.box.pressAt = true, false, local
	}
	if !v.box.pressing {
		return
	}
	if imguizmo.IsUsingAny() {
		v.box.pressing = false
		return
	}
	rect := v.box.drag(local)
	if v.box.boxing {
		dl := imgui.WindowDrawList()
		p0 := imgui.Vec2{X: v.area.origin.X + float32(rect.Min.X), Y: v.area.origin.Y + float32(rect.Min.Y)}
		p1 := imgui.Vec2{X: v.area.origin.X + float32(rect.Max.X), Y: v.area.origin.Y + float32(rect.Max.Y)}
		dl.AddRectFilled(p0, p1, 0x30ff9933)
		dl.AddRect(p0, p1, 0xc0ff9933)
	}
	if imgui.IsMouseDown(imgui.MouseButtonLeft) {
		return
	}
	v.box.pressing = false
	var es []ecs.Entity
	if v.box.boxing {
		for _, id := range v.r.ReadIDs(rect) {
			if e, ok := v.scene.builder.Entity(id); ok && !v.lockedID(id) {
				es = append(es, e)
			}
		}
	} else if inside {
		if e, ok := v.pickAt(int(local.X), int(local.Y)); ok {
			es = append(es, e)
		}
	}
	ctrl := io.KeyCtrl()
	switch {
	case ctrl && v.box.boxing:
		v.doc.Selection().Add(es...)
	case ctrl && len(es) == 1:
		v.doc.Selection().Toggle(es[0])
	case ctrl:
	default:
		v.doc.Selection().Select(es...)
	}
	v.host.picked(es)
}

// viewCubeSize is the side of the view cube's square, in pixels, in a viewport big enough for it.
const viewCubeSize = 96

// viewCubeMin is the smallest view cube drawn: in a viewport with less room there is none.
const viewCubeMin = 32

// viewCubeSide is the side of the view cube's square: viewCubeSize, less in a small viewport so that it stays
// inside it with its margin (0: no room for one).
func (a *imageArea) viewCubeSide() float32 {
	side := min(viewCubeSize, float32(a.w)/3, float32(a.h)-16)
	if side < viewCubeMin {
		return 0
	}
	return side
}

// viewCubePos is the top-left corner of the view cube's square (the viewport's top-right corner).
func (a *imageArea) viewCubePos() imgui.Vec2 {
	return imgui.Vec2{X: a.origin.X + float32(a.w) - a.viewCubeSide() - 8, Y: a.origin.Y + 8}
}

// overViewCube reports whether screen point p is on the view cube's square.
func (a *imageArea) overViewCube(p imgui.Vec2) bool {
	c, side := a.viewCubePos(), a.viewCubeSide()
	return p.X >= c.X && p.Y >= c.Y && p.X < c.X+side && p.Y < c.Y+side
}

// buildViewCube draws the orientation cube in the top-right corner; clicking a face turns the camera to it.
func (v *viewportPanel) buildViewCube() {
	if imgui.InternalCurrentWindow().Hidden() {
		return // ImGuizmo draws it on a list of its own, which a hidden panel (App.panel) does not hide
	}
	side := v.area.viewCubeSide()
	if side == 0 {
		return
	}
	cam := v.doc.Camera()
	persp := *cam
	persp.Orthographic = false // the cube turns the view about the pivot, at the distance
	view := persp.View()
	before := view
	pos := v.area.viewCubePos()
	imguizmo.ViewManipulateFloat(&view[0], cam.Distance, pos, imgui.Vec2{X: side, Y: side}, 0x00000000)
	if view != before {
		*cam = cam.WithView(view)
		if ax, ok := cam.NearestAxisView(axisSnapDegrees); ok && !imgui.IsMouseDown(imgui.MouseButtonLeft) {
			cam.SetAxisView(ax) // a face clicked: the cube's turn ends on it; the axis view, exact and orthographic
		}
	}
}

// axisSnapDegrees is how near an axis the view cube's turn must end to become that axis view (more than the 1° the
// orbit's pitch limit keeps from the poles).
const axisSnapDegrees = 2

// axisView turns the camera to look along an axis, orthographic (the numpad keys, the View menu).
func (v *viewportPanel) axisView(ax viewport.AxisView) { v.doc.Camera().SetAxisView(ax) }

// toggleOrtho switches the camera between perspective and orthographic.
func (v *viewportPanel) toggleOrtho() {
	cam := v.doc.Camera()
	cam.Orthographic = !cam.Orthographic
}

// budget is how long this frame may spend on the picture (see drawBudget): the bigger budget once the input is
// calm, and at once after a discrete change (a key pressed and released: undo, delete, a spawn) while nothing is
// held or moving and no text field has the keyboard (typing keeps its frames short).
func (c *inputClock) budget(interactive bool) time.Duration {
	if !interactive && (time.Since(c.lastInput) > inputCalm || (!c.inputNow && !c.typing)) {
		return idleDrawBudget
	}
	return drawBudget
}
