package viewport

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestDecomposeTRSRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct{ pos, rot, scale mgl32.Vec3 }{
		{mgl32.Vec3{1, 2, 3}, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1, 1, 1}},
		{mgl32.Vec3{0, 0, 0}, mgl32.Vec3{30, 45, 60}, mgl32.Vec3{2, 3, 4}},
		{mgl32.Vec3{-5, 0, 9}, mgl32.Vec3{-80, 170, -10}, mgl32.Vec3{0.5, 1, 2}},
	}
	for range 200 {
		f := func(lo, hi float32) float32 { return lo + (hi-lo)*rng.Float32() }
		cases = append(cases, struct{ pos, rot, scale mgl32.Vec3 }{
			mgl32.Vec3{f(-50, 50), f(-50, 50), f(-50, 50)},
			mgl32.Vec3{f(-89, 89), f(-179, 179), f(-179, 179)},
			mgl32.Vec3{f(0.1, 5), f(0.1, 5), f(0.1, 5)},
		})
	}
	for _, c := range cases {
		m := ComposeTRS(c.pos, c.rot, c.scale)
		pos, rot, scale := DecomposeTRS(m)
		if !pos.ApproxEqualThreshold(c.pos, 1e-3) || !scale.ApproxEqualThreshold(c.scale, 1e-3) {
			t.Fatalf("%+v: got pos %v scale %v", c, pos, scale)
		}
		// Angles may differ in representation; the matrices must agree.
		if m2 := ComposeTRS(pos, rot, scale); !m2.ApproxEqualThreshold(m, 1e-3) {
			t.Fatalf("%+v: rotation %v rebuilds %v, want %v", c, rot, m2, m)
		}
		if !rot.ApproxEqualThreshold(c.rot, 0.05) {
			t.Fatalf("%+v: rotation %v", c, rot)
		}
	}
}

func TestDecomposeGimbalLock(t *testing.T) {
	m := ComposeTRS(mgl32.Vec3{}, mgl32.Vec3{90, 20, 0}, mgl32.Vec3{1, 1, 1})
	_, rot, _ := DecomposeTRS(m)
	if m2 := ComposeTRS(mgl32.Vec3{}, rot, mgl32.Vec3{1, 1, 1}); !m2.ApproxEqualThreshold(m, 1e-3) {
		t.Fatalf("gimbal lock: %v rebuilds a different matrix", rot)
	}
}

func TestCameraWithViewKeepsView(t *testing.T) {
	for _, c := range []Camera{DefaultCamera(), {Pivot: mgl32.Vec3{3, 1, -2}, Yaw: -120, Pitch: 40, Distance: 12, FovY: 60, Near: 0.1, Far: 100}} {
		// Start from another camera: the result must look from c's eye in c's direction.
		got := DefaultCamera().WithView(c.View())
		if !got.Forward().ApproxEqualThreshold(c.Forward(), 1e-4) {
			t.Fatalf("forward %v, want %v", got.Forward(), c.Forward())
		}
		if !got.Eye().ApproxEqualThreshold(c.Eye(), 1e-2) {
			t.Fatalf("eye %v, want %v", got.Eye(), c.Eye())
		}
		if got.Distance != DefaultCamera().Distance {
			t.Fatalf("distance changed to %v", got.Distance)
		}
	}
}
