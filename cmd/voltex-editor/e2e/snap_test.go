package e2e

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// snapScene is testdata/snap.json: the cube "Mover" at (-2, 0, 0) and the cube "Target" at (2, 0, 0), seen by the
// scene's camera.
type snapScene struct {
	t        *testing.T
	e        *guitest.Editor
	path     string
	settings string // the editor's settings file
	cam      viewport.Camera
}

func launchSnap(t *testing.T) *snapScene {
	path := copyScene(t, "snap.json")
	dir := t.TempDir()
	e := launchOnWith(t, path, "--settings", dir)
	cam := viewport.DefaultCamera().WithSaved(scene.EditorCamera{Yaw: 30, Pitch: -30, Distance: 9})
	s := &snapScene{t: t, e: e, path: path, settings: filepath.Join(dir, "settings.json"), cam: cam}
	e.WaitProbe(10*time.Second, "the scene drawn", func(p *guitest.Probe) bool { return p.Entities == 2 && p.ViewportRenders > 0 })
	return s
}

// pixel is where world point w is drawn on the screen.
func (s *snapScene) pixel(w mgl32.Vec3) (int, int) {
	s.t.Helper()
	p, err := s.e.ReadProbe()
	if err != nil {
		s.t.Fatal(err)
	}
	x, y, ok := s.cam.WorldToPixel(w, p.Viewport.W, p.Viewport.H)
	if !ok {
		s.t.Fatalf("%v is behind the camera", w)
	}
	return p.Viewport.X + int(x+0.5), p.Viewport.Y + int(y+0.5)
}

// selectMover clicks the Mover and waits for its gizmo.
func (s *snapScene) selectMover() *guitest.Probe {
	x, y := s.pixel(mgl32.Vec3{-2, 0, 0})
	s.e.Click(x, y, 1)
	return s.e.WaitProbe(10*time.Second, "the Mover selected with its gizmo", func(p *guitest.Probe) bool {
		return len(p.Selected) == 1 && p.Selected[0] == 1001 && p.Gizmo != [2]int{}
	})
}

// saved saves the scene (Ctrl+S) and returns the Mover's position and rotation in the file.
func (s *snapScene) saved() (pos, rot mgl32.Vec3) {
	s.t.Helper()
	s.e.Key("ctrl+s")
	s.e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	for _, en := range savedEntities(s.t, s.path) {
		if en.Name == "Mover" {
			return en.Components.Transform.Position, en.Components.Transform.Rotation
		}
	}
	s.t.Fatal("no Mover in the saved scene")
	return
}

// savedEntity is what the snapping tests read of an entity in a saved scene.
type savedEntity struct {
	Name       string
	Components struct {
		Transform struct{ Position, Rotation mgl32.Vec3 }
	}
}

// savedEntities reads the entities of the scene file at path.
func savedEntities(t *testing.T, path string) []savedEntity {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Entities []savedEntity }
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Entities
}

// TestVertexSnapOntoACorner: with V held, the Mover's gizmo dragged to a corner of the Target puts a corner of the
// Mover exactly on it (the saved position holds the exact numbers); the corner it snaps to is marked meanwhile.
func TestVertexSnapOntoACorner(t *testing.T) {
	s := launchSnap(t)
	p := s.selectMover()
	// the Target's top corner nearest the camera: drawn, not hidden behind the cube
	eye := s.cam.Eye()
	var corner mgl32.Vec3
	for i := range 4 {
		c := mgl32.Vec3{2 - 0.5 + float32(i&1), 0.5, -0.5 + float32(i>>1)}
		if i == 0 || c.Sub(eye).Len() < corner.Sub(eye).Len() {
			corner = c
		}
	}
	cx, cy := s.pixel(corner)
	gx, gy := p.Gizmo[0], p.Gizmo[1]
	e := s.e
	e.Move(gx, gy)
	e.Xdotool("keydown", "v")
	e.Xdotool("mousedown", "1")
	e.Sync()
	const steps = 12
	for i := 1; i <= steps; i++ { // to a few pixels off the corner: the snap finds it
		e.Xdotool("mousemove", strconv.Itoa(gx+(cx+4-gx)*i/steps), strconv.Itoa(gy+(cy-3-gy)*i/steps))
		e.Sync()
	}
	p = e.WaitProbe(10*time.Second, "the corner marked", func(p *guitest.Probe) bool { return p.SnapVertex != [2]int{} })
	if dx, dy := p.SnapVertex[0]-cx, p.SnapVertex[1]-cy; dx*dx+dy*dy > 4 {
		t.Errorf("the vertex marked is at %v, the corner is drawn at %d, %d", p.SnapVertex, cx, cy)
	}
	docShot(t, e, "snap-vertex.png")
	e.Xdotool("mouseup", "1")
	e.Xdotool("keyup", "v")
	e.WaitProbe(10*time.Second, "the drag ended", func(p *guitest.Probe) bool { return p.SnapVertex == [2]int{} && p.UndoDepth > 0 })
	pos, _ := s.saved()
	touches := false
	for i := range 8 {
		c := pos.Add(mgl32.Vec3{float32(i&1) - 0.5, float32(i>>1&1) - 0.5, float32(i>>2) - 0.5})
		touches = touches || c == corner
	}
	if !touches {
		t.Fatalf("the Mover was saved at %v: none of its corners is exactly the Target's %v", pos, corner)
	}
	t.Logf("the Mover at %v, a corner on %v", pos, corner)
}

