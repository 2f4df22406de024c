package editor

import (
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"

	"github.com/voltex-editor/voltex/editor/probe"
	_ "github.com/voltex-editor/voltex/internal/glibcfix"
)

// uiContext is an ImGui context without a window (as giu's Context_test): frames go to draw lists nobody draws, so
// panels can be built, and driven with real input events, in unit tests. Input is queued as a backend queues it
// and reaches the next frame.
type uiContext struct {
	tb  testing.TB
	ctx *imgui.Context
}

func newUIContext(tb testing.TB) *uiContext {
	tb.Helper()
	ctx := imgui.CreateContext()
	io := imgui.CurrentIO()
	io.SetIniFilename("")
	io.SetDisplaySize(imgui.Vec2{X: 1600, Y: 1000})
	io.SetConfigFlags(io.ConfigFlags() | imgui.ConfigFlagsDockingEnable)
	io.Fonts().GetTextureDataAsRGBA32()
	tb.Cleanup(func() { imgui.DestroyContextV(ctx) })
	return &uiContext{tb: tb, ctx: ctx}
}

// frame builds one frame with build.
func (u *uiContext) frame(build func()) {
	imgui.SetCurrentContext(u.ctx)
	imgui.CurrentIO().SetDeltaTime(1.0 / 60)
	imgui.NewFrame()
	imguizmo.BeginFrame()
	build()
	imgui.Render()
}

// frames builds n frames with build.
func (u *uiContext) frames(n int, build func()) {
	for range n {
		u.frame(build)
	}
}

// inWindow builds body in a window named name at x, y of size w×h (as the dock gives a panel its place).
func inWindow(name string, x, y, w, h float32, body func()) {
	imgui.SetNextWindowPos(imgui.Vec2{X: x, Y: y})
	imgui.SetNextWindowSize(imgui.Vec2{X: w, Y: h})
	if imgui.BeginV(name, nil, imgui.WindowFlagsNoSavedSettings) {
		body()
	}
	imgui.End()
}

func (u *uiContext) io() *imgui.IO {
	imgui.SetCurrentContext(u.ctx)
	return imgui.CurrentIO()
}

// move puts the mouse at x, y and builds a frame.
func (u *uiContext) move(x, y float32, build func()) {
	u.io().AddMousePosEvent(x, y)
	u.frame(build)
}

// press presses (down) or releases mouse button b and builds a frame.
func (u *uiContext) press(b imgui.MouseButton, down bool, build func()) {
	u.io().AddMouseButtonEvent(int32(b), down)
	u.frame(build)
}

// click moves to x, y and clicks button b: a frame for each event, then one more.
func (u *uiContext) click(b imgui.MouseButton, x, y float32, build func()) {
	u.move(x, y, build)
	u.press(b, true, build)
	u.press(b, false, build)
	u.frame(build)
}

// drag presses the left button at x0, y0, moves to x1, y1 in steps and releases it there.
func (u *uiContext) drag(x0, y0, x1, y1 float32, build func()) {
	u.move(x0, y0, build)
	u.press(imgui.MouseButtonLeft, true, build)
	const steps = 8
	for i := 1; i <= steps; i++ {
		f := float32(i) / steps
		u.move(x0+(x1-x0)*f, y0+(y1-y0)*f, build)
	}
	u.press(imgui.MouseButtonLeft, false, build)
	u.frame(build)
}

// modifiers holds Ctrl, Shift or Alt down (or releases them) from the next frame on.
func (u *uiContext) modifiers(ctrl, shift, alt bool) {
	io := u.io()
	io.AddKeyEvent(imgui.KeyLeftCtrl, ctrl)
	io.AddKeyEvent(imgui.ModCtrl, ctrl)
	io.AddKeyEvent(imgui.KeyLeftShift, shift)
	io.AddKeyEvent(imgui.ModShift, shift)
	io.AddKeyEvent(imgui.KeyLeftAlt, alt)
	io.AddKeyEvent(imgui.ModAlt, alt)
}

// key presses and releases k (with the modifiers of chord), a frame for each.
func (u *uiContext) key(chord imgui.KeyChord, build func()) {
	c, s := chord&ctrl != 0, chord&shift != 0
	k := imgui.Key(chord &^ (ctrl | shift))
	if c || s {
		u.modifiers(c, s, false)
		u.frame(build)
	}
	u.io().AddKeyEvent(k, true)
	u.frame(build)
	u.io().AddKeyEvent(k, false)
	u.frame(build)
	if c || s {
		u.modifiers(false, false, false)
		u.frame(build)
	}
}

// typeText types s into the field that has the keyboard, then a frame.
func (u *uiContext) typeText(s string, build func()) {
	u.io().AddInputCharactersUTF8(s)
	u.frames(2, build)
}

// centre returns the centre of r in window coordinates.
func centre(r probe.Rect) (float32, float32) {
	x, y := r.Center()
	return float32(x), float32(y)
}
