package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestLayerHidePicksBehind: the query naming the front cube (in the front view) saved as a layer and the layer's
// eye clicked, the cube is not drawn and a click where it was picks the cube behind; the layer is kept in the
// user's settings.
func TestLayerHidePicksBehind(t *testing.T) {
	path := copyScene(t, "cubes.json")
	dir := t.TempDir()
	e, x, y := frontViewCube(t, path, dir)
	p := e.WaitProbe(10*time.Second, "the front cube picked", func(p *guitest.Probe) bool {
		for _, r := range p.Hierarchy {
			if r.Selected {
				return true
			}
		}
		return false
	})
	front := p.Selected[0]
	var name string
	for _, r := range p.Hierarchy {
		if r.Selected {
			name = r.Name
		}
	}

	sx, sy := p.HierarchySearch.Center()
	e.Click(sx, sy, 1)
	e.WaitProbe(10*time.Second, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Type(`name~"` + name + `"`)
	p = e.WaitProbe(10*time.Second, "the query's row", func(p *guitest.Probe) bool { return len(p.Hierarchy) == 1 })
	bx, by := p.SaveLayer.Center()
	e.Click(bx, by, 1)
	e.WaitProbe(10*time.Second, "the layer name field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Key("ctrl+a")
	e.Type("Front")
	e.Key("Return")
	p = e.WaitProbe(10*time.Second, "the layer listed", func(p *guitest.Probe) bool {
		return len(p.Layers) == 1 && p.Layers[0].Name == "Front" && p.Layers[0].Matches == 1
	})
	ex, ey := p.Layers[0].Eye.Center()
	e.Click(ex, ey, 1)
	e.WaitProbe(10*time.Second, "the layer hidden", func(p *guitest.Probe) bool {
		return len(p.Layers) == 1 && p.Layers[0].Hidden && p.Picture.Total == 399 && !p.Picture.Pending
	})
	e.Click(x, y, 1)
	// The front cube is still selected: the click must select another.
	e.WaitProbe(10*time.Second, "the cube behind picked", func(p *guitest.Probe) bool {
		return p.SelectedCount == 1 && p.Selected[0] != front
	})
	p = e.Settle()
	lookShot(t, e, "layer-hidden.png")
	if p.Dirty {
		t.Error("hiding a layer changed the scene")
	}
	data, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil || !strings.Contains(string(data), `"name": "Front"`) {
		t.Errorf("the settings do not keep the layer: %v\n%s", err, data)
	}
}
