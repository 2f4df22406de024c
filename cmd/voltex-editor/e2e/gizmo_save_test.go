package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestGizmoMoveSavesOnlyThePosition: a move-only gizmo drag leaves the cube's rotation alone (not [-0, 0, 0] in the
// file, not -0.0° in the inspector). After the drag and Ctrl+S exactly one line of the file differs — the moved
// cube's Transform — and in it only the position; no widget and no line shows -0.
func TestGizmoMoveSavesOnlyThePosition(t *testing.T) {
	path := copyScene(t, "cubes.json")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, path)
	clickCube(t, e)
	p := e.WaitProbe(5*time.Second, "gizmo", func(p *guitest.Probe) bool { return p.Gizmo != [2]int{} })
	x0, z0 := p.Inspector["Transform.position[0]"].Shown, p.Inspector["Transform.position[2]"].Shown
	gx, gy := p.Gizmo[0], p.Gizmo[1]
	e.Drag(gx, gy, gx+120, gy+40, 1)
	p = e.WaitProbe(10*time.Second, "moved", func(p *guitest.Probe) bool {
		return p.UndoDepth > 0 && (p.Inspector["Transform.position[0]"].Shown != x0 || p.Inspector["Transform.position[2]"].Shown != z0)
	})
	for name, w := range p.Inspector {
		if strings.HasPrefix(name, "Transform.") && strings.HasPrefix(strings.TrimSpace(w.Shown), "-0") &&
			strings.Trim(strings.TrimPrefix(strings.TrimSpace(w.Shown), "-"), "0.°") == "" {
			t.Errorf("the inspector shows %s = %q", name, w.Shown)
		}
	}
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	was, now := strings.Split(string(orig), "\n"), strings.Split(string(after), "\n")
	if len(was) != len(now) {
		t.Fatalf("the save changed the number of lines: %d → %d", len(was), len(now))
	}
	var changed []int
	for i := range was {
		if was[i] != now[i] {
			changed = append(changed, i)
		}
	}
	if len(changed) != 1 {
		t.Fatalf("%d lines changed, want 1 (the moved cube's Transform): %v", len(changed), changed)
	}
	i := changed[0]
	before, line := strings.TrimSpace(was[i]), strings.TrimSpace(now[i])
	t.Logf("line %d: %s\n         → %s", i+1, before, line)
	if strings.Contains(line, "-0,") || strings.Contains(line, "-0]") {
		t.Errorf("line %d holds a -0: %s", i+1, line)
	}
	// Everything after the position is as it was: `"rotation": [0, 0, 0], "scale": [1, 1, 1] }`.
	tail := func(s string) string { _, r, _ := strings.Cut(s, `"rotation"`); return r }
	if !strings.HasPrefix(line, `"Transform": { "position": [`) || tail(line) == "" || tail(line) != tail(before) {
		t.Errorf("line %d changed more than the position:\n was %s\n now %s", i+1, before, line)
	}
}
