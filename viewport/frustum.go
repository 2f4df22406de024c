package viewport

import "github.com/go-gl/mathgl/mgl32"

// Plane is the set of points p with N·p + D = 0; N·p + D > 0 is the inside.
type Plane struct {
	N mgl32.Vec3
	D float32
}

// Distance returns the signed distance of p from the plane (in units of |N|;
// planes from [NewFrustum] are normalised, so these are world units).
func (pl Plane) Distance(p mgl32.Vec3) float32 { return pl.N.Dot(p) + pl.D }

// Frustum holds the six clip planes of a view volume (left, right, bottom,
// top, near, far), normals pointing inwards.
type Frustum [6]Plane

// Frustum plane indices.
const (
	PlaneLeft = iota
	PlaneRight
	PlaneBottom
	PlaneTop
	PlaneNear
	PlaneFar
)

// NewFrustum extracts the planes of the view volume of the view-projection
// matrix vp (Gribb–Hartmann, OpenGL clip space −w ≤ x, y, z ≤ w).
func NewFrustum(vp mgl32.Mat4) Frustum {
	r0, r1, r2, r3 := vp.Rows()
	rows := [6]mgl32.Vec4{
		r3.Add(r0), r3.Sub(r0),
		r3.Add(r1), r3.Sub(r1),
		r3.Add(r2), r3.Sub(r2),
	}
	var f Frustum
	for i, v := range rows {
		n := v.Vec3()
		l := n.Len()
		if l == 0 {
			l = 1
		}
		f[i] = Plane{N: n.Mul(1 / l), D: v[3] / l}
	}
	return f
}

// ContainsPoint reports whether p is inside (or on) all six planes.
func (f *Frustum) ContainsPoint(p mgl32.Vec3) bool {
	for i := range f {
		if f[i].Distance(p) < 0 {
			return false
		}
	}
	return true
}

// IntersectsSphere reports whether s may be visible: false only when s lies
// wholly outside one plane.
func (f *Frustum) IntersectsSphere(s Sphere) bool {
	for i := range f {
		if f[i].Distance(s.Center) < -s.Radius {
			return false
		}
	}
	return true
}

// IntersectsAABB reports whether b may be visible: false only when b lies
// wholly outside one plane (the "positive vertex" test). Like all plane
// tests it is conservative: a box near a frustum corner can be reported
// visible while it is not.
func (f *Frustum) IntersectsAABB(b AABB) bool {
	if b.IsEmpty() {
		return false
	}
	for i := range f {
		pl := &f[i]
		var p mgl32.Vec3
		for a := range 3 {
			if pl.N[a] >= 0 {
				p[a] = b.Max[a]
			} else {
				p[a] = b.Min[a]
			}
		}
		if pl.Distance(p) < 0 {
			return false
		}
	}
	return true
}
