package e2e

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// assetsLevel writes a level with a floor into a new folder and opens it with the Assets tab in front.
func assetsLevel(t *testing.T) (dir string, e *guitest.Editor, p0 *guitest.Probe) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "my-game", "scenes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	level := `{ "format": "voltex.scene", "version": 2, "name": "Level",
  "editor": { "camera": { "pivot": [0, 0, 0], "yaw": 0, "pitch": -30, "distance": 12 } },
  "entities": [ { "id": 1, "name": "Floor", "order": 1, "components": { "Color": { "rgba": [0.35, 0.4, 0.35, 1] }, "Mesh": { "asset": "builtin:plane" }, "Transform": { "scale": [10, 1, 10] } } } ] }
`
	if err := os.WriteFile(filepath.Join(dir, "level.json"), []byte(level), 0o644); err != nil {
		t.Fatal(err)
	}
	e = launchOn(t, filepath.Join(dir, "level.json"))
	p0 = e.WaitProbe(20*time.Second, "the scene", func(p *guitest.Probe) bool { return p.Entities == 1 })
	showAssets(e, p0)
	return dir, e, p0
}

// TestMeshDragFromAssets: a mesh dragged from the Assets panel into the viewport makes an entity with that mesh,
// standing on the ground where it is dropped, as one undo step.
func TestMeshDragFromAssets(t *testing.T) {
	_, e, p0 := assetsLevel(t)
	p, _ := e.ReadProbe()
	x, y := p.Inspector["mesh:builtin:sphere"].Center()
	vx, vy := p.Viewport.X+p.Viewport.W*3/4, p.Viewport.Y+p.Viewport.H/2
	e.DragOnto(x, y, 1, func(*guitest.Probe) (int, int) { return vx, vy })
	p = e.WaitProbe(10*time.Second, "a sphere made", func(p *guitest.Probe) bool {
		_, ok := p.Row("Sphere")
		return ok && p.Entities == 2 && p.Inspector["Transform.position[0]"].W > 0
	})
	if p.UndoDepth != p0.UndoDepth+1 {
		t.Errorf("the drop made %d undo steps, want 1", p.UndoDepth-p0.UndoDepth)
	}
	px, _ := strconv.ParseFloat(p.Inspector["Transform.position[0]"].Shown, 64)
	py, _ := strconv.ParseFloat(p.Inspector["Transform.position[1]"].Shown, 64)
	if px <= 0.5 || py != 0.5 {
		t.Errorf("dropped right of the centre on the ground, the sphere is at x=%v y=%v (want x > 0.5, y 0.5: its bottom on the ground)", px, py)
	}
	shotOf(t, e, p, "mesh-drop-viewport.png")
	e.Key("ctrl+z")
	e.WaitProbe(10*time.Second, "the drop undone", func(p *guitest.Probe) bool { return p.Entities == 1 })
}

// TestNewFilesAppearInAssets: an .obj model, a vertex-coloured .glb model, a textured .gltf model and a prefab
// written into the scene's folder while the editor runs appear in the Assets panel by themselves, without Rescan,
// each with a thumbnail (made in the background) showing its colours and texture; the prefab's thumbnail follows
// a change of its file, and the deleted prefab leaves the list.
func TestNewFilesAppearInAssets(t *testing.T) {
	dir, e, _ := assetsLevel(t)
	if err := os.WriteFile(filepath.Join(dir, "rock.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	crate := func(rgba string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "crate.json"), []byte(`{"format": "voltex.scene", "version": 2, "name": "Crate", "entities": [
  { "id": 1, "name": "Box", "order": 1, "components": { "Color": { "rgba": `+rgba+` }, "Mesh": { "asset": "builtin:cube" }, "Transform": {} } } ] }`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	crate("[1, 0, 0, 1]")
	glb, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "shared", "testdata", "gltf", "BoxVertexColors", "glTF-Binary", "BoxVertexColors.glb"))
	if err != nil {
		t.Fatalf("the shared glTF sample: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "box.glb"), glb, 0o644); err != nil {
		t.Fatal(err)
	}
	copySample(t, dir, "Cube", "glTF")
	e.WaitProbe(20*time.Second, "the new files listed with thumbnails", func(p *guitest.Probe) bool {
		return p.Inspector["mesh:rock.obj"].W > 0 && p.Inspector["asset:crate.json"].W > 0 && p.Inspector["mesh:box.glb"].W > 0 &&
			p.Inspector["thumb:mesh:rock.obj"].W > 0 && p.Inspector["thumb:prefab:crate.json"].W > 0 &&
			p.Inspector["thumb:mesh:box.glb"].W > 0 && p.Inspector["thumb:mesh:builtin:cube"].W > 0 &&
			p.Inspector["thumb:mesh:Cube.gltf"].W > 0
	})
	p := e.Settle()
	shot := e.ScreenshotOf(p)
	shotOf(t, e, p, "assets-new-files.png")
	red := func(c color.RGBA) bool { return c.R > 120 && c.G < 60 && c.B < 60 }
	blue := func(c color.RGBA) bool { return c.B > 120 && c.R < 60 && c.G < 60 }
	// The vertex-coloured box shows its colours, the textured cube its texture (not three flat shades).
	box := p.Inspector["thumb:mesh:box.glb"].Image()
	stands := func(k int) func(c color.RGBA) bool { // channel k (red, green, blue) stands out
		return func(c color.RGBA) bool {
			ch := [3]int{int(c.R), int(c.G), int(c.B)}
			return ch[k] > ch[(k+1)%3]+40 && ch[k] > ch[(k+2)%3]+40
		}
	}
	hues := 0
	for k := range 3 {
		if guitest.CountPixels(shot, box, stands(k)) >= 3 {
			hues++
		}
	}
	if hues < 2 {
		t.Errorf("%d of red, green and blue stand out in the vertex-coloured box's thumbnail: want its several colours", hues)
	}
	colours := func(name string) int {
		seen := map[color.RGBA]bool{}
		guitest.CountPixels(shot, p.Inspector[name].Image(), func(c color.RGBA) bool {
			seen[color.RGBA{c.R >> 3, c.G >> 3, c.B >> 3, 0}] = true
			return true
		})
		return len(seen)
	}
	if textured, flat := colours("thumb:mesh:Cube.gltf"), colours("thumb:mesh:builtin:cube"); 2*textured < 3*flat {
		t.Errorf("%d colours in the textured cube's thumbnail, %d in the flat cube's: want its texture", textured, flat)
	}
	thumb := func(p *guitest.Probe) image.Rectangle { return p.Inspector["thumb:prefab:crate.json"].Image() }
	if n := guitest.CountPixels(e.ScreenshotOf(p), thumb(p), red); n < 10 {
		t.Errorf("%d red pixels in the crate's thumbnail: want its red cube", n)
	}
	crate("[0, 0, 1, 1]")
	e.WaitScreen(20*time.Second, "the crate's thumbnail turned blue", func(img *image.RGBA) bool {
		p, err := e.ReadProbe()
		return err == nil && guitest.CountPixels(img, thumb(p), blue) >= 10
	})
	if err := os.Remove(filepath.Join(dir, "crate.json")); err != nil {
		t.Fatal(err)
	}
	e.WaitProbe(20*time.Second, "the deleted prefab gone", func(p *guitest.Probe) bool { return p.Inspector["asset:crate.json"].W == 0 })
}

// shotOf writes the screen once it shows probe p's state to $VOLTEX_SHOTS/name, when VOLTEX_SHOTS is set.
func shotOf(t *testing.T, e *guitest.Editor, p *guitest.Probe, name string) {
	t.Helper()
	if dir := os.Getenv("VOLTEX_SHOTS"); dir != "" {
		if err := guitest.WritePNG(filepath.Join(dir, name), e.ScreenshotOf(p)); err != nil {
			t.Error(err)
		}
	}
}

// TestModelDragFromAssets: a .glb model dragged from the Assets panel into the viewport is placed as a prefab instance
// of the model (its nodes entities under it), as one undo step.
func TestModelDragFromAssets(t *testing.T) {
	dir, e, p0 := assetsLevel(t)
	glb, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "shared", "testdata", "gltf", "BoxVertexColors", "glTF-Binary", "BoxVertexColors.glb"))
	if err != nil {
		t.Fatalf("the shared glTF sample: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "box.glb"), glb, 0o644); err != nil {
		t.Fatal(err)
	}
	p := e.WaitProbe(20*time.Second, "the model listed", func(p *guitest.Probe) bool { return p.Inspector["mesh:box.glb"].W > 0 })
	x, y := p.Inspector["mesh:box.glb"].Center()
	vx, vy := p.Viewport.X+p.Viewport.W/2, p.Viewport.Y+p.Viewport.H/2
	e.DragOnto(x, y, 1, func(*guitest.Probe) (int, int) { return vx, vy })
	p = e.WaitProbe(10*time.Second, "the model placed", func(p *guitest.Probe) bool {
		_, ok := p.Row("box")
		return ok && p.Entities == 1+1+4 // the floor, the instance, the model's four nodes
	})
	if p.UndoDepth != p0.UndoDepth+1 {
		t.Errorf("the drop made %d undo steps, want 1", p.UndoDepth-p0.UndoDepth)
	}
	shotOf(t, e, p, "model-drop-viewport.png")
	e.Key("ctrl+z")
	e.WaitProbe(10*time.Second, "the drop undone", func(p *guitest.Probe) bool { return p.Entities == 1 })
}
