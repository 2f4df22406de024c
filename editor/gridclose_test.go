package editor

import (
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
)

// TestGridDialogGoneInTheFrameOfEnter: the frame that handles Enter (Spawn) or Escape (Cancel) does not draw the
// dialog, not even its window without its fields: an empty "Spawn Cube Grid" box would stay on screen for the long
// frames of a big spawn (about a second under llvmpipe).
func TestGridDialogGoneInTheFrameOfEnter(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/cubes.json"})
	dialog := func() bool {
		w := imgui.InternalFindWindowByName("Spawn Cube Grid###griddialog")
		return w != nil && w.Active()
	}
	for _, k := range []imgui.Key{imgui.KeyEnter, imgui.KeyEscape} {
		before := f.st.Entities
		f.key(ctrl | key(imgui.KeyG))
		f.frames(3)
		if f.st.Grid == nil || !dialog() {
			t.Fatalf("Ctrl+G: no dialog (grid %+v)", f.st.Grid)
		}
		f.ui.io().AddKeyEvent(k, true)
		f.frame()
		if dialog() {
			t.Errorf("the frame that handled key %v drew the dialog", k)
		}
		f.ui.io().AddKeyEvent(k, false)
		f.frames(2)
		if f.st.Grid != nil || (k == imgui.KeyEnter) != (f.st.Entities == before+100) {
			t.Fatalf("key %v: grid %+v, %d entities (before %d)", k, f.st.Grid, f.st.Entities, before)
		}
	}
}
