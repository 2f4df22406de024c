package viewport

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

var unitBox = AABB{Min: mgl32.Vec3{-1, -1, -1}, Max: mgl32.Vec3{1, 1, 1}}

func TestAABB(t *testing.T) {
	e := EmptyAABB()
	if !e.IsEmpty() || !e.Union(e).IsEmpty() {
		t.Fatal("empty box not empty")
	}
	b := e.Extend(mgl32.Vec3{1, 2, 3}).Extend(mgl32.Vec3{-1, 0, 5})
	if b != (AABB{Min: mgl32.Vec3{-1, 0, 3}, Max: mgl32.Vec3{1, 2, 5}}) {
		t.Errorf("Extend: %+v", b)
	}
	if u := e.Union(b); u != b {
		t.Errorf("empty ∪ b = %+v", u)
	}
	if !b.Contains(mgl32.Vec3{0, 1, 4}) || b.Contains(mgl32.Vec3{0, 3, 4}) {
		t.Error("Contains wrong")
	}
	tests := []struct {
		name string
		m    mgl32.Mat4
		want AABB
	}{
		{"identity", mgl32.Ident4(), unitBox},
		{"translate", mgl32.Translate3D(10, 0, -2), AABB{Min: mgl32.Vec3{9, -1, -3}, Max: mgl32.Vec3{11, 1, -1}}},
		{"scale", mgl32.Scale3D(2, 3, 0.5), AABB{Min: mgl32.Vec3{-2, -3, -0.5}, Max: mgl32.Vec3{2, 3, 0.5}}},
		{"rotate 45 about Y", mgl32.HomogRotate3DY(math.Pi / 4), AABB{Min: mgl32.Vec3{-math.Sqrt2, -1, -math.Sqrt2}, Max: mgl32.Vec3{math.Sqrt2, 1, math.Sqrt2}}},
	}
	for _, tt := range tests {
		got := unitBox.Transform(tt.m)
		if !nearVec(got.Min, tt.want.Min, 1e-5) || !nearVec(got.Max, tt.want.Max, 1e-5) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if !EmptyAABB().Transform(mgl32.Translate3D(1, 1, 1)).IsEmpty() {
		t.Error("transformed empty box not empty")
	}
}

// rayCase is a ray test: does r hit, and at which t.
type rayCase struct {
	name  string
	r     Ray
	hit   bool
	wantT float32
}

func checkRays(t *testing.T, what string, cases []rayCase, f func(Ray) (float32, bool)) {
	t.Helper()
	for _, tt := range cases {
		got, hit := f(tt.r)
		if hit != tt.hit || (hit && !near(got, tt.wantT, 1e-5)) {
			t.Errorf("%s %s: t=%v hit=%v, want %v %v", what, tt.name, got, hit, tt.wantT, tt.hit)
		}
	}
}

func TestRayIntersections(t *testing.T) {
	box := []rayCase{
		{"head on", Ray{mgl32.Vec3{0, 0, 5}, mgl32.Vec3{0, 0, -1}}, true, 4},
		{"from inside", Ray{mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1, 0, 0}}, true, 0},
		{"pointing away", Ray{mgl32.Vec3{0, 0, 5}, mgl32.Vec3{0, 0, 1}}, false, 0},
		{"parallel outside", Ray{mgl32.Vec3{0, 2, 5}, mgl32.Vec3{0, 0, -1}}, false, 0},
		{"diagonal", Ray{mgl32.Vec3{3, 3, 0}, mgl32.Vec3{-1, -1, 0}}, true, 2},
		{"grazes an edge", Ray{mgl32.Vec3{1, 1, 5}, mgl32.Vec3{0, 0, -1}}, true, 4},
		{"misses a corner", Ray{mgl32.Vec3{3, 0, 0}, mgl32.Vec3{-1, 0, 1}.Normalize()}, false, 0},
	}
	checkRays(t, "box", box, func(r Ray) (float32, bool) { return r.IntersectAABB(unitBox) })
	a, b, c := mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}
	tri := []rayCase{
		{"front", Ray{mgl32.Vec3{0.2, 0.2, 3}, mgl32.Vec3{0, 0, -1}}, true, 3},
		{"back side", Ray{mgl32.Vec3{0.2, 0.2, -2}, mgl32.Vec3{0, 0, 1}}, true, 2},
		{"outside hypotenuse", Ray{mgl32.Vec3{0.6, 0.6, 3}, mgl32.Vec3{0, 0, -1}}, false, 0},
		{"behind origin", Ray{mgl32.Vec3{0.2, 0.2, -3}, mgl32.Vec3{0, 0, -1}}, false, 0},
		{"parallel", Ray{mgl32.Vec3{0.2, 0.2, 1}, mgl32.Vec3{1, 0, 0}}, false, 0},
		{"unnormalised dir", Ray{mgl32.Vec3{0.2, 0.2, 4}, mgl32.Vec3{0, 0, -2}}, true, 2},
	}
	checkRays(t, "triangle", tri, func(r Ray) (float32, bool) { return r.IntersectTriangle(a, b, c) })
	if tp, ok := (Ray{mgl32.Vec3{0, 5, 0}, mgl32.Vec3{0, -1, 0}}).IntersectPlane(mgl32.Vec3{0, 1, 0}, 1); !ok || !near(tp, 4, 1e-6) {
		t.Errorf("plane: %v %v", tp, ok)
	}
	if _, ok := (Ray{mgl32.Vec3{0, 5, 0}, mgl32.Vec3{0, 1, 0}}).IntersectPlane(mgl32.Vec3{0, 1, 0}, 1); ok {
		t.Error("plane behind the ray reported a hit")
	}
}

