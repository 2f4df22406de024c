package viewport

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Ray is a half-line Origin + t·Dir, t ≥ 0. Dir need not be unit length; the
// t values the intersection methods return are in units of Dir.
type Ray struct {
	Origin, Dir mgl32.Vec3
}

// At returns the point Origin + t·Dir.
func (r Ray) At(t float32) mgl32.Vec3 { return r.Origin.Add(r.Dir.Mul(t)) }

// Transform returns the ray mapped by the affine matrix m (Dir is not
// renormalised, so t values stay comparable with the untransformed ray).
func (r Ray) Transform(m mgl32.Mat4) Ray {
	return Ray{
		Origin: m.Mul4x1(r.Origin.Vec4(1)).Vec3(),
		Dir:    m.Mul4x1(r.Dir.Vec4(0)).Vec3(),
	}
}

// IntersectAABB returns the smallest t ≥ 0 where r is inside b (0 when the
// origin is inside) using the slab method; ok is false on a miss.
func (r Ray) IntersectAABB(b AABB) (t float32, ok bool) {
	if b.IsEmpty() {
		return 0, false
	}
	tmin, tmax := float32(0), float32(math.Inf(1))
	for i := range 3 {
		if r.Dir[i] == 0 {
			if r.Origin[i] < b.Min[i] || r.Origin[i] > b.Max[i] {
				return 0, false
			}
			continue
		}
		inv := 1 / r.Dir[i]
		t0 := (b.Min[i] - r.Origin[i]) * inv
		t1 := (b.Max[i] - r.Origin[i]) * inv
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		tmin = max(tmin, t0)
		tmax = min(tmax, t1)
		if tmin > tmax {
			return 0, false
		}
	}
	return tmin, true
}

// IntersectTriangle returns the t ≥ 0 where r crosses triangle (a, b, c)
// from either side (Möller–Trumbore); ok is false on a miss or when r is
// parallel to the triangle.
func (r Ray) IntersectTriangle(a, b, c mgl32.Vec3) (t float32, ok bool) {
	const eps = 1e-9
	e1, e2 := b.Sub(a), c.Sub(a)
	p := r.Dir.Cross(e2)
	det := e1.Dot(p)
	if det > -eps && det < eps {
		return 0, false
	}
	inv := 1 / det
	s := r.Origin.Sub(a)
	u := s.Dot(p) * inv
	if u < 0 || u > 1 {
		return 0, false
	}
	q := s.Cross(e1)
	v := r.Dir.Dot(q) * inv
	if v < 0 || u+v > 1 {
		return 0, false
	}
	t = e2.Dot(q) * inv
	return t, t >= 0
}

// IntersectPlane returns the t ≥ 0 where r meets the plane {p : n·p = d};
// ok is false when r is parallel to it or points away.
func (r Ray) IntersectPlane(n mgl32.Vec3, d float32) (t float32, ok bool) {
	denom := n.Dot(r.Dir)
	if denom > -1e-9 && denom < 1e-9 {
		return 0, false
	}
	t = (d - n.Dot(r.Origin)) / denom
	return t, t >= 0
}
