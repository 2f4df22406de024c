package editor

import (
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
)

// quickChord sends Ctrl+k as xdotool and fast typists do on a busy machine: Ctrl goes down in one frame, and k's
// press and Ctrl's release reach the next frame together (ImGui hands a frame one change per key, so both land in
// it). The backend reports k's press with Ctrl held, as GLFW does.
func (f *appFixture) quickChord(k imgui.Key) { f.quickChordMods(k, true, false, false) }

// quickChordMods is quickChord with Ctrl, Shift and/or Alt.
func (f *appFixture) quickChordMods(k imgui.Key, ctrl, shift, alt bool) {
	io := f.ui.io()
	mods := func(down bool) {
		if ctrl {
			io.AddKeyEvent(imgui.KeyLeftCtrl, down)
			io.AddKeyEvent(imgui.ModCtrl, down)
		}
		if shift {
			io.AddKeyEvent(imgui.KeyLeftShift, down)
			io.AddKeyEvent(imgui.ModShift, down)
		}
		if alt {
			io.AddKeyEvent(imgui.KeyLeftAlt, down)
			io.AddKeyEvent(imgui.ModAlt, down)
		}
	}
	mods(true)
	f.frame()
	f.a.keys.keyEvent(k, ctrl, shift, alt, true)
	io.AddKeyEvent(k, true)
	mods(false)
	f.frame()
	io.AddKeyEvent(k, false)
	f.frames(5)
}

// TestQuickCtrlAInSearchField: a quick Ctrl+A in the focused hierarchy search selects its text, so what is typed
// next replaces it (if the Ctrl+A were lost, the typing would be appended, "SunEarth", and nothing would match).
func TestQuickCtrlAInSearchField(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	f.click(t, "the search field", f.st.HierarchySearch)
	f.frames(2)
	f.typeText("Sun")
	if f.a.hier.search != "Sun" || !f.st.TextInput {
		t.Fatalf("search %q, text input %v", f.a.hier.search, f.st.TextInput)
	}
	f.quickChord(imgui.KeyA)
	f.typeText("Earth")
	if f.a.hier.search != "Earth" {
		t.Fatalf("after a quick Ctrl+A and typing Earth the search is %q, want Earth", f.a.hier.search)
	}
	if n := f.a.ws.Doc().Selection().Len(); n != 0 {
		t.Fatalf("the quick Ctrl+A in the search field selected %d entities", n)
	}
	// A Ctrl+A held the usual way still works, and so does one pressed with Ctrl held throughout.
	f.key(ctrl | key(imgui.KeyA))
	f.typeText("Moon")
	if f.a.hier.search != "Moon" {
		t.Fatalf("after Ctrl+A and typing Moon the search is %q", f.a.hier.search)
	}
}

// TestQuickCtrlAOutsideTextFields: outside a text field the quick Ctrl+A is the editor's shortcut, run once.
func TestQuickCtrlAOutsideTextFields(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	f.quickChord(imgui.KeyA)
	if n := f.a.ws.Doc().Selection().Len(); n != 8 {
		t.Fatalf("a quick Ctrl+A selected %d entities, want all 8", n)
	}
	f.quickChord(imgui.KeyD) // Duplicate, once
	if f.st.Entities != 16 || f.st.UndoDepth != 1 {
		t.Fatalf("a quick Ctrl+D of 8 entities: %d entities, %d undo steps; want 16 and 1", f.st.Entities, f.st.UndoDepth)
	}
	f.quickChordMods(imgui.KeyN, true, true, false) // Create Empty (Ctrl+Shift+N), not New Scene (Ctrl+N)
	if f.st.Entities != 17 || f.st.UndoDepth != 2 || f.st.Modal != "" {
		t.Fatalf("a quick Ctrl+Shift+N: %d entities, %d undo steps, modal %q; want 17, 2 and none", f.st.Entities, f.st.UndoDepth, f.st.Modal)
	}
}

