package doc

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// decompose returns the Transform whose matrix (T·Ry·Rx·Rz·S) is m, and false if m has no such
// form (a zero scale). Shear, which a rotated child of a non-uniformly scaled parent can have, is
// dropped.
func decompose(m mgl32.Mat4) (ecs.Transform, bool) {
	col := func(c int) [3]float64 {
		return [3]float64{float64(m[c*4]), float64(m[c*4+1]), float64(m[c*4+2])}
	}
	c := [3][3]float64{col(0), col(1), col(2)}
	var s [3]float64
	for i := range c {
		s[i] = math.Sqrt(c[i][0]*c[i][0] + c[i][1]*c[i][1] + c[i][2]*c[i][2])
		if s[i] < 1e-12 || math.IsNaN(s[i]) || math.IsInf(s[i], 0) {
			return ecs.Transform{}, false
		}
	}
	det := c[0][0]*(c[1][1]*c[2][2]-c[1][2]*c[2][1]) - c[1][0]*(c[0][1]*c[2][2]-c[0][2]*c[2][1]) +
		c[2][0]*(c[0][1]*c[1][2]-c[0][2]*c[1][1])
	if det < 0 {
		s[0] = -s[0]
	}
	// r[row][col] is the rotation: column i of the matrix divided by its scale.
	var r [3][3]float64
	for i := range 3 {
		for j := range 3 {
			r[j][i] = c[i][j] / s[i]
		}
	}
	deg := func(rad float64) float32 {
		d := rad * 180 / math.Pi
		if d <= -180 {
			d += 360
		}
		return float32(d) + 0 // no -0 in files
	}
	sx := math.Max(-1, math.Min(1, -r[1][2]))
	var x, y, z float64
	x = math.Asin(sx)
	switch {
	case math.Abs(sx) < 0.9999999:
		y = math.Atan2(r[0][2], r[2][2])
		z = math.Atan2(r[1][0], r[1][1])
	case sx > 0: // gimbal lock: only y-z is defined; put it all in y
		y = math.Atan2(r[0][1], r[0][0])
	default:
		y = math.Atan2(-r[0][1], r[0][0])
	}
	return ecs.Transform{
		Position: mgl32.Vec3{m[12] + 0, m[13] + 0, m[14] + 0},
		Rotation: mgl32.Vec3{deg(x), deg(y), deg(z)},
		Scale:    mgl32.Vec3{float32(s[0]), float32(s[1]), float32(s[2])},
	}, true
}

// keepWorld returns the Transform changes that keep the world matrices of es (moving under
// parent) as they are now.
func (d *Document) keepWorld(parent ecs.Entity, es []ecs.Entity) []compChange {
	w := d.world
	tr, _ := ecs.ComponentIDOf[ecs.Transform](w)
	inv := mgl32.Ident4()
	if !parent.IsZero() {
		inv = w.WorldMatrix(parent).Inv()
	}
	var out []compChange
	for _, e := range es {
		cur := d.state(e, tr)
		if !cur.has {
			continue
		}
		t, ok := decompose(inv.Mul4(w.WorldMatrix(e)))
		if !ok || !finite32(t) {
			continue
		}
		after := compState{has: true, val: d.own(tr, t)}
		if !sameVal(cur.val, after.val) {
			out = append(out, compChange{id: d.idOf(e), cid: tr, before: cur, after: after})
		}
	}
	return out
}

func finite32(t ecs.Transform) bool {
	for _, v := range []mgl32.Vec3{t.Position, t.Rotation, t.Scale} {
		for _, f := range v {
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				return false
			}
		}
	}
	return true
}
