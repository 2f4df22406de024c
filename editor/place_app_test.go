package editor

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// placeFixture is the editor on a level with two cubes (one unit, bottoms at y = 0) beside a prefab file of a
// crate (a cube with its origin at its bottom), the Assets tab in front.
func placeFixture(t *testing.T) *appFixture {
	t.Helper()
	cube := func(id int, x float32) string {
		return `{"id": ` + string(rune('0'+id)) + `, "name": "C` + string(rune('0'+id)) + `", "order": ` + string(rune('0'+id)) +
			`, "components": {"Transform": {"position": [` + ftoa(x) + `, 0.5, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}, "Mesh": {"asset": "builtin:cube"}}}`
	}
	return levelFixture(t, `{"format": "voltex.scene", "version": 2, "name": "Level", "entities": [`+cube(1, 0)+`, `+cube(2, 3)+`]}`)
}

// levelFixture is the editor on the scene level beside a prefab file of a crate (a cube with its origin at its
// bottom), the Assets tab in front.
func levelFixture(t *testing.T, level string) *appFixture {
	t.Helper()
	dir := t.TempDir()
	crate := `{"format": "voltex.scene", "version": 2, "name": "Crate", "entities": [{"id": 1, "name": "Crate", "order": 1,
  "components": {"Transform": {"position": [0, 0.5, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}, "Mesh": {"asset": "builtin:cube"}}}]}`
	for name, text := range map[string]string{"crate.json": crate, "level.json": level} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := newAppFixture(t, Options{ScenePath: filepath.Join(dir, "level.json")})
	focus := true
	f.ui.frame(func() {
		f.a.frame()
		if focus {
			imgui.SetWindowFocusStr(panelAssets)
			focus = false
		}
	})
	f.frames(2)
	return f
}

func ftoa(f float32) string {
	if f == float32(int(f)) {
		return string(rune('0' + int(f)))
	}
	panic("ftoa: whole numbers 0..9 only")
}

// worldBoxes returns the world bounds of every entity with a mesh (unit meshes), by name.
func worldBoxes(w *ecs.World) map[string]viewport.AABB {
	unit := viewport.AABB{Min: [3]float32{-0.5, -0.5, -0.5}, Max: [3]float32{0.5, 0.5, 0.5}}
	out := map[string]viewport.AABB{}
	meshes, names := ecs.NewMap[scene.Mesh](w), ecs.NewMap[scene.Name](w)
	w.EachEntity(func(e ecs.Entity) bool {
		if meshes.Has(e) {
			top := e // named by the root: an instance's, not its crate's
			for !w.Parent(top).IsZero() {
				top = w.Parent(top)
			}
			name, _ := names.TryGet(top)
			out[name.Value] = unit.Transform(w.WorldMatrix(e))
		}
		return true
	})
	return out
}

// TestAppPlacePutsInstancesBesideTheScene: Place puts each instance beside what the scene holds — on its floor,
// clear of every entity (the ones placed before too), never between the camera and the scene — so pressing it
// again never stacks instances on one spot.
func TestAppPlacePutsInstancesBesideTheScene(t *testing.T) {
	f := placeFixture(t)
	d := f.a.ws.Doc()
	for i := range 3 {
		f.click(t, "Place", f.st.Inspector["place:crate.json"].Rect)
		f.frames(2)
		if d.Len() != 2+2*(i+1) { // an instance and its crate
			t.Fatalf("after %d Place: %d entities", i+1, d.Len())
		}
	}
	boxes := worldBoxes(d.World())
	if len(boxes) != 5 {
		t.Fatalf("boxes %v", boxes)
	}
	eye := d.Camera().Eye()
	content := boxes["C1"].Union(boxes["C2"])
	for a, ba := range boxes {
		if abs32(ba.Min[1]) > 1e-4 {
			t.Errorf("%s is not on the floor: %v", a, ba)
		}
		for b, bb := range boxes {
			if a < b && overlaps(ba, bb) {
				t.Errorf("%s %v and %s %v overlap", a, ba, b, bb)
			}
		}
		if a == "C1" || a == "C2" {
			continue
		}
		for _, target := range contentPoints(content) {
			if tHit, ok := (viewport.Ray{Origin: eye, Dir: target.Sub(eye)}).IntersectAABB(ba); ok && tHit < 1 {
				t.Errorf("%s %v stands between the camera %v and the scene %v", a, ba, eye, content)
			}
		}
	}
}