func TestFrustumCulling(t *testing.T) {
	c := Camera{Yaw: 0, Pitch: 0, Distance: 10, FovY: 90, Near: 1, Far: 100}
	// Eye at (0,0,10) looking down -Z; 90° fov, aspect 1: the volume at depth
	// d from the eye spans ±d in x and y.
	f := NewFrustum(c.ViewProj(100, 100))
	tests := []struct {
		name string
		b    AABB
		want bool
	}{
		{"at the pivot", unitBox, true},
		{"behind the camera", AABB{Min: mgl32.Vec3{-1, -1, 11}, Max: mgl32.Vec3{1, 1, 12}}, false},
		{"closer than near", AABB{Min: mgl32.Vec3{-0.1, -0.1, 9.5}, Max: mgl32.Vec3{0.1, 0.1, 9.6}}, false},
		{"beyond far", AABB{Min: mgl32.Vec3{-1, -1, -95}, Max: mgl32.Vec3{1, 1, -91}}, false},
		{"straddles far", AABB{Min: mgl32.Vec3{-1, -1, -95}, Max: mgl32.Vec3{1, 1, -89}}, true},
		{"far to the left", AABB{Min: mgl32.Vec3{-30, -1, -1}, Max: mgl32.Vec3{-12, 1, 1}}, false},
		{"pokes in from the left", AABB{Min: mgl32.Vec3{-30, -1, -1}, Max: mgl32.Vec3{-9, 1, 1}}, true},
		{"above", AABB{Min: mgl32.Vec3{-1, 15, -1}, Max: mgl32.Vec3{1, 16, 1}}, false},
		{"below", AABB{Min: mgl32.Vec3{-1, -16, -1}, Max: mgl32.Vec3{1, -15, 1}}, false},
		{"huge, containing the frustum", AABB{Min: mgl32.Vec3{-1e4, -1e4, -1e4}, Max: mgl32.Vec3{1e4, 1e4, 1e4}}, true},
		{"empty", EmptyAABB(), false},
	}
	for _, tt := range tests {
		if got := f.IntersectsAABB(tt.b); got != tt.want {
			t.Errorf("AABB %s: %v, want %v", tt.name, got, tt.want)
		}
		if !tt.b.IsEmpty() && tt.b.Size().Len() < 1e3 {
			// A sphere around a visible box is visible too.
			if s := tt.b.Sphere(); tt.want && !f.IntersectsSphere(s) {
				t.Errorf("sphere around %s culled", tt.name)
			}
		}
	}
	spheres := []struct {
		s    Sphere
		want bool
	}{
		{Sphere{mgl32.Vec3{0, 0, 0}, 1}, true},
		{Sphere{mgl32.Vec3{0, 0, 20}, 1}, false},
		{Sphere{mgl32.Vec3{0, 0, 11.5}, 1}, false},
		{Sphere{mgl32.Vec3{0, 0, 11.5}, 2}, false}, // reaches only between the eye and the near plane
		{Sphere{mgl32.Vec3{0, 0, 11.5}, 3}, true},
		{Sphere{mgl32.Vec3{15, 0, 0}, 1}, false},
	}
	for _, tt := range spheres {
		if got := f.IntersectsSphere(tt.s); got != tt.want {
			t.Errorf("sphere %+v: %v, want %v", tt.s, got, tt.want)
		}
	}
	// Points: agree with the clip-space test of the same matrix.
	vp := c.ViewProj(100, 100)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		p := mgl32.Vec3{rng.Float32()*60 - 30, rng.Float32()*60 - 30, rng.Float32()*140 - 110}
		clip := vp.Mul4x1(p.Vec4(1))
		w := clip[3]
		in := w > 0 && math.Abs(float64(clip[0])) <= float64(w) && math.Abs(float64(clip[1])) <= float64(w) && math.Abs(float64(clip[2])) <= float64(w)
		// Skip points within float noise of a plane.
		margin := float32(1e-3) * w
		edge := false
		for i := range 3 {
			if near(float32(math.Abs(float64(clip[i]))), w, margin) {
				edge = true
			}
		}
		if !edge && f.ContainsPoint(p) != in {
			t.Fatalf("point %v: frustum says %v, clip space says %v", p, !in, in)
		}
	}
}
