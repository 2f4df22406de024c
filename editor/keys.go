package editor

import (
	"slices"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// chordKeeper keeps quick chords. ImGui hands queued input to frames one change per key, but changes of different
// keys reach the same frame: when Ctrl goes down in one frame and the A's press and Ctrl's release reach the next one
// together (a quick Ctrl+A on a busy machine, or xdotool's), that frame has A pressed and Ctrl up — a plain A. A text
// field's own Ctrl+A, Ctrl+C, Ctrl+V, Ctrl+X, Ctrl+Z were lost, and its plain key acted instead (a quick
// Ctrl+Backspace deleted a character). The backend reports each key press with the modifiers held at that moment
// (keyEvent); in the frame where a key pressed with Ctrl, Shift or Alt arrives without it, frameStart holds that modifier
// for the frame, so every widget, and the editor's shortcuts (chordPressed), see the chord that was typed.
type chordKeeper struct {
	pressed []keyPress // key presses with Ctrl, Shift or Alt held that ImGui has not handed to a frame yet
	// held: frameStart held a modifier for this frame; the modifiers as ImGui had them, which frameEnd puts back.
	held             bool
	ctrl, shift, alt bool
	mods             imgui.KeyChord
}

// keyPress is a key pressed with modifiers.
type keyPress struct {
	key              imgui.Key
	ctrl, shift, alt bool
}

// keyEvent records a key press (down) reported by the backend, with the modifiers held when it happened.
func (k *chordKeeper) keyEvent(key imgui.Key, ctrl, shift, alt, down bool) {
	if !down || !(ctrl || shift || alt) || isModifier(key) || key < imgui.KeyNamedKeyBEGIN || key >= imgui.KeyNamedKeyEND {
		// (giu reports keys it does not map, the numpad's among them, as 0: ImGui asserts on asking about one)
		return
	}
	k.pressed = slices.DeleteFunc(k.pressed, func(p keyPress) bool { return p.key == key })
	k.pressed = append(k.pressed, keyPress{key: key, ctrl: ctrl, shift: shift, alt: alt})
}

// onKey is keyEvent as giu's input callback (giu.Key is imgui.Key).
func (k *chordKeeper) onKey(key g.Key, mods g.Modifier, action g.Action) {
	k.keyEvent(imgui.Key(key), mods&g.ModControl != 0, mods&g.ModShift != 0, mods&g.ModAlt != 0, action == g.Press)
}

// frameStart runs at the start of each frame, after ImGui took this frame's input and before any widget: a key
// pressed with Ctrl, Shift or Alt that reached this frame without it gets that modifier held for this frame.
func (k *chordKeeper) frameStart() {
	if len(k.pressed) == 0 {
		return
	}
	io := imgui.CurrentIO()
	var ctrl, shift, alt bool
	k.pressed = slices.DeleteFunc(k.pressed, func(p keyPress) bool {
		if !imgui.IsKeyPressedBoolV(p.key, false) {
			// Not handed to a frame yet, unless nothing is left to hand (then it was handed and is gone).
			return imgui.CurrentContext().InputEventsQueue().Size == 0
		}
		ctrl = ctrl || p.ctrl && !io.KeyCtrl()
		shift = shift || p.shift && !io.KeyShift()
		alt = alt || p.alt && !io.KeyAlt()
		return true
	})
	// ImGui derives these from the keys at the next frame's start: they last one frame (frameEnd).
	if ctrl || shift || alt {
		k.held, k.ctrl, k.shift, k.alt, k.mods = true, io.KeyCtrl(), io.KeyShift(), io.KeyAlt(), io.KeyMods()
	}
	if ctrl {
		io.SetKeyCtrl(true)
		io.SetKeyMods(io.KeyMods() | imgui.KeyChord(imgui.ModCtrl))
	}
	if shift {
		io.SetKeyShift(true)
		io.SetKeyMods(io.KeyMods() | imgui.KeyChord(imgui.ModShift))
	}
	if alt {
		io.SetKeyAlt(true)
		io.SetKeyMods(io.KeyMods() | imgui.KeyChord(imgui.ModAlt))
	}
}

// frameEnd runs at the end of each frame, after every widget: the modifiers frameStart held go back to what ImGui
// had (its frame's end checks that io.KeyMods agrees with the modifier keys down, and asserts — the editor
// crashed — when a chord's Ctrl was held for a key while its Shift was still down).
func (k *chordKeeper) frameEnd() {
	if !k.held {
		return
	}
	k.held = false
	io := imgui.CurrentIO()
	io.SetKeyCtrl(k.ctrl)
	io.SetKeyShift(k.shift)
	io.SetKeyAlt(k.alt)
	io.SetKeyMods(k.mods)
}

// isModifier reports whether key is a modifier key (or ImGui's merged modifier).
func isModifier(key imgui.Key) bool {
	switch key {
	case imgui.KeyLeftCtrl, imgui.KeyRightCtrl, imgui.KeyLeftShift, imgui.KeyRightShift, imgui.KeyLeftAlt,
		imgui.KeyRightAlt, imgui.KeyLeftSuper, imgui.KeyRightSuper:
		return true
	}
	return key&imgui.ModMask != 0
}
