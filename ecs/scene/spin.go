package scene

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// Time is the world resource that play mode sets before each Update: Delta
// is the simulated time since the previous frame, in seconds.
type Time struct {
	Delta   float32
	Elapsed float64 // total simulated seconds since play started
}

// SpinSystemName is the name of the system [SpinSystem] returns.
const SpinSystemName = "scene.Spin"

// SpinSystem returns the play-mode system that turns every entity with a
// [Spin] and a Transform by Spin.Speed·Time.Delta degrees about Spin.Axis
// (see [ApplySpin]). It reads the [Time] resource; with no Time resource it
// does nothing.
func SpinSystem(w *ecs.World) ecs.System {
	q := ecs.NewQuery2[ecs.Transform, Spin](w, ecs.Read[Spin]())
	return ecs.System{
		Name:   SpinSystemName,
		Access: ecs.ReadsResource[Time](q.Access()),
		Run: func(w *ecs.World, _ *ecs.Commands) {
			if t := ecs.Resource[Time](w); t != nil && t.Delta != 0 {
				spinQuery(q, t.Delta)
			}
		},
	}
}

// ApplySpin turns every entity with a [Spin] and a Transform by dt seconds
// of its spin, outside any schedule (tools and tests).
func ApplySpin(w *ecs.World, dt float32) {
	spinQuery(ecs.NewQuery2[ecs.Transform, Spin](w, ecs.Read[Spin]()), dt)
}

func spinQuery(q *ecs.Query2[ecs.Transform, Spin], dt float32) {
	q.Each(func(_ ecs.Entity, t *ecs.Transform, s *Spin) {
		t.Rotation = Rotate(t.Rotation, s.Axis, s.Speed*dt)
	})
}

// Rotate returns the Euler angles (degrees, applied as Ry·Rx·Rz) of the
// rotation euler followed by a turn of deg degrees about axis (in the parent's
// space). Each angle of the result is in (-180, 180]. A zero axis leaves
// euler unchanged. Turning about +Y an orientation that has no X or Z
// rotation only changes Y, exactly.
func Rotate(euler, axis mgl32.Vec3, deg float32) mgl32.Vec3 {
	l := axis.Len()
	if l == 0 || deg == 0 || math.IsNaN(float64(l)) {
		return euler
	}
	if euler[0] == 0 && euler[2] == 0 && axis[0] == 0 && axis[2] == 0 {
		y := float64(euler[1]) + float64(deg)*math.Copysign(1, float64(axis[1]))
		return mgl32.Vec3{0, float32(wrapDeg(y)), 0}
	}
	r := mulMat(axisAngle(axis, float64(deg)), eulerMat(euler))
	return matEuler(r)
}

type mat3 [3][3]float64 // [row][col]

func rad(d float64) float64 { return d * math.Pi / 180 }

// eulerMat returns Ry(y)·Rx(x)·Rz(z).
func eulerMat(e mgl32.Vec3) mat3 {
	sx, cx := math.Sincos(rad(float64(e[0])))
	sy, cy := math.Sincos(rad(float64(e[1])))
	sz, cz := math.Sincos(rad(float64(e[2])))
	return mat3{
		{cy*cz + sy*sx*sz, -cy*sz + sy*sx*cz, sy * cx},
		{cx * sz, cx * cz, -sx},
		{-sy*cz + cy*sx*sz, sy*sz + cy*sx*cz, cy * cx},
	}
}

// matEuler inverts eulerMat.
func matEuler(m mat3) mgl32.Vec3 {
	sx := math.Max(-1, math.Min(1, -m[1][2]))
	x := math.Asin(sx)
	var y, z float64
	if math.Abs(sx) < 0.9999999 {
		y = math.Atan2(m[0][2], m[2][2])
		z = math.Atan2(m[1][0], m[1][1])
	} else if sx > 0 { // gimbal lock: only y-z is defined; put it all in y
		y = math.Atan2(m[0][1], m[0][0])
	} else {
		y = math.Atan2(-m[0][1], m[0][0])
	}
	deg := func(r float64) float32 { return float32(wrapDeg(r * 180 / math.Pi)) }
	return mgl32.Vec3{deg(x), deg(y), deg(z)}
}

// axisAngle returns the rotation by deg degrees about axis (right-handed).
func axisAngle(axis mgl32.Vec3, deg float64) mat3 {
	x, y, z := float64(axis[0]), float64(axis[1]), float64(axis[2])
	l := math.Sqrt(x*x + y*y + z*z)
	x, y, z = x/l, y/l, z/l
	s, c := math.Sincos(rad(deg))
	t := 1 - c
	return mat3{
		{t*x*x + c, t*x*y - s*z, t*x*z + s*y},
		{t*x*y + s*z, t*y*y + c, t*y*z - s*x},
		{t*x*z - s*y, t*y*z + s*x, t*z*z + c},
	}
}

func mulMat(a, b mat3) mat3 {
	var r mat3
	for i := range 3 {
		for j := range 3 {
			r[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j] + a[i][2]*b[2][j]
		}
	}
	return r
}

// wrapDeg maps an angle in degrees into (-180, 180].
func wrapDeg(d float64) float64 {
	d = math.Mod(d, 360)
	switch {
	case d > 180:
		d -= 360
	case d <= -180:
		d += 360
	}
	return d
}
