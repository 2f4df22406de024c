package editor

import (
	"slices"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// chordKeeper keeps quick Ctrl chords. ImGui hands queued input to frames one change per key, but changes of
// different keys reach the same frame: when Ctrl goes down in one frame and the A's press and Ctrl's release reach
// the next one together (a quick Ctrl+A on a busy machine, or xdotool's), that frame has A pressed and Ctrl up — a
// plain A. A text field's own Ctrl+A, Ctrl+C, Ctrl+V, Ctrl+X, Ctrl+Z were lost, and its plain key acted instead (a
// quick Ctrl+Backspace deleted a character). The backend reports each key press with the modifiers held at that
// moment (keyEvent); in the frame where a key pressed with Ctrl arrives without it, frameStart holds Ctrl for that
// frame, so every widget sees the chord that was typed. (The editor's own shortcuts also allow for this:
// chordPressed counts a modifier released in the frame of the key's press.)
type chordKeeper struct {
	withCtrl []imgui.Key // keys pressed with Ctrl held that ImGui has not handed to a frame yet
}

// keyEvent records a key press (down) reported by the backend, with whether Ctrl was held when it happened.
func (k *chordKeeper) keyEvent(key imgui.Key, ctrl, down bool) {
	if down && ctrl && !isModifier(key) && !slices.Contains(k.withCtrl, key) {
		k.withCtrl = append(k.withCtrl, key)
	}
}

// onKey is keyEvent as giu's input callback (giu.Key is imgui.Key).
func (k *chordKeeper) onKey(key g.Key, mods g.Modifier, action g.Action) {
	k.keyEvent(imgui.Key(key), mods&g.ModControl != 0, action == g.Press)
}

// frameStart runs at the start of each frame, after ImGui took this frame's input and before any widget: a key
// pressed with Ctrl that reached this frame without it gets Ctrl held for this frame.
func (k *chordKeeper) frameStart() {
	if len(k.withCtrl) == 0 {
		return
	}
	io := imgui.CurrentIO()
	lost := false
	k.withCtrl = slices.DeleteFunc(k.withCtrl, func(key imgui.Key) bool {
		if !imgui.IsKeyPressedBoolV(key, false) {
			// Not handed to a frame yet, unless nothing is left to hand (then it was handed and is gone).
			return imgui.CurrentContext().InputEventsQueue().Size == 0
		}
		lost = lost || !io.KeyCtrl()
		return true
	})
	if lost {
		// ImGui derives both from the keys at the next frame's start: this lasts one frame.
		io.SetKeyCtrl(true)
		io.SetKeyMods(io.KeyMods() | imgui.KeyChord(imgui.ModCtrl))
	}
}

// isModifier reports whether key is a modifier key (or ImGui's merged modifier).
func isModifier(key imgui.Key) bool {
	switch key {
	case imgui.KeyLeftCtrl, imgui.KeyRightCtrl, imgui.KeyLeftShift, imgui.KeyRightShift, imgui.KeyLeftAlt,
		imgui.KeyRightAlt, imgui.KeyLeftSuper, imgui.KeyRightSuper:
		return true
	}
	return key&imgui.Key(imgui.ModMask) != 0
}
