package scene

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

func TestRegisterAndDefaults(t *testing.T) {
	w := NewWorld()
	Register(w) // idempotent
	for _, name := range []string{"Name", "SceneID", "Mesh", "Color", "Spin", "Camera", "Unknown", "Transform"} {
		if _, ok := w.ComponentByName(name); !ok {
			t.Errorf("%s not registered", name)
		}
	}
	id, _ := w.ComponentByName("Color")
	if d := w.ComponentInfo(id).Schema.Default.(Color); d.RGBA != [4]float32{1, 1, 1, 1} {
		t.Errorf("Color default %v", d)
	}
	if f := w.ComponentInfo(id).Schema.Fields[0]; f.JSONName != "rgba" || !f.Hints.Color || f.Hints.Max != 1 {
		t.Errorf("Color schema %+v", f)
	}
	cam, _ := w.ComponentByName("Camera")
	if w.ComponentInfo(cam).Storage != ecs.SparseSet {
		t.Error("Camera should be a sparse set")
	}
	if r := ecs.Resource[IDs](w); r == nil || r.Next != 1 {
		t.Errorf("IDs resource %v", r)
	}
}

func TestEnsureIDs(t *testing.T) {
	w := NewWorld()
	ids := ecs.NewMap[SceneID](w)
	a := w.Spawn(&SceneID{ID: 7})
	b := w.Spawn()                  // no id
	c := w.Spawn(&SceneID{ID: 3})   //
	d := w.Spawn(&SceneID{ID: 7})   // duplicate of a: d has the higher index, so d is renumbered
	e := w.Spawn(&SceneID{ID: 0})   // zero
	f := w.Spawn(&Name{Value: "x"}) // no id
	order := EnsureIDs(w)
	want := []ecs.Entity{c, a, b, d, e, f}
	wantIDs := []uint64{3, 7, 8, 9, 10, 11}
	if len(order) != len(want) {
		t.Fatalf("order %v", order)
	}
	for i := range want {
		if order[i] != want[i] || ids.Get(order[i]).ID != wantIDs[i] {
			t.Errorf("order[%d] = %v id %d; want %v id %d", i, order[i], ids.Get(order[i]).ID, want[i], wantIDs[i])
		}
	}
	if n := AssignID(w, w.Spawn()); n != 12 {
		t.Errorf("next id %d", n)
	}
	// Already unique and sorted: nothing changes.
	before := w.Tick()
	_ = before
	again := EnsureIDs(w)
	if len(again) != 7 || ids.Get(again[6]).ID != 12 {
		t.Errorf("second EnsureIDs: %v", again)
	}
}

func near(a, b mgl32.Mat4, eps float32) bool {
	for i := range a {
		if d := a[i] - b[i]; d > eps || d < -eps {
			return false
		}
	}
	return true
}

// matrixOf is the rotation part of Transform.Matrix.
func matrixOf(euler mgl32.Vec3) mgl32.Mat4 {
	return ecs.Transform{Rotation: euler, Scale: mgl32.Vec3{1, 1, 1}}.Matrix()
}

func TestRotateMatchesMatrices(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		e := mgl32.Vec3{float32(rng.Float64()*360 - 180), float32(rng.Float64()*360 - 180), float32(rng.Float64()*360 - 180)}
		axis := mgl32.Vec3{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}
		deg := float32(rng.Float64()*90 - 45)
		got := matrixOf(Rotate(e, axis, deg))
		want := mgl32.HomogRotate3D(mgl32.DegToRad(deg), axis.Normalize()).Mul4(matrixOf(e))
		if !near(got, want, 1e-5) {
			t.Fatalf("Rotate(%v, %v, %v):\n got %v\nwant %v", e, axis, deg, got, want)
		}
	}
	// Gimbal lock (x = ±90°) still yields the right matrix.
	for _, x := range []float32{90, -90} {
		e := mgl32.Vec3{x, 20, 30}
		got := matrixOf(Rotate(e, mgl32.Vec3{1, 0, 0}, 0.0001))
		want := mgl32.HomogRotate3DX(mgl32.DegToRad(0.0001)).Mul4(matrixOf(e))
		if !near(got, want, 1e-5) {
			t.Errorf("gimbal lock x=%v: got %v want %v", x, got, want)
		}
	}
	if r := Rotate(mgl32.Vec3{0, 170, 0}, mgl32.Vec3{0, 2, 0}, 20); r != (mgl32.Vec3{0, -170, 0}) {
		t.Errorf("Y spin wraps exactly: %v", r)
	}
	if r := Rotate(mgl32.Vec3{0, 10, 0}, mgl32.Vec3{0, -1, 0}, 20); r != (mgl32.Vec3{0, -10, 0}) {
		t.Errorf("spin about -Y: %v", r)
	}
	if r := Rotate(mgl32.Vec3{1, 2, 3}, mgl32.Vec3{}, 20); r != (mgl32.Vec3{1, 2, 3}) {
		t.Errorf("zero axis: %v", r)
	}
}

