package e2e

import (
	"image"
	"image/color"
	"math"
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
	dir := filepath.Join(t.TempDir(), "scenes")
	copySample(t, filepath.Join(dir, "models"), "Cube", "glTF")
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

// TestCameraPreviewFollowsTheCamera: selecting a camera draws its frustum and a picture of what it sees in the
// viewport's corner; turning the camera (its yaw typed in the inspector) changes that picture; selecting
// something else takes the preview away.
func TestCameraPreviewFollowsTheCamera(t *testing.T) {
	dir := t.TempDir()
	level := `{ "format": "voltex.scene", "version": 2, "name": "Shot",
  "editor": { "camera": { "pivot": [0, 1, 0], "yaw": 35, "pitch": -30, "distance": 16 } },
  "entities": [
    { "id": 1, "name": "Floor", "order": 1, "components": { "Color": { "rgba": [0.5, 0.55, 0.5, 1] }, "Mesh": { "asset": "builtin:plane" }, "Transform": { "scale": [12, 1, 12] } } },
    { "id": 2, "name": "Red", "order": 2, "components": { "Color": { "rgba": [0.9, 0.1, 0.1, 1] }, "Mesh": { "asset": "builtin:cube" }, "Transform": { "position": [0, 0.5, 0] } } },
    { "id": 3, "name": "Blue", "order": 3, "components": { "Color": { "rgba": [0.1, 0.2, 0.9, 1] }, "Mesh": { "asset": "builtin:sphere" }, "Transform": { "position": [-4, 0.5, 4] } } },
    { "id": 4, "name": "Eye", "order": 4, "components": { "Transform": { "position": [0, 2, 6], "rotation": [-12, 0, 0] },
      "Camera": { "fov": 50, "near": 0.5, "far": 30, "aspect": 1.6 } } } ] }
`
	path := filepath.Join(dir, "shot.json")
	if err := os.WriteFile(path, []byte(level), 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, path)
	p := e.WaitProbe(20*time.Second, "the scene", func(p *guitest.Probe) bool { _, ok := p.Row("Eye"); return ok })
	if p.CameraPreview.W != 0 {
		t.Fatalf("a camera preview %+v with nothing selected", p.CameraPreview)
	}
	before := markerPixels(e.ScreenshotOf(p), p)
	r, _ := p.Row("Eye")
	x, y := r.Center()
	e.Click(x, y, 1)
	e.WaitProbe(10*time.Second, "the camera's preview", func(p *guitest.Probe) bool {
		return len(p.Selected) == 1 && p.CameraPreview.W > 0 && p.Inspector["Transform.rotation[1]"].W > 0
	})
	p = e.Settle()
	pv := p.CameraPreview
	if !p.Viewport.Holds(pv) || math.Abs(float64(pv.W)/float64(pv.H)-1.6) > 0.05 {
		t.Errorf("the preview at %+v in the viewport %+v, want inside it at the camera's aspect 1.6", pv, p.Viewport)
	}
	shot := e.ScreenshotOf(p)
	shotOf(t, e, p, "camera-preview.png")
	if after := markerPixels(shot, p); after < before+300 {
		t.Errorf("%d pixels of the selected marker's colour, %d before selecting: want the frustum drawn", after, before)
	}
	if n := guitest.CountPixels(shot, pv.Image(), func(c color.RGBA) bool { return c.R > 150 && c.G < 80 && c.B < 80 }); n < 50 {
		t.Errorf("%d red pixels in the preview: want the red cube in front of the camera", n)
	}
	typeIntoChannel(e, widget(t, p, "Transform.rotation[1]"), 0, 1, 0, "90")
	e.WaitProbe(10*time.Second, "the camera turned", func(p *guitest.Probe) bool { return p.Inspector["Transform.rotation[1]"].Shown == "90" })
	p = e.Settle()
	turned := e.ScreenshotOf(p)
	shotOf(t, e, p, "camera-preview-turned.png")
	if changed := guitest.DiffPixels(shot, turned, pv.Image(), 30); changed < pv.W*pv.H/10 {
		t.Errorf("%d of the preview's %d pixels changed when the camera turned 90°: want its picture to follow", changed, pv.W*pv.H)
	}
	if n := guitest.CountPixels(turned, p.CameraPreview.Image(), func(c color.RGBA) bool { return c.B > 150 && c.R < 80 && c.G < 120 }); n < 20 {
		t.Errorf("%d blue pixels in the turned preview: want the blue sphere the camera now faces", n)
	}
	r, _ = p.Row("Red")
	x, y = r.Center()
	e.Click(x, y, 1)
	e.WaitProbe(10*time.Second, "the preview gone", func(p *guitest.Probe) bool { return p.CameraPreview.W == 0 })
}

// copySample copies the files of a shared glTF sample model's variant ("Cube", "glTF") into folder dst, or skips
// the test when the shared samples are absent.
func copySample(t *testing.T, dst, sample, variant string) {
	t.Helper()
	src := filepath.Join("..", "..", "..", "..", "shared", "testdata", "gltf", sample, variant)
	files, err := os.ReadDir(src)
	if err != nil {
		t.Skipf("skipping: the shared sample models are absent: %v", err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCameraPreviewRollAndClicks: the preview shows what a camera rolled 90° sees — a standing red pillar in
// front of it lies across the picture — and a click on the preview leaves the camera selected (the floor under
// the preview is not picked).
func TestCameraPreviewRollAndClicks(t *testing.T) {
	dir := t.TempDir()
	level := `{ "format": "voltex.scene", "version": 2, "name": "Rolled",
  "editor": { "camera": { "pivot": [0, 1, 0], "yaw": 35, "pitch": -30, "distance": 16 } },
  "entities": [
    { "id": 1, "name": "Floor", "order": 1, "components": { "Color": { "rgba": [0.5, 0.55, 0.5, 1] }, "Mesh": { "asset": "builtin:plane" }, "Transform": { "scale": [80, 1, 80] } } },
    { "id": 2, "name": "Pillar", "order": 2, "components": { "Color": { "rgba": [0.9, 0.1, 0.1, 1] }, "Mesh": { "asset": "builtin:cube" }, "Transform": { "position": [0, 1.5, 0], "scale": [0.4, 3, 0.4] } } },
    { "id": 3, "name": "Eye", "order": 3, "components": { "Transform": { "position": [0, 1.5, 6], "rotation": [0, 0, 90] },
      "Camera": { "fov": 50, "near": 0.5, "far": 30, "aspect": 1 } } } ] }
`
	path := filepath.Join(dir, "rolled.json")
	if err := os.WriteFile(path, []byte(level), 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, path)
	p := e.WaitProbe(20*time.Second, "the scene", func(p *guitest.Probe) bool { _, ok := p.Row("Eye"); return ok })
	r, _ := p.Row("Eye")
	x, y := r.Center()
	e.Click(x, y, 1)
	e.WaitProbe(10*time.Second, "the camera's preview", func(p *guitest.Probe) bool {
		return len(p.Selected) == 1 && p.CameraPreview.W > 0
	})
	p = e.Settle()
	pv := p.CameraPreview
	shot := e.ScreenshotOf(p)
	shotOf(t, e, p, "camera-preview-rolled.png")
	red := image.Rectangle{}
	for py := pv.Y; py < pv.Y+pv.H; py++ {
		for px := pv.X; px < pv.X+pv.W; px++ {
			if c := shot.RGBAAt(px, py); c.R > 150 && c.G < 80 && c.B < 80 {
				red = red.Union(image.Rect(px, py, px+1, py+1))
			}
		}
	}
	if red.Dx() < 2*red.Dy() || red.Dx() < pv.W/3 {
		t.Errorf("the red pillar covers %v of the preview %+v: want it lying across the picture (the camera rolled 90°)", red, pv)
	}
	e.Click(pv.X+pv.W/4, pv.Y+pv.H/4, 1)
	p = e.Settle()
	if len(p.Selected) != 1 || p.Selected[0] != 3 {
		t.Errorf("selected %v after a click on the camera's preview, want the camera (3) still", p.Selected)
	}
}
