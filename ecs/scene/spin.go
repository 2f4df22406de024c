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
// space). Each angle of the result is in (-180, 180] and never -0; of the
// Euler triples of the new rotation it is the one closest to euler
// ([ecs.TransformFromMatrix], the one decomposition), so a spin changes the
// angles a little each step — across X = ±90° too. A zero axis leaves euler
// unchanged. Turning about +Y an orientation that has no X or Z rotation only
// changes Y, exactly.
func Rotate(euler, axis mgl32.Vec3, deg float32) mgl32.Vec3 {
	l := axis.Len()
	if l == 0 || deg == 0 || math.IsNaN(float64(l)) || math.IsInf(float64(l), 0) {
		return euler
	}
	if euler[0] == 0 && euler[2] == 0 && axis[0] == 0 && axis[2] == 0 {
		y := float64(euler[1]) + float64(deg)*math.Copysign(1, float64(axis[1]))
		return mgl32.Vec3{0, float32(wrapDeg(y)), 0}
	}
	// Ry·Rx·Rz (Transform.Matrix's rotation) turned about axis, as quaternions: fewer operations than matrices.
	r := mgl32.DegToRad
	q := mgl32.QuatRotate(r(deg), axis.Mul(1/l)).Mul(mgl32.AnglesToQuat(r(euler[1]), r(euler[0]), r(euler[2]), mgl32.YXZ))
	t, ok := ecs.TransformFromMatrix(q.Mat4(), euler)
	if !ok {
		return euler
	}
	a := t.Rotation
	return mgl32.Vec3{float32(wrapDeg(float64(a[0]))), float32(wrapDeg(float64(a[1]))), float32(wrapDeg(float64(a[2])))}
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
	return d + 0 // +0 turns -0 into 0
}