// TestAppMeshDragMakesAnEntity: a mesh dragged from the Assets panel onto the viewport makes an entity with that
// mesh standing on the ground where it is dropped, selected, as one undo step.
func TestAppMeshDragMakesAnEntity(t *testing.T) {
	f := placeFixture(t)
	d := f.a.ws.Doc()
	row := f.st.Inspector["mesh:builtin:sphere"]
	if row.W == 0 {
		t.Fatalf("no row for builtin:sphere: %v", f.st.Inspector)
	}
	vp := f.st.Viewport
	undos, n := d.History().Undos(), d.Len()
	x0, y0 := centre(row.Rect)
	x1, y1 := float32(vp.X+vp.W*3/4), float32(vp.Y+vp.H*3/4)
	f.ui.drag(x0, y0, x1, y1, f.a.frame)
	f.frames(2)
	if d.Len() != n+1 || d.History().Undos() != undos+1 {
		t.Fatalf("after the drop: %d entities (before %d), %d undo steps (before %d)", d.Len(), n, d.History().Undos(), undos)
	}
	e, ok := d.Selection().Active()
	if !ok || ecs.NewMap[scene.Mesh](d.World()).Get(e).Asset != "builtin:sphere" || d.Name(e) != "Sphere" {
		t.Fatalf("the new entity (selected %v): %q", ok, d.Name(e))
	}
	cam := d.Camera()
	r := cam.Ray(x1-float32(vp.X), y1-float32(vp.Y), vp.W, vp.H)
	tHit, _ := r.IntersectPlane([3]float32{0, 1, 0}, 0)
	want := r.At(tHit)
	pos := d.World().WorldMatrix(e).Col(3).Vec3()
	if abs32(pos[0]-want[0]) > 0.05 || abs32(pos[2]-want[2]) > 0.05 || abs32(pos[1]-0.5) > 1e-4 {
		t.Fatalf("dropped over %v on the ground, the sphere is at %v (its bottom on the ground: y 0.5)", want, pos)
	}
}

// TestAppMeshDropLandsOnTheSurface: with surface snapping on, a mesh dropped on a cube's top stands on that top
// (without it, on the ground through the cube).
func TestAppMeshDropLandsOnTheSurface(t *testing.T) {
	for _, surface := range []bool{true, false} {
		t.Run(map[bool]string{true: "surface", false: "ground"}[surface], func(t *testing.T) { dropOnC1(t, surface) })
	}
}

// dropOnC1 drags builtin:sphere from the Assets panel onto the middle of C1's top.
func dropOnC1(t *testing.T, surface bool) {
	f := placeFixture(t)
	f.a.ws.Settings().SurfaceSnap = surface
	d := f.a.ws.Doc()
	vp := f.st.Viewport
	x, y, ok := d.Camera().WorldToPixel([3]float32{0, 1, 0}, vp.W, vp.H)
	if !ok {
		t.Fatal("C1 is not in view")
	}
	x0, y0 := centre(f.st.Inspector["mesh:builtin:sphere"].Rect)
	f.ui.drag(x0, y0, float32(vp.X)+x, float32(vp.Y)+y, f.a.frame)
	f.frames(2)
	e, _ := d.Selection().Active()
	if d.Name(e) != "Sphere" {
		t.Fatalf("no sphere made (%q selected)", d.Name(e))
	}
	pos := d.World().WorldMatrix(e).Col(3).Vec3()
	wantY := float32(0.5) // on the ground
	if surface {
		wantY = 1.5 // on the top
	}
	if abs32(pos[1]-wantY) > 1e-3 || (surface && (abs32(pos[0]) > 0.05 || abs32(pos[2]) > 0.05)) {
		t.Fatalf("surface snapping %v: the sphere dropped on C1's top is at %v, want y %v", surface, pos, wantY)
	}
}

// TestAppPlaceWithSurfaceSnapStandsOnTheSurfaceAhead: with surface snapping on, Place puts the crate on the cube in
// the middle of the view (its bottom on the cube's top), not beside the scene.
func TestAppPlaceWithSurfaceSnapStandsOnTheSurfaceAhead(t *testing.T) {
	f := placeFixture(t)
	f.a.ws.Settings().SurfaceSnap = true
	d := f.a.ws.Doc()
	d.Camera().Pivot = [3]float32{0, 1, 0} // C1's top in the middle of the view
	f.frames(2)
	f.click(t, "Place", f.st.Inspector["place:crate.json"].Rect)
	f.frames(2)
	box, ok := worldBoxes(d.World())["crate"]
	if !ok {
		t.Fatalf("no crate placed: %v", worldBoxes(d.World()))
	}
	if abs32(box.Min[1]-1) > 1e-3 || abs32(box.Center()[0]) > 0.05 || abs32(box.Center()[2]) > 0.05 {
		t.Fatalf("the crate placed with surface snapping is at %v, want on C1's top (bottom y 1 at x, z 0)", box)
	}
}

