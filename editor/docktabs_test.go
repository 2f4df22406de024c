package editor

import (
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
)

// TestPanelTabsAreNeverClipped: in every frame in which a docked panel is on the screen, its tab is as wide as its
// label and close button — from the very first frame, and after View → Reset Layout. A tab laid out for the first
// time is a close button narrower for one frame ("Hierarc×"), and a frame stays on the screen while the loop thread
// merges a big scene.
func TestPanelTabsAreNeverClipped(t *testing.T) {
	f := newAppUnbuilt(t, Options{})
	a := f.a
	check := func(when string) (shown int) {
		t.Helper()
		for _, name := range []string{panelHierarchy, panelViewport, panelInspector, panelConsole} {
			w := imgui.InternalFindWindowByName(name)
			if w == nil || w.CData == nil {
				continue
			}
			n := w.DockNode()
			if n == nil || n.CData == nil || n.TabBar() == nil || n.TabBar().CData == nil {
				continue // no tab bar yet
			}
			// The tab bar is drawn by the node's host (the dock space's window), whether the panel is hidden or not.
			if h := n.HostWindow(); h == nil || h.CData == nil || !onScreen(h) {
				continue
			}
			tab := imgui.InternalTabBarFindTabByID(n.TabBar(), w.TabId())
			if tab == nil {
				continue // the node's tab bar does not show it (another tab is in front)
			}
			if need := imgui.InternalTabItemCalcSizeStr(name, true).X; tab.Width() < need {
				t.Errorf("%s: the tab of %s is %.0f px wide, its label and close button need %.0f", when, name, tab.Width(), need)
			}
			shown++
		}
		return shown
	}
	shown := 0
	for i := 1; i <= 4; i++ {
		f.frame()
		shown += check("frame " + string(rune('0'+i)))
	}
	if shown == 0 {
		t.Fatal("no panel was on the screen in the first four frames")
	}
	a.resetLayout()
	for i := 1; i <= 3; i++ {
		f.frame()
		check("after Reset Layout, frame " + string(rune('0'+i)))
	}
}

// onScreen reports whether window w is drawn in the frame just built.
func onScreen(w *imgui.Window) bool {
	return w.Active() && !w.Hidden() && w.HiddenFramesCannotSkipItems() == 0 && w.HiddenFramesCanSkipItems() == 0
}
