package e2e

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
	"github.com/voltex-editor/voltex/serialize/game"
)

// modelLevel is a floor, a textured glTF cube, a spot light, a point light and a camera.
const modelLevel = `{ "format": "voltex.scene", "version": 2, "name": "Models",
  "editor": { "camera": { "pivot": [0, 0.5, 0], "yaw": 0, "pitch": -30, "distance": 12 } },
  "entities": [
    { "id": 1, "name": "Floor", "order": 1, "components": { "Color": { "rgba": [0.6, 0.6, 0.6, 1] }, "Mesh": { "asset": "builtin:plane" }, "Transform": { "scale": [12, 1, 12] } } },
    { "id": 2, "name": "Crate", "order": 2, "prefab": "models/Cube.gltf", "components": { "Transform": { "position": [0, 1, -3] } } },
    { "id": 3, "name": "Lamp", "order": 3, "components": { "Transform": { "position": [-2.5, 4, -1], "rotation": [-70, 0, 0] },
      "Light": { "kind": 2, "color": [1, 0.85, 0.6], "intensity": 40, "range": 7, "innerCone": 20, "outerCone": 30 } } },
    { "id": 4, "name": "Bulb", "order": 4, "components": { "Transform": { "position": [3, 2, -1] },
      "Light": { "kind": 1, "color": [0.6, 0.8, 1], "intensity": 12, "range": 8 } } },
    { "id": 5, "name": "Shot", "order": 5, "components": { "Transform": { "position": [0, 2, 7], "rotation": [-10, 0, 0] },
      "Camera": { "fov": 50, "near": 0.1, "far": 100 } } } ] }
`

