package editor

import (
	"math"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/viewport"
)

// corners are a builtin cube's vertices.
var corners = func() (cs []mgl32.Vec3) {
	for i := range 8 {
		c := mgl32.Vec3{-0.5, -0.5, -0.5}
		for a := range 3 {
			if i&(1<<a) != 0 {
				c[a] = 0.5
			}
		}
		cs = append(cs, c)
	}
	return cs
}()

// screenOf is where world point p is drawn in the fixture's window.
func (f *vpFixture) screenOf(t *testing.T, p mgl32.Vec3) (float32, float32) {
	t.Helper()
	x, y, ok := f.d.Camera().WorldToPixel(p, f.v.area.w, f.v.area.h)
	if !ok {
		t.Fatalf("%v is not in view", p)
	}
	return float32(f.st.Viewport.X) + x, float32(f.st.Viewport.Y) + y
}

// dragGizmoTo drags the selected cube's gizmo from its centre to x, y; during holds V down for the drag's frames
// and is called on the last one before the release.
func (f *vpFixture) dragGizmoTo(x, y float32, holdV bool, during func()) {
	gx, gy := float32(f.st.Gizmo[0]), float32(f.st.Gizmo[1])
	f.ui.move(gx, gy, f.build)
	f.ui.press(imgui.MouseButtonLeft, true, f.build)
	if holdV {
		f.ui.io().AddKeyEvent(imgui.KeyV, true)
	}
	const steps = 10
	for i := 1; i <= steps; i++ {
		s := float32(i) / steps
		f.ui.move(gx+(x-gx)*s, gy+(y-gy)*s, f.build)
	}
	f.ui.frames(2, f.build)
	if during != nil {
		during()
	}
	f.ui.press(imgui.MouseButtonLeft, false, f.build)
	if holdV {
		f.ui.io().AddKeyEvent(imgui.KeyV, false)
	}
	f.ui.frames(2, f.build)
}

// touchingCorners returns a corner of the cube at a that is exactly a corner of the cube at b.
func touchingCorners(a, b mgl32.Vec3) (mgl32.Vec3, bool) {
	for _, ca := range corners {
		for _, cb := range corners {
			if p := a.Add(ca); p == b.Add(cb) {
				return p, true
			}
		}
	}
	return mgl32.Vec3{}, false
}

func TestVertexSnapPutsACornerExactlyOnAnothers(t *testing.T) {
	f := newVPFixture(t)
	f.d.Selection().Select(f.cubes[1])
	f.ui.frames(2, f.build)
	other := f.d.World().WorldMatrix(f.cubes[2]).Col(3).Vec3()
	corner := other.Add(mgl32.Vec3{-0.5, 0.5, 0.5})
	x, y := f.screenOf(t, corner)
	undos := f.d.History().Undos()
	var marked [2]int
	f.dragGizmoTo(x+4, y-3, true, func() { marked = f.st.SnapVertex })
	pos := f.d.World().WorldMatrix(f.cubes[1]).Col(3).Vec3()
	p, ok := touchingCorners(pos, other)
	if !ok || p != corner {
		t.Fatalf("after a V drag to the corner %v: the cube is at %v, no corner on it", corner, pos)
	}
	if mx, my := float32(marked[0]), float32(marked[1]); math.Hypot(float64(mx-x), float64(my-y)) > 1.5 {
		t.Fatalf("the snapped vertex is marked at %v, drawn at %v, %v", marked, x, y)
	}
	if f.d.History().Undos() != undos+1 {
		t.Fatalf("a snapped drag made %d undo steps", f.d.History().Undos()-undos)
	}
	if f.st.SnapVertex != ([2]int{}) {
		t.Fatal("the snapped vertex is still marked after the drag")
	}
	// without V the same drag puts no corner on another
	if err := f.d.History().Undo(); err != nil {
		t.Fatal(err)
	}
	f.ui.frames(2, f.build)
	f.dragGizmoTo(x+4, y-3, false, nil)
	if pos := f.d.World().WorldMatrix(f.cubes[1]).Col(3).Vec3(); pos == (mgl32.Vec3{}) {
		t.Fatal("the drag without V did not move the cube")
	} else if _, ok := touchingCorners(pos, other); ok {
		t.Fatalf("a drag without V put the cube at %v, a corner on the other's", pos)
	}
}

