package e2e

import (
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestViewportLightsAndMarkers: a scene with a floor, a glTF textured cube and a spot light is drawn lit by the
// spot (the default rig gone) with the light's marker over it; selecting the light draws its cone out to its
// range, in the selection's marker colour.
func TestViewportLightsAndMarkers(t *testing.T) {
	cube := filepath.Join("..", "..", "..", "..", "shared", "testdata", "gltf", "Cube", "glTF")
	files, err := os.ReadDir(cube)
	if err != nil {
		t.Skipf("skipping: the shared sample models are absent: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "scenes")
	if err := os.MkdirAll(filepath.Join(dir, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(cube, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "models", f.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	level := `{ "format": "voltex.scene", "version": 2, "name": "Lit",
  "editor": { "camera": { "pivot": [0, 1, 0], "yaw": 20, "pitch": -25, "distance": 11 } },
  "entities": [
    { "id": 1, "name": "Floor", "order": 1, "components": { "Color": { "rgba": [0.6, 0.6, 0.6, 1] }, "Mesh": { "asset": "builtin:plane" }, "Transform": { "scale": [10, 1, 10] } } },
    { "id": 2, "name": "Cube", "order": 2, "prefab": "models/Cube.gltf", "components": { "Transform": { "position": [0, 1, 0] } } },
    { "id": 3, "name": "Lamp", "order": 3, "components": { "Transform": { "position": [2.5, 4, 1], "rotation": [-70, 0, 0] },
      "Light": { "kind": 2, "color": [1, 0.85, 0.6], "intensity": 40, "range": 6, "innerCone": 20, "outerCone": 30 } } } ] }
`
	if err := os.WriteFile(filepath.Join(dir, "level.json"), []byte(level), 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, filepath.Join(dir, "level.json"))
	p := e.WaitProbe(20*time.Second, "the scene", func(p *guitest.Probe) bool { _, ok := p.Row("Lamp"); return ok })
	before := markerPixels(e.ScreenshotOf(p), p)
	shotOf(t, e, p, "lights-viewport.png")
	r, _ := p.Row("Lamp")
	x, y := r.Center()
	e.Click(x, y, 1)
	p = e.WaitProbe(10*time.Second, "the lamp selected", func(p *guitest.Probe) bool { return len(p.Selected) == 1 })
	img := e.ScreenshotOf(p)
	shotOf(t, e, p, "lights-viewport-selected.png")
	if after := markerPixels(img, p); after < before+200 {
		t.Errorf("%d pixels of the selected marker's colour, %d before selecting: want the cone drawn", after, before)
	}
}

// markerPixels counts the viewport's pixels of the selected marker colour (orange-yellow: RGB 255, 200, 64).
func markerPixels(img *image.RGBA, p *guitest.Probe) int {
	n := 0
	v := p.Viewport
	for y := v.Y; y < v.Y+v.H; y++ {
		for x := v.X; x < v.X+v.W; x++ {
			c := img.RGBAAt(x, y)
			if c.R > 230 && c.G > 170 && c.G < 225 && c.B < 100 {
				n++
			}
		}
	}
	return n
}