// TestGLTFModelWorkflow: a .glb dropped into the scene's folder is placed three times from the Assets panel; one
// instance's material colour is overridden; the file is replaced by an edited export (another colour, the same
// node names) and the other two instances take the new colour while the override stays; the spot light moved
// with the gizmo takes its cone along; the export, read as a game reads it, has the materials (the textured
// cube's texture), the lights and the camera.
func TestGLTFModelWorkflow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-game", "scenes")
	copySample(t, filepath.Join(dir, "models"), "Cube", "glTF")
	glb, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "shared", "testdata", "gltf", "BoxVertexColors", "glTF-Binary", "BoxVertexColors.glb"))
	if err != nil {
		t.Skipf("skipping: the shared sample models are absent: %v", err)
	}
	path := filepath.Join(dir, "level.json")
	if err := os.WriteFile(path, []byte(modelLevel), 0o644); err != nil {
		t.Fatal(err)
	}
	e := launchOn(t, path)
	p0 := e.WaitProbe(20*time.Second, "the scene", func(p *guitest.Probe) bool { return p.Entities == 6 })
	showAssets(e, p0)

	// Dropped into the folder while the editor runs: listed, then placed three times.
	if err := os.WriteFile(filepath.Join(dir, "box.glb"), glb, 0o644); err != nil {
		t.Fatal(err)
	}
	p := e.WaitProbe(20*time.Second, "the model listed", func(p *guitest.Probe) bool { return p.Inspector["mesh:box.glb"].W > 0 })
	for i, fx := range []int{1, 2, 3} {
		x, y := p.Inspector["mesh:box.glb"].Center()
		vx, vy := p.Viewport.X+p.Viewport.W*fx/4, p.Viewport.Y+p.Viewport.H*2/3
		e.DragOnto(x, y, 1, func(*guitest.Probe) (int, int) { return vx, vy })
		want := 6 + 5*(i+1) // the instance and the model's four nodes
		p = e.WaitProbe(10*time.Second, "the model placed", func(p *guitest.Probe) bool { return p.Entities == want })
	}

	// The second box's material overridden: red 1.
	search(t, e, "Cube")
	p = clickRow(t, e, "Cube", 2) // the crate's node is the first Cube
	mat := widget(t, p, "Material.baseColor")
	typeIntoChannel(e, mat, 0, 4, mat.H, "1")
	e.WaitProbe(10*time.Second, "the override", func(p *guitest.Probe) bool {
		return near(p.Inspector["Material.baseColor"].Shown, 1, 0.8, 0.8, 1) && p.Inspector["override:Material.baseColor"].W > 0
	})

	// An edited export of the model replaces the file (written beside it and renamed over it, as exporters do).
	edited := withBaseColor(t, glb, [4]float32{0.1, 0.8, 0.2, 1})
	tmp := filepath.Join(dir, "box.glb.part")
	if err := os.WriteFile(tmp, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "box.glb")); err != nil {
		t.Fatal(err)
	}
	e.WaitProbe(20*time.Second, "the instances updated", func(p *guitest.Probe) bool {
		return hasMessage(p, "info: box.glb changed: 3 instances updated")
	})
	for i, want := range [][4]float32{{0.1, 0.8, 0.2, 1}, {1, 0.8, 0.8, 1}, {0.1, 0.8, 0.2, 1}} {
		clickRow(t, e, "Cube", i+1)
		e.WaitProbe(10*time.Second, "box "+strconv.Itoa(i+1)+"'s colour", func(p *guitest.Probe) bool {
			return near(p.Inspector["Material.baseColor"].Shown, want[0], want[1], want[2], want[3])
		})
	}
	p, _ = e.ReadProbe()
	green := guitest.CountPixels(e.ScreenshotOf(p), viewportRect(p), func(c color.RGBA) bool { return c.G > 120 && c.G > c.R+50 && c.G > c.B+50 })
	if green < 300 {
		t.Errorf("%d green pixels in the viewport: want the two boxes that follow the edited model", green)
	}

	// The spot light moved with the gizmo: its cone goes with it.
	search(t, e, "Lamp")
	clickRow(t, e, "Lamp", 0)
	p = e.WaitProbe(5*time.Second, "gizmo", func(p *guitest.Probe) bool { return p.Gizmo != [2]int{} })
	x0 := p.Inspector["Transform.position[0]"].Shown
	c0, n0 := markerCentre(e.ScreenshotOf(p), p)
	gx, gy := p.Gizmo[0], p.Gizmo[1]
	e.Drag(gx, gy, gx+150, gy+30, 1)
	p = e.WaitProbe(10*time.Second, "the lamp moved", func(p *guitest.Probe) bool {
		return p.Inspector["Transform.position[0]"].Shown != x0
	})
	c1, n1 := markerCentre(e.ScreenshotOf(p), p)
	if n0 < 200 || n1 < 200 || c1.X-c0.X < 50 {
		t.Errorf("the cone's pixels (%d, then %d) centred at %v, then %v: want it drawn and moved right with the light", n0, n1, c0, c1)
	}

	// The picture of the README's "Your models" (the textured cube and the boxes lit by the spot and the bulb).
	search(t, e, "")
	menu(t, e, "Edit", "Deselect All")
	e.WaitProbe(10*time.Second, "nothing selected, every row shown", func(p *guitest.Probe) bool {
		_, ok := p.Row("Floor")
		return len(p.Selected) == 0 && ok
	})
	e.Settle()
	docShot(t, e, "your-models.png")

	// Export: a game reads the materials, the texture, the lights and the camera.
	ex := exportForGame(t, e, filepath.Join(dir, "level.export.json"))
	var greens, overridden, textured, spots, points, cameras int
	for _, en := range ex.Entities {
		if m := en.Material; m != nil {
			switch {
			case closeTo(m.BaseColor[:], 0.1, 0.8, 0.2, 1):
				greens++
			case closeTo(m.BaseColor[:], 1, 0.8, 0.8, 1):
				overridden++
			}
			if strings.HasPrefix(m.BaseColorTexture.Image, "models/") {
				textured++
			}
		}
		if l := en.Light; l != nil {
			switch l.Kind {
			case 2:
				spots++
			case 1:
				points++
			}
		}
		if en.Camera != nil {
			cameras++
		}
	}
	if greens != 2 || overridden != 1 || textured != 1 || spots != 1 || points != 1 || cameras != 1 {
		t.Errorf("the export has %d green materials (want 2), %d overridden (want 1), %d textured (want 1: the crate), %d spot lights, %d point lights, %d cameras (want 1 each)",
			greens, overridden, textured, spots, points, cameras)
	}
}