// slope is a level of one slab, 8 by 8 and half a unit thick, its top through the origin, tilted 30° about Z: its
// top's normal is slopeNormal.
const slope = `{"format": "voltex.scene", "version": 2, "name": "Slope", "entities": [{"id": 1, "name": "Slope", "order": 1,
  "components": {"Transform": {"position": [0.125, -0.21650635, 0], "rotation": [0, 0, 30], "scale": [8, 0.5, 8]}, "Mesh": {"asset": "builtin:cube"}}}]}`

var slopeNormal = mgl32.Vec3{-0.5, 0.8660254, 0}

// standsOn fails unless e's up axis (world) is the slope's normal and the middle of its bottom (bottom below its
// origin) is on the slope's top at about at.
func standsOn(t *testing.T, w *ecs.World, e ecs.Entity, bottom float32, at mgl32.Vec3) {
	t.Helper()
	m := w.WorldMatrix(e)
	if up := m.Mul4x1(mgl32.Vec4{0, 1, 0, 0}).Vec3().Normalize(); up.Sub(slopeNormal).Len() > 1e-4 {
		t.Fatalf("up axis %v, want the slope's normal %v", up, slopeNormal)
	}
	foot := m.Mul4x1(mgl32.Vec4{0, -bottom, 0, 1}).Vec3()
	if d := foot.Dot(slopeNormal); abs32(d) > 1e-3 || foot.Sub(at).Len() > 0.1 {
		t.Fatalf("the middle of its bottom at %v is %v off the slope's top (want 0, at %v)", foot, d, at)
	}
}

// TestAppDropOnASlopeStandsTurnedToItsNormal: with surface snapping on, a mesh and a prefab dragged from the
// Assets panel onto a slope, and a prefab placed with the slope in the middle of the view, each stand on it
// turned to its normal (as a move with surface snapping turns the moved entity); without it, the mesh stands
// upright on the ground.
func TestAppDropOnASlopeStandsTurnedToItsNormal(t *testing.T) {
	for _, surface := range []bool{true, false} {
		t.Run(map[bool]string{true: "surface", false: "ground"}[surface], func(t *testing.T) { dropOnSlope(t, surface) })
	}
}

// dropOnSlope drags a sphere and the crate onto the slope and places the crate, surface snapping on or off.
func dropOnSlope(t *testing.T, surface bool) {
	f := levelFixture(t, slope)
	f.a.ws.Settings().SurfaceSnap = surface
	d := f.a.ws.Doc()
	cam := d.Camera()
	cam.Pivot, cam.Yaw, cam.Pitch, cam.Distance = mgl32.Vec3{}, 20, -35, 12
	f.frames(2)
	vp := f.st.Viewport
	drop := func(row string, at mgl32.Vec3) ecs.Entity {
		t.Helper()
		x, y, ok := cam.WorldToPixel(at, vp.W, vp.H)
		if !ok {
			t.Fatal("the slope is not in view")
		}
		x0, y0 := centre(f.st.Inspector[row].Rect)
		f.ui.drag(x0, y0, float32(vp.X)+x, float32(vp.Y)+y, f.a.frame)
		f.frames(2)
		e, ok := d.Selection().Active()
		if !ok {
			t.Fatalf("nothing made by dropping %s", row)
		}
		return e
	}
	// points of the slope's top, either side of the middle of the view (where Place puts the crate)
	left, right := mgl32.Vec3{0, 0, -2.5}, mgl32.Vec3{0, 0, 2.5}
	sphere := drop("mesh:builtin:sphere", left)
	if !surface {
		if m := d.World().WorldMatrix(sphere); m.Mat3() != mgl32.Ident3() || abs32(m.Col(3)[1]-0.5) > 1e-4 {
			t.Fatalf("without surface snapping the sphere is not upright on the ground: %v", m)
		}
		return
	}
	standsOn(t, d.World(), sphere, 0.5, left)
	standsOn(t, d.World(), drop("asset:crate.json", right), 0, right)
	f.click(t, "Place", f.st.Inspector["place:crate.json"].Rect)
	f.frames(2)
	placed, _ := d.Selection().Active()
	standsOn(t, d.World(), placed, 0, mgl32.Vec3{})
}
