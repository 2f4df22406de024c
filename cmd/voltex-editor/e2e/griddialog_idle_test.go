package e2e

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestGridDialogIdles: with the grid dialog open — its first field has the keyboard, its preview is shown — and
// nobody typing, the editor sleeps between caret blinks instead of drawing flat out (which takes 170 % CPU).
// Counted as frames per idle sleep, like TestFocusedTextFieldIdles.
func TestGridDialogIdles(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	e.Key("ctrl+g")
	p := e.WaitProbe(30*time.Second, "the grid dialog with its preview and a field that has the keyboard", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.Typing
	})
	w0 := p.Waits
	p = e.WaitProbe(30*time.Second, "the idle loop to sleep with the dialog open", func(p *guitest.Probe) bool { return p.Waits > w0 })
	f1, w1, r1 := p.Frames, p.Waits, p.ViewportRenders
	p = e.WaitProbe(60*time.Second, "six more sleeps", func(p *guitest.Probe) bool { return p.Waits >= w1+6 })
	if p.Grid == nil || !p.Grid.Typing {
		t.Fatalf("the dialog closed or its field lost the keyboard: %+v", p.Grid)
	}
	frames, waits := p.Frames-f1, p.Waits-w1
	t.Logf("%d frames over %d sleeps with the grid dialog open, %d viewport renders", frames, waits, p.ViewportRenders-r1)
	if frames > 3*waits+3 {
		t.Errorf("%d frames over %d idle sleeps: the open grid dialog keeps the editor drawing", frames, waits)
	}
	if p.ViewportRenders != r1 {
		t.Errorf("the viewport rendered %d times while nothing changed", p.ViewportRenders-r1)
	}
}
