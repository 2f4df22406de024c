package e2e

import (
	"context"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
	"github.com/voltex-editor/voltex/serialize"
)

// TestBatchEditOneUndo: with 1,000 entities selected, "+= 1" typed into the inspector's Transform position Y moves
// every one of them up by 1 from its own height, and one Ctrl+Z puts them all back (checked in the saved file).
func TestBatchEditOneUndo(t *testing.T) {
	path := bigScene(t, 10, 10, 10)
	orig := heights(t, path)
	e := launchOn(t, path)
	e.WaitProbe(60*time.Second, "the scene", func(p *guitest.Probe) bool { return p.Entities == 1000 })
	e.Key("ctrl+a")
	p := e.WaitProbe(30*time.Second, "1000 selected, the Y field", func(p *guitest.Probe) bool {
		return p.SelectedCount == 1000 && p.Inspector["Transform.position[1]"].W > 0
	})
	depth := p.UndoDepth
	x, y := p.Inspector["Transform.position[1]"].Center()
	e.DoubleClick(x, y)
	e.WaitProbe(10*time.Second, "the Y field's text", func(p *guitest.Probe) bool { return p.TextInput })
	e.Key("ctrl+a")
	e.Type("+= 1")
	e.Key("Return")
	p = e.WaitProbe(10*time.Second, "one undo step", func(p *guitest.Probe) bool { return p.UndoDepth == depth+1 })
	e.Presented(p)
	lookShot(t, e, "batch-edit.png")
	save := func() map[int64]float64 {
		e.Key("ctrl+s")
		e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
		return heights(t, path)
	}
	moved := save()
	for id, y := range orig {
		if math.Abs(moved[id]-(y+1)) > 1e-4 {
			t.Fatalf("entity %d: y %v after += 1, want %v", id, moved[id], y+1)
		}
	}
	e.Key("ctrl+z")
	e.WaitProbe(10*time.Second, "undone", func(p *guitest.Probe) bool { return p.UndoDepth == depth })
	back := save()
	for id, y := range orig {
		if math.Abs(back[id]-y) > 1e-6 {
			t.Fatalf("entity %d: y %v after one undo, want %v", id, back[id], y)
		}
	}
}

// heights reads the Transform position y of every entity of the scene file at path that has one.
func heights(t *testing.T, path string) map[int64]float64 {
	t.Helper()
	s, err := serialize.ReadRawFile(context.Background(), path, serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]float64{}
	for _, en := range s.Entities {
		for _, c := range en.Components {
			if c.Name != "Transform" {
				continue
			}
			var tr struct{ Position [3]float64 }
			if err := json.Unmarshal([]byte(c.JSON), &tr); err != nil {
				t.Fatal(err)
			}
			out[en.ID] = tr.Position[1]
		}
	}
	if len(out) < 1000 {
		t.Fatalf("%s: %d entities with a Transform, want 1000", path, len(out))
	}
	return out
}
