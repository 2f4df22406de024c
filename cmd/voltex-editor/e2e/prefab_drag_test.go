package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestPrefabDragFromAssets: a prefab dragged from the Assets panel into the viewport is placed
// where it is dropped, standing on the ground; dragged onto a hierarchy row, it becomes that entity's child; each is one undo
// step.
func TestPrefabDragFromAssets(t *testing.T) {
	dir := writeScenes(t, map[string]string{"leaf.json": edgeFiles["leaf.json"], "level.json": `{ "format": "voltex.scene", "version": 2, "name": "Level",
  "editor": { "camera": { "pivot": [0, 0, 0], "yaw": 0, "pitch": -30, "distance": 12 } },
  "entities": [ { "id": 1, "name": "Floor", "order": 1, "components": { "Color": { "rgba": [0.35, 0.4, 0.35, 1] }, "Mesh": { "asset": "builtin:plane" }, "Transform": { "scale": [10, 1, 10] } } } ] }
`})
	e := launchOn(t, filepath.Join(dir, "level.json"))
	failShot(t, e, t.Name())
	p0 := e.WaitProbe(20*time.Second, "the scene", func(p *guitest.Probe) bool { return p.Entities == 1 })
	// The Assets tab, first in the tab bar at the top of the dock node it shares with the Console.
	c := p0.Panels["Console"]
	e.Click(c.X+45, c.Y+10, 1)
	p := e.WaitProbe(10*time.Second, "the Assets panel", func(p *guitest.Probe) bool { return p.Inspector["asset:leaf.json"].W > 0 })

	// Into the viewport, right of the centre: on the ground there.
	x, y := p.Inspector["asset:leaf.json"].Center()
	vx, vy := p.Viewport.X+p.Viewport.W*3/4, p.Viewport.Y+p.Viewport.H/2
	e.DragOnto(x, y, 1, func(*guitest.Probe) (int, int) { return vx, vy })
	p = e.WaitProbe(10*time.Second, "an instance placed", func(p *guitest.Probe) bool {
		r, ok := p.Row("leaf")
		return ok && r.Prefab == "instance" && p.Entities == 3 && p.Inspector["Transform.position[0]"].W > 0
	})
	if p.UndoDepth != p0.UndoDepth+1 {
		t.Errorf("the drop made %d undo steps, want 1", p.UndoDepth-p0.UndoDepth)
	}
	// the leaf's sphere (at y 2 in the prefab, radius 0.5) stands on the ground: the instance at y -1.5
	if px, py := p.Inspector["Transform.position[0]"].Shown, p.Inspector["Transform.position[1]"].Shown; strings.HasPrefix(px, "0.") || strings.HasPrefix(px, "-") || strings.TrimRight(py, "0") != "-1.5" {
		t.Errorf("dropped right of the centre on the ground, the instance is at x=%s y=%s (want x > 1, y -1.5)", px, py)
	}
	lookShot(t, e, "prefab-drop-viewport.png")

	// Onto the Floor's row: the Floor's child.
	p, _ = e.ReadProbe()
	x, y = p.Inspector["asset:leaf.json"].Center()
	e.DragOnto(x, y, 1, func(p *guitest.Probe) (int, int) {
		r, _ := p.Row("Floor")
		return r.Center()
	})
	e.WaitProbe(10*time.Second, "an instance under the Floor", func(p *guitest.Probe) bool {
		if p.Entities != 5 {
			return false
		}
		for _, r := range p.Hierarchy {
			if r.Prefab == "instance" && r.Depth == 1 {
				return true
			}
		}
		return false
	})
	lookShot(t, e, "prefab-drop-hierarchy.png")
	e.Key("ctrl+z")
	e.Key("ctrl+z")
	e.WaitProbe(10*time.Second, "both undone", func(p *guitest.Probe) bool { return p.Entities == 1 })
}
