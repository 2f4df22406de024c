package editor

import (
	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// prompt is a modal question with buttons, such as "Save changes before closing?", or a message with OK. Which
// button a key presses is its pure part (keyChoice, hint); Build draws it as a popup.
type prompt struct {
	title, message string
	buttons        []string
	// cancel is the index of the button Escape presses (-1: none).
	cancel   int
	onChoose func(i int)
	opened   bool
	answered bool
}

var _ g.Widget = (*prompt)(nil)

// keyChoice is the button the keys pressed this frame press, -1 for none: Escape the cancel button; unless a text
// field has the keyboard, Enter the first button and a button's first letter that button (S, D, C for Save / Don't
// Save / Cancel) when no two buttons share it.
func (p *prompt) keyChoice(pressed func(imgui.Key) bool, textInput bool) int {
	if p.cancel >= 0 && pressed(imgui.KeyEscape) {
		return p.cancel
	}
	if textInput {
		return -1
	}
	if pressed(imgui.KeyEnter) || pressed(imgui.KeyKeypadEnter) {
		return 0
	}
	for i, b := range p.buttons {
		if k, ok := letterKey(b); ok && uniqueInitial(p.buttons, b[0]) && pressed(k) {
			return i
		}
	}
	return -1
}

// hint tells the keys: "Enter: Save   Keys: S/D/C".
func (p *prompt) hint() string {
	h := "Enter: " + p.buttons[0]
	keys := ""
	for _, b := range p.buttons {
		if _, ok := letterKey(b); ok && uniqueInitial(p.buttons, b[0]) {
			if keys != "" {
				keys += "/"
			}
			keys += string(b[0])
		}
	}
	if keys != "" {
		h += "   Keys: " + keys
	}
	return h
}

// choose answers the prompt with button i (once).
func (p *prompt) choose(i int) {
	if p.answered {
		return
	}
	p.answered = true
	p.onChoose(i)
}

// Build draws the prompt; once a button is pressed it closes and onChoose runs (done reports it).
func (p *prompt) Build() {
	if p.answered {
		return
	}
	if !beginModal(p.title+"###prompt", &p.opened, imgui.Vec2{}) {
		return
	}
	text(registerText(p.message))
	imgui.Spacing()
	textDisabled(p.hint())
	chosen := p.buildButtons()
	if chosen < 0 && !imgui.IsWindowAppearing() { // a key that opened the prompt must not also answer it
		chosen = p.keyChoice(func(k imgui.Key) bool {
			repeat := k == imgui.KeyEscape || k == imgui.KeyEnter || k == imgui.KeyKeypadEnter // letters do not repeat
			return imgui.IsKeyPressedBoolV(k, repeat)
		}, imgui.CurrentIO().WantTextInput())
	}
	if chosen >= 0 {
		imgui.CloseCurrentPopup()
	}
	imgui.EndPopup()
	if chosen >= 0 {
		p.choose(chosen)
	}
}

// buildButtons draws the buttons in a row, the first the default; it returns the one clicked, -1 for none.
func (p *prompt) buildButtons() int {
	chosen := -1
	for i, b := range p.buttons {
		if i > 0 {
			imgui.SameLine()
		}
		if i == 0 {
			imgui.SetItemDefaultFocus()
		}
		if imgui.ButtonV(b, imgui.Vec2{X: max(110, imgui.CalcTextSize(b).X+20)}) {
			chosen = i
		}
	}
	return chosen
}

// done reports whether the prompt was answered.
func (p *prompt) done() bool { return p.answered }

// letterKey returns the ImGui key of a label's first letter.
func letterKey(label string) (imgui.Key, bool) {
	if label == "" {
		return 0, false
	}
	c := label[0] | 0x20 // lower case
	if c < 'a' || c > 'z' {
		return 0, false
	}
	return imgui.KeyA + imgui.Key(c-'a'), true
}

func uniqueInitial(labels []string, c byte) bool {
	n := 0
	for _, l := range labels {
		if l != "" && l[0]|0x20 == c|0x20 {
			n++
		}
	}
	return n == 1
}

// beginModal opens the modal popup name once (opened remembers it) and begins it, centred in the window: sized
// to its content when size is zero, else size at most (and at most 90 % × 80 % of the window). It reports whether
// the popup is open this frame; the caller ends it then.
func beginModal(name string, opened *bool, size imgui.Vec2) bool {
	if !*opened {
		imgui.OpenPopupStr(name)
		*opened = true
	}
	vp := imgui.MainViewport()
	imgui.SetNextWindowPosV(vp.Center(), imgui.CondAppearing, imgui.Vec2{X: 0.5, Y: 0.5})
	flags := imgui.WindowFlagsNoSavedSettings
	if size == (imgui.Vec2{}) {
		flags |= imgui.WindowFlagsAlwaysAutoResize
	} else {
		imgui.SetNextWindowSizeV(imgui.Vec2{X: min(size.X, vp.Size().X*0.9), Y: min(size.Y, vp.Size().Y*0.8)}, imgui.CondAppearing)
	}
	return imgui.BeginPopupModalV(name, nil, flags)
}