// TestSurfaceSnapPutsACubeOnTop: with Surface on in the toolbar, the Mover's gizmo dragged onto the middle of the
// Target's top puts the Mover on it (its bottom on the top: y = 1), unturned; the toggle is kept in the settings.
func TestSurfaceSnapPutsACubeOnTop(t *testing.T) {
	s := launchSnap(t)
	s.selectMover()
	p := s.toggle("toolbar:Surface", "surfaceSnap")
	tx, ty := s.pixel(mgl32.Vec3{2, 0.5, 0})
	s.e.Drag(p.Gizmo[0], p.Gizmo[1], tx, ty, 1)
	s.e.WaitProbe(10*time.Second, "moved", func(p *guitest.Probe) bool { return p.UndoDepth > 0 })
	docShot(t, s.e, "snap-surface.png")
	pos, rot := s.saved()
	if d := pos.Sub(mgl32.Vec3{2, 1, 0}); d.Y() < -1e-4 || d.Y() > 1e-4 || d.Len() > 0.1 {
		t.Fatalf("the Mover was saved at %v, want on the Target's top (about [2 1 0])", pos)
	}
	if rot != (mgl32.Vec3{}) {
		t.Fatalf("on a flat top the Mover turned: rotation %v", rot)
	}
}

// toggle clicks the toolbar button and waits until the settings file holds key as true.
func (s *snapScene) toggle(button, key string) *guitest.Probe {
	s.t.Helper()
	p, err := s.e.ReadProbe()
	if err != nil {
		s.t.Fatal(err)
	}
	b, ok := p.Menus[button]
	if !ok || b.W == 0 {
		s.t.Fatalf("no %s in the toolbar", button)
	}
	x, y := b.Center()
	s.e.Click(x, y, 1)
	guitest.WaitFor(s.t, 10*time.Second, key+" kept in the settings", func() error {
		data, _ := os.ReadFile(s.settings)
		if !strings.Contains(string(data), `"`+key+`": true`) {
			return os.ErrNotExist
		}
		return nil
	})
	return s.e.WaitFrames(2)
}

// TestGridSnapToggle: with Snap on in the toolbar, a gizmo move without Ctrl lands on the 0.5 steps (the grid drawn
// at that step around the Mover meanwhile).
func TestGridSnapToggle(t *testing.T) {
	s := launchSnap(t)
	s.selectMover()
	p := s.toggle("toolbar:Snap", "gridSnap")
	gx, gy := p.Gizmo[0], p.Gizmo[1]
	e := s.e
	e.Move(gx, gy)
	e.Xdotool("mousedown", "1")
	e.Sync()
	for i := 1; i <= 12; i++ {
		e.Xdotool("mousemove", strconv.Itoa(gx+97*i/12), strconv.Itoa(gy+31*i/12))
		e.Sync()
	}
	e.WaitProbe(10*time.Second, "moved", func(p *guitest.Probe) bool { return p.Inspector["Transform.position[0]"].Shown != "-2" })
	docShot(t, e, "snap-grid.png")
	e.Xdotool("mouseup", "1")
	e.Sync()
	pos, _ := s.saved()
	if pos == (mgl32.Vec3{-2, 0, 0}) {
		t.Fatal("the drag did not move the Mover")
	}
	for a := range 3 {
		if v := pos[a] * 2; v != float32(int(v)) {
			t.Fatalf("with Snap on the Mover was saved at %v, off the 0.5 steps", pos)
		}
	}
}

