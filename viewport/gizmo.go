package viewport

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// DecomposeTRS splits a matrix built as T·Ry·Rx·Rz·S (ecs.Transform's convention) back into its translation,
// Euler rotation in degrees (x, y, z) and scale — what a gizmo drag needs to write a Transform. Shear is
// ignored; a negative determinant is given to the X scale. A zero scale axis leaves that rotation at 0.
func DecomposeTRS(m mgl32.Mat4) (pos, rotDeg, scale mgl32.Vec3) {
	pos = m.Col(3).Vec3()
	c0, c1, c2 := m.Col(0).Vec3(), m.Col(1).Vec3(), m.Col(2).Vec3()
	scale = mgl32.Vec3{c0.Len(), c1.Len(), c2.Len()}
	if mgl32.Mat3FromCols(c0, c1, c2).Det() < 0 {
		scale[0] = -scale[0]
	}
	for i, c := range [3]*mgl32.Vec3{&c0, &c1, &c2} {
		if scale[i] != 0 {
			*c = c.Mul(1 / scale[i])
		}
	}
	// R = Ry·Rx·Rz: R[1][2] = -sin x; R[0][2] = sin y cos x; R[2][2] = cos y cos x;
	// R[1][0] = cos x sin z; R[1][1] = cos x cos z. (R[row][col]; column j is c_j.)
	r := func(row, col int) float64 { return float64([3]mgl32.Vec3{c0, c1, c2}[col][row]) }
	sx := -r(1, 2)
	sx = math.Max(-1, math.Min(1, sx))
	x := math.Asin(sx)
	var y, z float64
	if math.Abs(sx) < 0.99999 {
		y = math.Atan2(r(0, 2), r(2, 2))
		z = math.Atan2(r(1, 0), r(1, 1))
	} else { // gimbal lock: z is folded into y
		y = math.Atan2(-r(2, 0), r(0, 0))
	}
	rotDeg = mgl32.Vec3{float32(x * 180 / math.Pi), float32(y * 180 / math.Pi), float32(z * 180 / math.Pi)}
	return pos, rotDeg, scale
}

// ComposeTRS is the inverse of DecomposeTRS: T·Ry·Rx·Rz·S.
func ComposeTRS(pos, rotDeg, scale mgl32.Vec3) mgl32.Mat4 {
	m := mgl32.Translate3D(pos[0], pos[1], pos[2])
	m = m.Mul4(mgl32.HomogRotate3DY(mgl32.DegToRad(rotDeg[1])))
	m = m.Mul4(mgl32.HomogRotate3DX(mgl32.DegToRad(rotDeg[0])))
	m = m.Mul4(mgl32.HomogRotate3DZ(mgl32.DegToRad(rotDeg[2])))
	return m.Mul4(mgl32.Scale3D(scale[0], scale[1], scale[2]))
}

// WithView returns c turned to look the way view (a world → camera matrix, e.g. changed by a view cube) looks
// from where it looks: c keeps its distance, and its pivot moves to that distance in front of view's eye. Roll in
// view is dropped (the editor camera has none).
func (c Camera) WithView(view mgl32.Mat4) Camera {
	inv := view.Inv()
	eye := inv.Col(3).Vec3()
	fwd := inv.Col(2).Vec3().Mul(-1)
	if l := fwd.Len(); l > 0 {
		fwd = fwd.Mul(1 / l)
	} else {
		return c
	}
	pitch := math.Asin(math.Max(-1, math.Min(1, float64(fwd[1]))))
	yaw := math.Atan2(-float64(fwd[0]), -float64(fwd[2]))
	c.Yaw = float32(yaw * 180 / math.Pi)
	c.Pitch = float32(pitch * 180 / math.Pi)
	c.Pivot = eye.Add(fwd.Mul(c.Distance))
	return c.Normalized()
}