func TestSpinSystem(t *testing.T) {
	w := NewWorld()
	tr := ecs.NewMap[ecs.Transform](w)
	spinning := w.Spawn(&ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}}, &Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 90})
	still := w.Spawn(&ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}})
	w.AddSystem(SpinSystem(w))
	w.Update() // no Time resource: nothing moves
	if r := tr.Get(spinning).Rotation; r != (mgl32.Vec3{}) {
		t.Fatalf("moved without a Time resource: %v", r)
	}
	ecs.SetResource(w, Time{Delta: 0.5})
	w.Update()
	w.Update()
	if r := tr.Get(spinning).Rotation; r != (mgl32.Vec3{0, 90, 0}) {
		t.Errorf("after 2×0.5 s at 90°/s: %v", r)
	}
	if r := tr.Get(still).Rotation; r != (mgl32.Vec3{}) {
		t.Errorf("entity without Spin moved: %v", r)
	}
	ApplySpin(w, 1)
	if r := tr.Get(spinning).Rotation; r != (mgl32.Vec3{0, 180, 0}) {
		t.Errorf("ApplySpin: %v", r)
	}
}

func TestSpawnGrid(t *testing.T) {
	w := NewWorld()
	p := GridParams{Count: [3]int{3, 2, 2}, Spacing: mgl32.Vec3{2, 1, 3}, Origin: mgl32.Vec3{10, 0, 0},
		ColorFrom: [4]float32{0, 0, 0, 1}, ColorTo: [4]float32{1, 0.5, 0, 1}, Spin: &Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 10},
		Group: "Grid"}
	group, cubes := SpawnGrid(w, p)
	if len(cubes) != 12 || w.Len() != 13 {
		t.Fatalf("%d cubes, %d entities", len(cubes), w.Len())
	}
	names, tr, col := ecs.NewMap[Name](w), ecs.NewMap[ecs.Transform](w), ecs.NewMap[Color](w)
	if names.Get(group).Value != "Grid" || tr.Get(group).Position != p.Origin {
		t.Error("group entity")
	}
	first, last := cubes[0], cubes[len(cubes)-1]
	if got := names.Get(first).Value + "|" + names.Get(last).Value; got != "Cube 0,0,0|Cube 2,1,1" {
		t.Errorf("names %s", got)
	}
	if got := tr.Get(first).Position; got != (mgl32.Vec3{-2, -0.5, -1.5}) {
		t.Errorf("first cube at %v (relative to the group)", got)
	}
	if got := w.WorldMatrix(last).Col(3).Vec3(); got != (mgl32.Vec3{12, 0.5, 1.5}) {
		t.Errorf("last cube's world position %v", got)
	}
	if col.Get(first).RGBA != p.ColorFrom || col.Get(last).RGBA != p.ColorTo {
		t.Errorf("gradient ends %v %v", col.Get(first).RGBA, col.Get(last).RGBA)
	}
	if mid := col.Get(cubes[1]).RGBA; math.Abs(float64(mid[0])-1.0/6) > 1e-6 {
		t.Errorf("cube (1,0,0) colour %v; want red 1/6", mid)
	}
	for _, c := range cubes {
		if w.Parent(c) != group {
			t.Fatal("cube not parented to the group")
		}
	}
	if got := len(EnsureIDs(w)); got != 13 {
		t.Errorf("EnsureIDs saw %d", got)
	}
	// A one-layer grid without a group names cubes "Cube x,z".
	w2 := NewWorld()
	_, cubes = SpawnGrid(w2, DefaultGrid())
	if len(cubes) != 400 || ecs.NewMap[Name](w2).Get(cubes[21]).Value != "Cube 1,1" || w2.Parent(cubes[0]) != (ecs.Entity{}) {
		t.Errorf("default grid")
	}
	for _, bad := range []GridParams{{Count: [3]int{0, 1, 1}}, {Count: [3]int{1, 1, 1}, ColorTo: [4]float32{2, 0, 0, 0}},
		{Count: [3]int{10000, 10000, 1}}, {Count: [3]int{1, 1, 1}, Spacing: mgl32.Vec3{float32(math.NaN())}}} {
		if bad.Validate() == nil {
			t.Errorf("Validate accepted %+v", bad)
		}
	}
}
