package snap

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/viewport"
)

// OnSurface returns the world matrix from turned so that its up axis (its local +Y) points along normal, by the
// least rotation, and moved so that the bottom of box (its local bounds; its origin when empty) touches point:
// what stands a moved, dropped or placed thing on the surface at point. A zero normal or a degenerate from keeps
// from's turn.
func OnSurface(from mgl32.Mat4, box viewport.AABB, point, normal mgl32.Vec3) mgl32.Mat4 {
	up := from.Mul4x1(mgl32.Vec4{0, 1, 0, 0}).Vec3()
	linear := from.Mat3().Mat4()
	if up.Len() > 0 && normal.Len() > 0 {
		linear = turn(up.Normalize(), normal.Normalize()).Mat4().Mul4(linear)
	}
	var bottom float32
	if !box.IsEmpty() {
		bottom = box.Min[1]
	}
	// the origin sits above the point by the bottom's distance below the origin, along the turned up axis
	pos := point.Sub(linear.Mul4x1(mgl32.Vec4{0, bottom, 0, 0}).Vec3())
	linear.SetCol(3, pos.Vec4(1))
	return linear
}

// turn is a least rotation taking unit vector a to unit vector b. mgl32.QuatBetweenVectors answers a half-turn
// that takes a to -a, not to b, whenever b is within about 2.5° of -a; so for nearly opposite vectors the
// half-turn (about an axis square to a) comes first and the small rest after it.
func turn(a, b mgl32.Vec3) mgl32.Quat {
	if a.Dot(b) > -0.9 {
		return mgl32.QuatBetweenVectors(a, b)
	}
	half := mgl32.QuatRotate(math.Pi, square(a))
	return mgl32.QuatBetweenVectors(a.Mul(-1), b).Mul(half)
}

// square returns a unit vector square to unit vector a: a crossed with the world axis least along it.
func square(a mgl32.Vec3) mgl32.Vec3 {
	i := 0
	for j := 1; j < 3; j++ {
		if math.Abs(float64(a[j])) < math.Abs(float64(a[i])) {
			i = j
		}
	}
	var e mgl32.Vec3
	e[i] = 1
	return a.Cross(e).Normalize()
}
