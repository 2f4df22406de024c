package viewport

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// AABB is an axis-aligned bounding box. The zero value is the degenerate box
// at the origin; use [EmptyAABB] to start accumulating points.
type AABB struct {
	Min, Max mgl32.Vec3
}

// EmptyAABB returns a box that contains nothing: Min is +Inf and Max is -Inf,
// so the first [AABB.Extend] or [AABB.Union] makes it exact.
func EmptyAABB() AABB {
	inf := float32(math.Inf(1))
	return AABB{Min: mgl32.Vec3{inf, inf, inf}, Max: mgl32.Vec3{-inf, -inf, -inf}}
}

// IsEmpty reports whether b contains no point (Min > Max on some axis).
func (b AABB) IsEmpty() bool {
	return b.Min[0] > b.Max[0] || b.Min[1] > b.Max[1] || b.Min[2] > b.Max[2]
}

// Extend returns b grown to contain p.
func (b AABB) Extend(p mgl32.Vec3) AABB {
	for i := range 3 {
		b.Min[i] = min(b.Min[i], p[i])
		b.Max[i] = max(b.Max[i], p[i])
	}
	return b
}

// Union returns the smallest box containing b and o. Empty boxes are ignored.
func (b AABB) Union(o AABB) AABB {
	if o.IsEmpty() {
		return b
	}
	if b.IsEmpty() {
		return o
	}
	for i := range 3 {
		b.Min[i] = min(b.Min[i], o.Min[i])
		b.Max[i] = max(b.Max[i], o.Max[i])
	}
	return b
}

// Center returns the centre of b.
func (b AABB) Center() mgl32.Vec3 { return b.Min.Add(b.Max).Mul(0.5) }

// Size returns the edge lengths of b.
func (b AABB) Size() mgl32.Vec3 { return b.Max.Sub(b.Min) }

// Contains reports whether p lies inside b (borders included).
func (b AABB) Contains(p mgl32.Vec3) bool {
	return p[0] >= b.Min[0] && p[0] <= b.Max[0] &&
		p[1] >= b.Min[1] && p[1] <= b.Max[1] &&
		p[2] >= b.Min[2] && p[2] <= b.Max[2]
}

// Transform returns the axis-aligned box that contains b transformed by the
// affine matrix m (Arvo's method: exact for the eight corners, no loop over
// them). An empty box stays empty.
func (b AABB) Transform(m mgl32.Mat4) AABB {
	if b.IsEmpty() {
		return b
	}
	t := m.Col(3).Vec3()
	out := AABB{Min: t, Max: t}
	for c := range 3 {
		col := m.Col(c)
		for r := range 3 {
			e := col[r] * b.Min[c]
			f := col[r] * b.Max[c]
			out.Min[r] += min(e, f)
			out.Max[r] += max(e, f)
		}
	}
	return out
}

// Sphere returns the sphere centred on b that contains it.
func (b AABB) Sphere() Sphere {
	if b.IsEmpty() {
		return Sphere{}
	}
	return Sphere{Center: b.Center(), Radius: b.Size().Len() * 0.5}
}

// Sphere is a bounding sphere.
type Sphere struct {
	Center mgl32.Vec3
	Radius float32
}
