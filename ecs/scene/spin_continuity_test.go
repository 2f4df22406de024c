package scene

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// TestRotateIsContinuous: a spin turns the Euler angles a little each step — across X = ±90° too, where a plain
// decomposition jumps to the other triple of the rotation (Y and Z by 180°, so the Inspector's rotation would leap
// while the entity turns smoothly) — and never gives -0.
func TestRotateIsContinuous(t *testing.T) {
	for _, c := range []struct{ start, axis mgl32.Vec3 }{
		{mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1, 0, 0}},
		{mgl32.Vec3{0, 30, 0}, mgl32.Vec3{1, 0, 0}},
		{mgl32.Vec3{10, 20, 30}, mgl32.Vec3{0.3, 0.2, 1}},
	} {
		e := c.start
		for i := range 720 {
			next := Rotate(e, c.axis, 1)
			for k := range 3 {
				if d := math.Abs(wrapDeg(float64(next[k] - e[k]))); d > 3 {
					t.Fatalf("spin about %v from %v, step %d: %v → %v (angle %d jumps %.1f°)", c.axis, c.start, i, e, next, k, d)
				}
				if next[k] == 0 && math.Signbit(float64(next[k])) || next[k] <= -180 || next[k] > 180 {
					t.Fatalf("step %d: %v (each angle in (-180, 180], no -0)", i, next)
				}
			}
			e = next
		}
	}
}
