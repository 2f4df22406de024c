package editor

import (
	"fmt"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/serialize"
)

// prompt is a modal question with buttons, such as "Save changes before closing?".
type prompt struct {
	title, message string
	buttons        []string
	// cancel is the index of the button Escape presses (-1: none).
	cancel   int
	onChoose func(i int)
	opened   bool
}

// ask shows a modal question; onChoose gets the index of the button pressed.
func (a *App) ask(title, message string, cancel int, onChoose func(int), buttons ...string) {
	a.prompt = &prompt{title: title, message: message, buttons: buttons, cancel: cancel, onChoose: onChoose}
}

// alert tells the user something that needs no decision (a failed save, a broken file): a prompt with one OK
// button. It is the one way the editor reports such things in a dialog (the console has the details).
func (a *App) alert(title, message string) { a.ask(title, message, 0, func(int) {}, "OK") }

// maxListedProblems is how many problems a dialog lists; the console has them all.
const maxListedProblems = 8

// problemLines lists problems for a dialog, one a line as line formats them, at most maxListedProblems of them
// and then how many more the console has.
func problemLines(probs []serialize.Problem, line func(serialize.Problem) string) string {
	var b strings.Builder
	for i, p := range probs {
		if i == maxListedProblems {
			fmt.Fprintf(&b, "… and %d more (see the Console)\n", len(probs)-maxListedProblems)
			break
		}
		b.WriteString(line(p) + "\n")
	}
	return b.String()
}

// confirmDiscard runs then at once if the scene has no unsaved changes; otherwise it asks "Save / Don't Save /
// Cancel" first (what is about to happen is named by action: "quit", "open another scene"…).
func (a *App) confirmDiscard(action string, then func()) {
	if !a.doc.Dirty() {
		then()
		return
	}
	a.ask("Unsaved changes", "Save changes to \""+a.docLabel()+"\" before you "+action+"?\nYour changes will be lost if you don't save them.", 2,
		func(i int) {
			switch i {
			case 0:
				a.saveThen(then)
			case 1:
				then()
			}
		}, "Save", "Don't Save", "Cancel")
}

// buildPrompt draws the current prompt, if any.
func (a *App) buildPrompt() {
	p := a.prompt
	if p == nil {
		return
	}
	name := p.title + "###prompt"
	if !p.opened {
		imgui.OpenPopupStr(name)
		p.opened = true
	}
	imgui.SetNextWindowPosV(imgui.MainViewport().Center(), imgui.CondAppearing, imgui.Vec2{X: 0.5, Y: 0.5})
	if !imgui.BeginPopupModalV(name, nil, imgui.WindowFlagsAlwaysAutoResize|imgui.WindowFlagsNoSavedSettings) {
		return
	}
	text(registerText(p.message))
	imgui.Spacing()
	textDisabled(promptHint(p.buttons))
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
	keys := !imgui.IsWindowAppearing() // a key that opened the prompt must not also answer it
	if keys && chosen < 0 && p.cancel >= 0 && imgui.IsKeyPressedBool(imgui.KeyEscape) {
		chosen = p.cancel
	}
	if keys && chosen < 0 && !imgui.CurrentIO().WantTextInput() {
		// Enter presses the first button; each button's first letter presses it (S, D, C for Save / Don't Save /
		// Cancel) when no two buttons share it.
		if imgui.IsKeyPressedBool(imgui.KeyEnter) || imgui.IsKeyPressedBool(imgui.KeyKeypadEnter) {
			chosen = 0
		}
		for i, b := range p.buttons {
			if k, ok := letterKey(b); ok && uniqueInitial(p.buttons, b[0]) && imgui.IsKeyPressedBoolV(k, false) {
				chosen = i
			}
		}
	}
	if chosen >= 0 {
		imgui.CloseCurrentPopup()
		a.prompt = nil
		p.onChoose(chosen)
	}
	imgui.EndPopup()
}

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

// promptHint tells the keys: "Enter: Save · S/D/C".
func promptHint(buttons []string) string {
	h := "Enter: " + buttons[0]
	keys := ""
	for _, b := range buttons {
		if _, ok := letterKey(b); ok && uniqueInitial(buttons, b[0]) {
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
