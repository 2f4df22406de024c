package viewport

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// TestOrthoPickReturnsThePoint: in an orthographic axis view, the ray through the pixel a point projects to passes
// through that point, and every ray runs along the view direction.
func TestOrthoPickReturnsThePoint(t *testing.T) {
	points := []mgl32.Vec3{{0, 0, 0}, {3, 1, -2}, {-7.5, 4, 9}, {12, -3, 0.25}}
	for v := ViewFront; v <= ViewBottom; v++ {
		c := DefaultCamera()
		c.Pivot = mgl32.Vec3{1, 2, 3}
		c.SetAxisView(v)
		for _, p := range points {
			x, y, ok := c.WorldToPixel(p, 800, 600)
			if !ok {
				t.Errorf("%v: %v is not in view", v, p)
				continue
			}
			r := c.Ray(x, y, 800, 600)
			if !nearVec(r.Dir, c.Forward(), 1e-4) {
				t.Errorf("%v: the ray at (%v,%v) runs %v, not along the view %v", v, x, y, r.Dir, c.Forward())
			}
			// The point nearest p on the ray is p itself.
			q := r.At(p.Sub(r.Origin).Dot(r.Dir))
			if d := q.Sub(p).Len(); d > 1e-2 {
				t.Errorf("%v: the ray through %v's pixel (%v,%v) misses it by %v", v, p, x, y, d)
			}
		}
	}
}

// TestOrthoPickHitsTheBox: picking a box in the top view at the pixel of its centre hits it from above.
func TestOrthoPickHitsTheBox(t *testing.T) {
	c := DefaultCamera()
	c.SetAxisView(ViewTop)
	box := AABB{Min: mgl32.Vec3{4, 0, -6}, Max: mgl32.Vec3{5, 1, -5}}
	x, y, _ := c.WorldToPixel(box.Center(), 800, 600)
	r := c.Ray(x, y, 800, 600)
	tt, ok := r.IntersectAABB(box)
	if !ok {
		t.Fatalf("the ray at (%v,%v) misses the box", x, y)
	}
	if hit := r.At(tt); !near(hit[1], 1, 1e-3) || !near(hit[0], 4.5, 1e-3) || !near(hit[2], -5.5, 1e-3) {
		t.Errorf("hit %v, want the top face's centre (4.5, 1, -5.5)", hit)
	}
}

func TestAxisViews(t *testing.T) {
	for _, tt := range []struct {
		v          AxisView
		fwd, right mgl32.Vec3
	}{
		{ViewFront, mgl32.Vec3{0, 0, -1}, mgl32.Vec3{1, 0, 0}},
		{ViewBack, mgl32.Vec3{0, 0, 1}, mgl32.Vec3{-1, 0, 0}},
		{ViewRight, mgl32.Vec3{-1, 0, 0}, mgl32.Vec3{0, 0, -1}},
		{ViewLeft, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}},
		{ViewTop, mgl32.Vec3{0, -1, 0}, mgl32.Vec3{1, 0, 0}},
		{ViewBottom, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 0, 0}},
	} {
		c := DefaultCamera()
		c.SetAxisView(tt.v)
		if !c.Orthographic || !nearVec(c.Forward(), tt.fwd, 1e-5) || !nearVec(c.Right(), tt.right, 1e-5) {
			t.Errorf("%v: ortho %v, forward %v right %v; want forward %v right %v", tt.v, c.Orthographic, c.Forward(), c.Right(), tt.fwd, tt.right)
		}
		if got, ok := c.NearestAxisView(0.5); !ok || got != tt.v {
			t.Errorf("%v: NearestAxisView = %v, %v", tt.v, got, ok)
		}
	}
	if v, ok := DefaultCamera().NearestAxisView(0.5); ok {
		t.Errorf("the default camera is taken for the %v view", v)
	}
}

// TestOrthoKeepsThePivotPlane: toggling orthographic keeps the size of the plane through the pivot on the screen,
// and zooming in does not bring the near plane past what lies in front of the pivot.
func TestOrthoKeepsThePivotPlane(t *testing.T) {
	c := DefaultCamera()
	p := c.Pivot.Add(c.Right().Mul(5)).Add(c.Up().Mul(3))
	x0, y0, _ := c.WorldToPixel(p, 800, 600)
	c.Orthographic = true
	x1, y1, _ := c.WorldToPixel(p, 800, 600)
	if !near(x0, x1, 0.05) || !near(y0, y1, 0.05) {
		t.Errorf("a point on the pivot plane moved from (%v,%v) to (%v,%v)", x0, y0, x1, y1)
	}
	c.Distance = 0.5
	front := c.Pivot.Sub(c.Forward().Mul(20))
	clip := c.ViewProj(800, 600).Mul4x1(front.Vec4(1))
	if z := clip[2] / clip[3]; z < -1 || z > 1 {
		t.Errorf("zoomed in, a point 20 in front of the pivot is clipped (depth %v)", z)
	}
}

// TestOrbitLeavesAxisViewToPerspective: orbiting away from an axis view goes back to perspective; orbiting an
// orthographic view that is off the axes keeps it orthographic.
func TestOrbitLeavesAxisViewToPerspective(t *testing.T) {
	c := DefaultCamera()
	c.SetAxisView(ViewTop)
	c.Orbit(0, 0)
	if !c.Orthographic {
		t.Error("an orbit of no pixels left the top view")
	}
	c.Orbit(10, 0)
	if c.Orthographic {
		t.Error("orbiting away from the top view stays orthographic")
	}
	c.Orthographic = true
	c.Orbit(10, 5)
	if !c.Orthographic {
		t.Error("orbiting an orthographic view off the axes made it perspective")
	}
}
