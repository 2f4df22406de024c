package editor

import (
	"strconv"
	"testing"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
)

// gatedFrame builds one frame as the editor's loop does: the gate takes out what the frame should not see before
// NewFrame and puts it back after; delta is the frame's length in seconds.
func (u *uiContext) gatedFrame(g *inputGate, delta float32, build func()) {
	imgui.SetCurrentContext(u.ctx)
	imgui.CurrentIO().SetDeltaTime(delta)
	if g != nil {
		g.beforeNewFrame()
	}
	imgui.NewFrame()
	if g != nil {
		g.afterNewFrame()
	}
	imguizmo.BeginFrame()
	build()
	imgui.Render()
}

// gatedFrames builds n gated frames of 1/60 s.
func (u *uiContext) gatedFrames(g *inputGate, n int, build func()) {
	for range n {
		u.gatedFrame(g, 1.0/60, build)
	}
}

// TestGateClickOnTabAfterMove: a move onto a tab and a click on it that reach one frame select the tab (ImGui alone
// drops the press: a tab takes a press only when it was hovered the frame before).
func TestGateClickOnTabAfterMove(t *testing.T) {
	u := newUIContext(t)
	g := &inputGate{}
	selected, tabB := "", imgui.Vec2{}
	build := func() {
		inWindow("Tabs", 0, 0, 400, 200, func() {
			if imgui.BeginTabBar("bar") {
				for _, name := range []string{"A", "B"} {
					open := imgui.BeginTabItem(name)
					if name == "B" {
						tabB = imgui.ItemRectMin().Add(imgui.ItemRectSize().Mul(0.5))
					}
					if open {
						selected = name
						imgui.EndTabItem()
					}
				}
				imgui.EndTabBar()
			}
		})
	}
	u.move(300, 150, build)
	u.frames(2, build)
	io := u.io()
	io.AddMousePosEvent(tabB.X, tabB.Y)
	io.AddMouseButtonEvent(0, true)
	io.AddMouseButtonEvent(0, false)
	u.gatedFrames(g, 6, build)
	if selected != "B" {
		t.Errorf("with the gate, a move and a click on tab B in one frame leave tab %s selected", selected)
	}
}

// TestGateTypingWaitsForFocus: characters typed while the frame that asks a field for the keyboard is drawn all
// land in it, in order (ImGui alone drops them: the field has the keyboard only two frames later).
func TestGateTypingWaitsForFocus(t *testing.T) {
	u := newUIContext(t)
	g := &inputGate{}
	open, focus, text := false, false, "10"
	build := func() {
		inWindow("Dialog", 0, 0, 400, 200, func() {
			if !open {
				return
			}
			if focus {
				imgui.SetKeyboardFocusHere()
				focus = false
			}
			imgui.InputTextWithHint("##count", "", &text, imgui.InputTextFlagsAutoSelectAll, nil)
		})
	}
	u.frames(2, build)
	open, focus = true, true
	u.gatedFrame(g, 1.0/60, build)       // asks for the keyboard, as the frame that handles Ctrl+G does
	u.io().AddInputCharactersUTF8("789") // typed while that frame was drawn
	u.gatedFrames(g, 8, build)
	if text != "789" {
		t.Errorf("with the gate, 789 typed as the field was asked for the keyboard left %q", text)
	}
}

// TestGateDoubleClickAtLowFrameRate: two presses that reached the editor 60 ms apart are a double-click however long
// the frames that handle them are; two presses a second apart are not. ImGui alone counts frame time: at 0.4 s a
// frame it never sees a double-click.
func TestGateDoubleClickAtLowFrameRate(t *testing.T) {
	u := newUIContext(t)
	g := &inputGate{}
	double := false
	build := func() {
		inWindow("Rows", 0, 0, 400, 200, func() {
			imgui.SelectableBool("row")
			double = double || imgui.IsItemHovered() && imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft)
		})
	}
	clock := time.Now()
	poll := func(d time.Duration) { // events arrive; the loop polls them d after the last poll
		clock = clock.Add(d)
		g.clock.polled(clock)
	}
	frames := func(n int) {
		for range n {
			u.gatedFrame(g, 0.4, build)
			poll(400 * time.Millisecond)
		}
	}
	u.move(50, 30, build)
	frames(2)
	io := u.io()
	// A double-click: the first press wakes the idle editor, the rest comes 60 ms later, while the first press's
	// frame is drawn, and is polled at its end.
	io.AddMouseButtonEvent(0, true)
	poll(10 * time.Millisecond)
	io.AddMouseButtonEvent(0, false)
	io.AddMouseButtonEvent(0, true)
	io.AddMouseButtonEvent(0, false)
	frames(5)
	if !double {
		t.Error("two presses 60 ms apart, handled 0.8 s of frames apart, are no double-click")
	}
	// Two clicks a second apart.
	double = false
	frames(3)
	io.AddMouseButtonEvent(0, true)
	io.AddMouseButtonEvent(0, false)
	poll(10 * time.Millisecond)
	frames(3)
	io.AddMouseButtonEvent(0, true)
	io.AddMouseButtonEvent(0, false)
	poll(10 * time.Millisecond)
	frames(3)
	if double {
		t.Error("two clicks 1.2 s apart make a double-click")
	}
}

// TestGateQuickTabMovesOnce: at 0.6 s a frame, text typed right after a field asks for the keyboard, a quick Tab
// and more text put the first text in that field and the rest in the next one. A Tab whose release waited with
// the held input would look held past the key-repeat delay and move the focus twice.
func TestGateQuickTabMovesOnce(t *testing.T) {
	u := newUIContext(t)
	g := &inputGate{}
	focus := false
	fields := []string{"a", "b", "c"}
	build := func() {
		inWindow("Form", 0, 0, 400, 200, func() {
			if focus {
				imgui.SetKeyboardFocusHere()
				focus = false
			}
			for i := range fields {
				imgui.InputTextWithHint("##f"+strconv.Itoa(i), "", &fields[i], imgui.InputTextFlagsAutoSelectAll, nil)
			}
		})
	}
	u.frames(2, build)
	focus = true
	u.gatedFrame(g, 0.6, build)
	io := u.io()
	io.AddInputCharactersUTF8("7")
	io.AddKeyEvent(imgui.KeyTab, true)
	io.AddKeyEvent(imgui.KeyTab, false)
	io.AddInputCharactersUTF8("8")
	for range 10 {
		u.gatedFrame(g, 0.6, build)
	}
	if fields[0] != "7" || fields[1] != "8" || fields[2] != "c" {
		t.Errorf("the fields hold %q, want [7 8 c]", fields)
	}
}
