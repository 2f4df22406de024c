package editor

import (
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/editor/probe"
)

// TestAppSmallWindowLayout: in small windows the layout stays sane: the menus and the toolbar share the menu bar
// without overlapping (the toolbar after the menus, clipped at the window's edge), the panels do not overlap and
// stay in the window below the bar, and the view cube stays inside the viewport (smaller when the viewport is).
func TestAppSmallWindowLayout(t *testing.T) {
	f := newAppFixture(t, Options{})
	for _, size := range [][2]float32{{520, 360}, {400, 260}, {1600, 1000}} {
		f.ui.io().SetDisplaySize(imgui.Vec2{X: size[0], Y: size[1]})
		f.frames(4)
		win := probe.Rect{W: int(size[0]), H: int(size[1])}
		var bar []string
		for name := range f.st.Menus {
			bar = append(bar, name)
		}
		for _, a := range bar {
			for _, b := range bar {
				if a < b && f.st.Menus[a].Overlaps(f.st.Menus[b]) {
					t.Errorf("%v: %s %+v and %s %+v overlap", size, a, f.st.Menus[a], b, f.st.Menus[b])
				}
			}
		}
		play := f.st.Menus["toolbar:Play"]
		if play.W == 0 || !win.Holds(play) {
			t.Errorf("%v: the toolbar's Play %+v is not in the window", size, play)
		}
		for _, a := range []string{"Hierarchy", "Viewport", "Inspector", "Console"} {
			pa := f.st.Panels[a]
			if !win.Holds(pa) || pa.Y < play.Y+play.H {
				t.Errorf("%v: the %s panel %+v is not in the window below the menu bar", size, a, pa)
			}
			for _, b := range []string{"Hierarchy", "Viewport", "Inspector", "Console"} {
				if a < b && pa.Overlaps(f.st.Panels[b]) {
					t.Errorf("%v: %s %+v and %s %+v overlap", size, a, pa, b, f.st.Panels[b])
				}
			}
		}
		if c := f.st.ViewCube; c.W > 0 && !f.st.Viewport.Holds(c) {
			t.Errorf("%v: the view cube %+v is not inside the viewport %+v", size, c, f.st.Viewport)
		}
		if size[0] >= 1600 && f.st.ViewCube.W != viewCubeSize {
			t.Errorf("in a big window the view cube is %d pixels wide, want %d", f.st.ViewCube.W, viewCubeSize)
		}
	}
}