// TestQuickAltHShowsEverything: a quick Alt+H (its Alt released with H's press) is Unhide All, not a plain H that
// hides the selection.
func TestQuickAltHShowsEverything(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	f.frames(2)
	f.key(ctrl | key(imgui.KeyA))
	es := f.a.ws.Doc().Selection().Entities()
	if len(es) != 8 {
		t.Fatalf("Ctrl+A selected %d entities, want 8", len(es))
	}
	f.a.flags.hide(es[:1])
	f.frames(2)
	if !f.a.flags.hidden(es[0]) {
		t.Fatal("the first entity is not hidden")
	}
	f.quickChordMods(imgui.KeyH, false, false, true)
	for _, e := range es {
		if f.a.flags.hidden(e) {
			t.Fatalf("after a quick Alt+H entity %v is hidden", e)
		}
	}
}

// TestQuickCtrlBackspaceIsOnlyTheChord: the plain key ImGui sees first is not also acted on: a quick Ctrl+Backspace
// deletes the word before the caret as a held one does, not a character and then a word.
func TestQuickCtrlBackspaceIsOnlyTheChord(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	f.click(t, "the search field", f.st.HierarchySearch)
	f.frames(2)
	f.typeText("Sun Earth X")
	f.key(ctrl | key(imgui.KeyBackspace))
	held := f.a.hier.search
	f.key(ctrl | key(imgui.KeyA))
	f.typeText("Sun Earth X")
	f.quickChord(imgui.KeyBackspace)
	if held == "Sun Earth X" || f.a.hier.search != held {
		t.Fatalf("Ctrl+Backspace held: %q; quick: %q (want the same)", held, f.a.hier.search)
	}
}

// TestQuickChordWithAModifierStillDown: Ctrl+Shift+A where Ctrl is released with A's press and Shift stays down
// (the chord's keys let go one after the other): the frame holds Ctrl for A, and ends with the modifiers ImGui's
// keys say (ImGui asserts at the frame's end that io.KeyMods matches the modifier keys down; the editor crashed).
func TestQuickChordWithAModifierStillDown(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	f.frames(2)
	f.key(ctrl | key(imgui.KeyA))
	if f.a.ws.Doc().Selection().Len() == 0 {
		t.Fatal("Ctrl+A selected nothing")
	}
	io := f.ui.io()
	for _, k := range []imgui.Key{imgui.KeyLeftCtrl, imgui.ModCtrl, imgui.KeyLeftShift, imgui.ModShift} {
		io.AddKeyEvent(k, true)
	}
	f.frame()
	f.a.keys.keyEvent(imgui.KeyA, true, true, false, true)
	io.AddKeyEvent(imgui.KeyA, true)
	io.AddKeyEvent(imgui.KeyLeftCtrl, false)
	io.AddKeyEvent(imgui.ModCtrl, false)
	f.frame()
	io.AddKeyEvent(imgui.KeyA, false)
	io.AddKeyEvent(imgui.KeyLeftShift, false)
	io.AddKeyEvent(imgui.ModShift, false)
	f.frames(3)
	if n := f.a.ws.Doc().Selection().Len(); n != 0 {
		t.Errorf("Ctrl+Shift+A (Deselect All) left %d selected", n)
	}
}

// TestChordKeeperIgnoresUnnamedKeys: a key the backend cannot name (giu reports the numpad's keys as 0) pressed
// with Ctrl is not kept, so the frame does not ask ImGui about it (ImGui asserts on an unnamed key: the editor died
// on Ctrl+numpad 3).
func TestChordKeeperIgnoresUnnamedKeys(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	f.frame()
	f.a.keys.keyEvent(imgui.KeyNone, true, false, false, true)
	f.a.keys.keyEvent(imgui.KeyNamedKeyEND, true, false, false, true)
	f.frames(2) // would assert
	if len(f.a.keys.pressed) != 0 {
		t.Errorf("kept %v", f.a.keys.pressed)
	}
}