// TestSurfaceSnapDropStandsOnASlopeAndAWall: with Surface on, a cube dragged from the Assets panel onto a slope
// tilted 30° and one dragged onto a wall each stand on that surface turned to its normal: the saved rotation
// turns the cube's up axis to the slope's normal, and to the wall's.
func TestSurfaceSnapDropStandsOnASlopeAndAWall(t *testing.T) {
	path := filepath.Join(writeScenes(t, map[string]string{"slope.json": `{ "format": "voltex.scene", "version": 2, "name": "Slope",
  "editor": { "camera": { "pivot": [0, 0.5, 0], "yaw": 0, "pitch": -30, "distance": 14 } },
  "entities": [
    { "id": 1, "name": "Slope", "order": 1, "components": { "Color": { "rgba": [0.35, 0.6, 0.35, 1] }, "Mesh": { "asset": "builtin:cube" },
      "Transform": { "position": [-3.375, -0.21650635, 0], "rotation": [0, 0, 30], "scale": [5, 0.5, 5] } } },
    { "id": 2, "name": "Wall", "order": 2, "components": { "Color": { "rgba": [0.6, 0.6, 0.7, 1] }, "Mesh": { "asset": "builtin:cube" },
      "Transform": { "position": [3, 1.5, -3], "scale": [4, 3, 0.5] } } } ] }
`}), "slope.json")
	dir := t.TempDir()
	e := launchOnWith(t, path, "--settings", dir)
	failShot(t, e, t.Name())
	s := &snapScene{t: t, e: e, path: path, settings: filepath.Join(dir, "settings.json"),
		cam: viewport.DefaultCamera().WithSaved(scene.EditorCamera{Pivot: [3]float32{0, 0.5, 0}, Pitch: -30, Distance: 14})}
	p0 := e.WaitProbe(20*time.Second, "the scene drawn", func(p *guitest.Probe) bool { return p.Entities == 2 && p.ViewportRenders > 0 })
	s.toggle("toolbar:Surface", "surfaceSnap")
	showAssets(e, p0)
	// the middle of the slope's top (normal: Z turned 30°) and a point of the wall's face towards the camera (+Z)
	slopeTop, slopeNormal := mgl32.Vec3{-3.5, 0, 0}, mgl32.Vec3{-0.5, 0.8660254, 0}
	wallFace, wallNormal := mgl32.Vec3{3, 1.5, -2.75}, mgl32.Vec3{0, 0, 1}
	for i, at := range []mgl32.Vec3{slopeTop, wallFace} {
		p, _ := e.ReadProbe()
		x, y := p.Inspector["mesh:builtin:cube"].Center()
		tx, ty := s.pixel(at)
		e.DragOnto(x, y, 1, func(*guitest.Probe) (int, int) { return tx, ty })
		e.WaitProbe(10*time.Second, "a cube made", func(p *guitest.Probe) bool { return p.Entities == 3+i })
	}
	docShot(t, e, "snap-drop-slope.png")
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	stood := 0
	for _, en := range savedEntities(t, path) {
		if !strings.HasPrefix(en.Name, "Cube") {
			continue
		}
		tr := en.Components.Transform
		m := ecs.Transform{Position: tr.Position, Rotation: tr.Rotation, Scale: mgl32.Vec3{1, 1, 1}}.Matrix()
		up := m.Mul4x1(mgl32.Vec4{0, 1, 0, 0}).Vec3()
		foot := m.Mul4x1(mgl32.Vec4{0, -0.5, 0, 1}).Vec3() // the middle of its bottom
		at, normal := slopeTop, slopeNormal
		if tr.Position[0] > 0 {
			at, normal = wallFace, wallNormal
		}
		if up.Sub(normal).Len() > 1e-3 || foot.Sub(at).Len() > 0.3 || math.Abs(float64(foot.Sub(at).Dot(normal))) > 1e-3 {
			t.Errorf("%s saved at %v turned %v: up axis %v, bottom at %v; want up %v, the bottom on the surface at about %v",
				en.Name, tr.Position, tr.Rotation, up, foot, normal, at)
		}
		stood++
		t.Logf("%s at %v turned %v", en.Name, tr.Position, tr.Rotation)
	}
	if stood != 2 {
		t.Fatalf("%d cubes saved, want 2", stood)
	}
}
