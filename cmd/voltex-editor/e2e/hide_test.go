package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// frontViewCube opens the scene at path (cubes.json) with the user's settings in dir, looks at it from the front
// (where each cube hides a row of cubes behind it) and clicks the front cube at x, y.
func frontViewCube(t *testing.T, path, dir string) (e *guitest.Editor, x, y int) {
	t.Helper()
	e = launchOnWith(t, path, "--settings", dir)
	p := e.WaitProbe(20*time.Second, "the scene drawn", func(p *guitest.Probe) bool { return p.Picture.Total == 400 })
	cx, cy := p.Viewport.Center()
	e.Move(cx, cy)
	e.Key("KP_1")
	e.WaitProbe(10*time.Second, "the front view", func(p *guitest.Probe) bool { return p.Camera.Ortho && p.Camera.Pitch == 0 })
	e.Settle()
	x, y = cubePixel(t, e)
	e.Click(x, y, 1)
	return e, x, y
}

// TestHideAndLockPickBehind: in the front view, where each cube hides a row of cubes behind it, H hides the picked
// cube (not drawn, kept in the user's settings, not in the scene) and a click where it was picks the one behind;
// that one locked from its hierarchy row has no gizmo and is passed over too; Alt+H shows everything again.
func TestHideAndLockPickBehind(t *testing.T) {
	path := copyScene(t, "cubes.json")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	e, x, y := frontViewCube(t, path, dir)
	p := e.WaitProbe(10*time.Second, "the front cube picked", func(p *guitest.Probe) bool { return p.SelectedCount == 1 })
	front := p.Selected[0]
	cx, cy := p.Viewport.Center()

	e.Move(x, y)
	e.Key("h")
	e.WaitProbe(10*time.Second, "the cube hidden", func(p *guitest.Probe) bool {
		return p.Picture.Total == 399 && p.SelectedCount == 0 && !p.Picture.Pending
	})
	e.Click(x, y, 1)
	p = e.WaitProbe(10*time.Second, "the cube behind picked", func(p *guitest.Probe) bool { return p.SelectedCount == 1 })
	behind := p.Selected[0]
	if behind == front {
		t.Fatal("the hidden cube was picked")
	}
	p = e.Settle()
	lookShot(t, e, "hide-front-view.png")
	if p.Dirty {
		t.Error("hiding changed the scene")
	}
	if data, err := os.ReadFile(filepath.Join(dir, "settings.json")); err != nil || !strings.Contains(string(data), strconv.FormatUint(front, 10)) {
		t.Errorf("the settings do not keep the hidden cube %d: %v\n%s", front, err, data)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("hiding wrote the scene file")
	}

	var row guitest.Row
	for _, r := range p.Hierarchy {
		if r.Selected {
			row = r
		}
	}
	if row.Lock.W == 0 {
		t.Fatalf("no lock toggle on the selected row among %+v", p.Hierarchy)
	}
	lx, ly := row.Lock.Center()
	e.Click(lx, ly, 1)
	e.WaitProbe(10*time.Second, "the cube locked", func(p *guitest.Probe) bool {
		r, ok := p.Row(row.Name)
		return ok && r.Locked
	})
	p = e.Settle()
	lookShot(t, e, "lock-row.png")
	if p.Gizmo != [2]int{} {
		t.Errorf("a locked cube has a gizmo at %v", p.Gizmo)
	}
	e.Click(x, y, 1)
	p = e.WaitProbe(10*time.Second, "the next cube picked", func(p *guitest.Probe) bool {
		return p.SelectedCount == 1 && p.Selected[0] != behind
	})
	if p.Selected[0] == front {
		t.Error("the hidden cube was picked through the locked one")
	}

	e.Move(cx, cy)
	e.Key("alt+h")
	e.WaitProbe(10*time.Second, "everything shown", func(p *guitest.Probe) bool { return p.Picture.Total == 400 })
}