func TestSurfaceSnapPutsTheCubeOnTop(t *testing.T) {
	f := newVPFixture(t)
	f.host.modes.surface = true
	f.d.Selection().Select(f.cubes[1])
	f.ui.frames(2, f.build)
	other := f.d.World().WorldMatrix(f.cubes[2]).Col(3).Vec3()
	x, y := f.screenOf(t, other.Add(mgl32.Vec3{0, 0.5, 0})) // the middle of its top
	f.dragGizmoTo(x, y, false, nil)
	tr := f.d.World().WorldMatrix(f.cubes[1])
	pos := tr.Col(3).Vec3()
	if math.Abs(float64(pos.Y()-1)) > 1e-4 || math.Hypot(float64(pos.X()-other.X()), float64(pos.Z()-other.Z())) > 0.05 {
		t.Fatalf("dropped on the middle of the top of the cube at %v: at %v, want about %v", other, pos, other.Add(mgl32.Vec3{0, 1, 0}))
	}
	if up := tr.Col(1).Vec3(); up.Sub(mgl32.Vec3{0, 1, 0}).Len() > 1e-5 {
		t.Fatalf("on a flat top the cube turned: up %v", up)
	}
	// without surface snapping the same drag moves it in the view plane through it, not onto the top
	f.host.modes.surface = false
	if err := f.d.History().Undo(); err != nil {
		t.Fatal(err)
	}
	f.ui.frames(2, f.build)
	f.dragGizmoTo(x, y, false, nil)
	if pos := f.d.World().WorldMatrix(f.cubes[1]).Col(3).Vec3(); math.Abs(float64(pos.Y()-1)) < 1e-3 {
		t.Fatalf("a plain drag put the cube on the top: %v", pos)
	}
}

func TestGridSnapWithoutCtrl(t *testing.T) {
	f := newVPFixture(t)
	f.host.modes.grid = true
	f.host.step = 0.5
	f.d.Selection().Select(f.cubes[1])
	f.ui.frames(2, f.build)
	gx, gy := float32(f.st.Gizmo[0]), float32(f.st.Gizmo[1])
	f.dragGizmoTo(gx+47, gy+13, false, nil)
	pos := f.d.World().WorldMatrix(f.cubes[1]).Col(3).Vec3()
	for a := range 3 {
		if pos[a]*2 != float32(math.Round(float64(pos[a]*2))) {
			t.Fatalf("with snapping on the cube moved to %v, off the 0.5 steps", pos)
		}
	}
	if pos == (mgl32.Vec3{}) {
		t.Fatal("the drag did not move the cube")
	}
}

// TestVertexSnapNeverTargetsWhatMoves: the children of a moved entity move with it, so none of their vertices is a
// target (a vertex snapping onto one that follows it would never settle).
func TestVertexSnapNeverTargetsWhatMoves(t *testing.T) {
	f := newVPFixture(t)
	child, err := f.d.SpawnCube(f.cubes[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := f.d.SetField([]ecs.Entity{child}, mustComponent[ecs.Transform](t, f.d), "position", mgl32.Vec3{0, 2, 0}); err != nil {
		t.Fatal(err)
	}
	f.d.Selection().Select(f.cubes[1])
	f.ui.frames(2, f.build)
	f.v.gz.snap.beginSnap(f.d.World(), f.d.Selection().Entities())
	defer f.v.gz.snap.endSnap()
	f.v.gz.snap.prepare()
	if f.v.gz.snap.still(viewport.EntityID(child)) || f.v.gz.snap.still(viewport.EntityID(f.cubes[1])) {
		t.Fatal("the moved cube or its child is a snap target")
	}
	if !f.v.gz.snap.still(viewport.EntityID(f.cubes[2])) {
		t.Fatal("a cube that does not move is no snap target")
	}
}
