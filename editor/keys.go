package editor

import (
	"slices"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// chordKeeper keeps quick Ctrl chords in text fields. ImGui hands queued input to frames one change per key, but
// changes of different keys reach the same frame: when Ctrl goes down in one frame and the A's press and Ctrl's
// release reach the next one together (a quick Ctrl+A on a busy machine, or xdotool's), ImGui sees a plain A — and
// a text field's own Ctrl+A, Ctrl+C, Ctrl+V, Ctrl+X and Ctrl+Z are lost without a trace (the editor's shortcuts
// allow for this in chordPressed). The backend reports each key press with the modifiers held at that moment
// (keyEvent); when a key that went down with Ctrl reaches a frame without Ctrl while a text field has the keyboard,
// frameStart presses it again with Ctrl over the next frames.
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

// frameStart runs at the start of each frame, after ImGui took this frame's input: a key pressed with Ctrl that
// reached this frame without it, while a text field has the keyboard, is released and pressed again with Ctrl
// (ImGui hands the replay to the next frames, in order).
func (k *chordKeeper) frameStart() {
	if len(k.withCtrl) == 0 {
		return
	}
	io := imgui.CurrentIO()
	k.withCtrl = slices.DeleteFunc(k.withCtrl, func(key imgui.Key) bool {
		if !imgui.IsKeyPressedBoolV(key, false) {
			// Not handed to a frame yet, unless nothing is left to hand (then it was handed and is gone).
			return imgui.CurrentContext().InputEventsQueue().Size == 0
		}
		if !io.KeyCtrl() && io.WantTextInput() {
			replayCtrlChord(io, key)
		}
		return true
	})
}

// replayCtrlChord queues key's release and Ctrl+key pressed and released.
func replayCtrlChord(io *imgui.IO, key imgui.Key) {
	io.AddKeyEvent(key, false)
	io.AddKeyEvent(imgui.KeyLeftCtrl, true)
	io.AddKeyEvent(imgui.Key(imgui.ModCtrl), true)
	io.AddKeyEvent(key, true)
	io.AddKeyEvent(key, false)
	io.AddKeyEvent(imgui.KeyLeftCtrl, false)
	io.AddKeyEvent(imgui.Key(imgui.ModCtrl), false)
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