// showAssets brings the Assets tab (first in the tab bar it shares with the Console) to the front.
func showAssets(e *guitest.Editor, p0 *guitest.Probe) {
	c := p0.Panels["Console"]
	e.Click(c.X+45, c.Y+10, 1)
	e.WaitProbe(10*time.Second, "the Assets panel", func(p *guitest.Probe) bool { return p.Inspector["mesh:builtin:sphere"].W > 0 })
}

// near reports whether an inspector colour ("r,g,b,a") is want, to the inspector's 4 digits.
func near(shown string, want ...float32) bool {
	var got []float32
	for _, s := range strings.Split(shown, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 32)
		if err != nil {
			return false
		}
		got = append(got, float32(v))
	}
	return closeTo(got, want...)
}

// closeTo reports whether got is want, to 4 digits.
func closeTo(got []float32, want ...float32) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > 1e-3 {
			return false
		}
	}
	return true
}

// markerCentre returns the centre of the viewport's pixels in the selected marker's colour, and how many there are.
func markerCentre(img *image.RGBA, p *guitest.Probe) (image.Point, int) {
	var sx, sy, n int
	v := p.Viewport
	for y := v.Y; y < v.Y+v.H; y++ {
		for x := v.X; x < v.X+v.W; x++ {
			if c := img.RGBAAt(x, y); c.R > 230 && c.G > 170 && c.G < 225 && c.B < 100 {
				sx, sy, n = sx+x, sy+y, n+1
			}
		}
	}
	if n == 0 {
		return image.Point{}, 0
	}
	return image.Pt(sx/n, sy/n), n
}

// withBaseColor returns a copy of a .glb whose first material has base colour c: an edited export of the model
// (the same nodes and meshes).
func withBaseColor(t *testing.T, glb []byte, c [4]float32) []byte {
	t.Helper()
	if len(glb) < 20 || string(glb[:4]) != "glTF" || string(glb[16:20]) != "JSON" {
		t.Fatal("not a .glb with a JSON chunk first")
	}
	n := binary.LittleEndian.Uint32(glb[12:16])
	var doc map[string]any
	if err := json.Unmarshal(glb[20:20+n], &doc); err != nil {
		t.Fatal(err)
	}
	mats := doc["materials"].([]any)
	pbr := mats[0].(map[string]any)["pbrMetallicRoughness"].(map[string]any)
	pbr["baseColorFactor"] = c
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	rest := glb[20+n:] // the BIN chunk, as it was
	var b bytes.Buffer
	b.WriteString("glTF")
	_ = binary.Write(&b, binary.LittleEndian, [2]uint32{2, uint32(12 + 8 + len(js) + len(rest))})
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(js)))
	b.WriteString("JSON")
	b.Write(js)
	b.Write(rest)
	return b.Bytes()
}

// exportForGame exports the open scene (Ctrl+E, a file named as out in the scene's folder) and reads it as a game
// does.
func exportForGame(t *testing.T, e *guitest.Editor, out string) *game.Scene {
	t.Helper()
	e.Key("ctrl+e")
	e.WaitProbe(10*time.Second, "export dialog", func(p *guitest.Probe) bool { return p.Modal == "file:Export for Game" })
	e.Key("ctrl+a")
	e.Type(filepath.Base(out)) // the dialog starts in the scene's folder
	e.Key("Return")
	var ex *game.Scene
	guitest.WaitFor(t, 10*time.Second, "the export to be written and load", func() (err error) {
		ex, err = game.LoadFile(out)
		return err
	})
	return ex
}
