package ecs_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

func nearMat(a, b mgl32.Mat4, eps float32) bool {
	for i := range a {
		if d := a[i] - b[i]; d > eps || d < -eps {
			return false
		}
	}
	return true
}

// noNegZero fails if any component of t is -0.
func noNegZero(t *testing.T, what string, tr ecs.Transform) {
	t.Helper()
	for _, v := range []mgl32.Vec3{tr.Position, tr.Rotation, tr.Scale} {
		for _, f := range v {
			if f == 0 && math.Signbit(float64(f)) {
				t.Fatalf("%s: %v holds -0", what, tr)
			}
		}
	}
}

func TestTransformFromMatrixInvertsMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	r := func(lo, hi float64) float32 { return float32(lo + rng.Float64()*(hi-lo)) }
	for range 2000 {
		tr := ecs.Transform{
			Position: mgl32.Vec3{r(-10, 10), r(-10, 10), r(-10, 10)},
			Rotation: mgl32.Vec3{r(-89, 89), r(-179, 179), r(-179, 179)},
			Scale:    mgl32.Vec3{r(0.1, 3), r(0.1, 3), r(0.1, 3)},
		}
		got, ok := ecs.TransformFromMatrix(tr.Matrix(), mgl32.Vec3{})
		if !ok || !nearMat(got.Matrix(), tr.Matrix(), 1e-4) {
			t.Fatalf("TransformFromMatrix(%v) = %v", tr, got)
		}
		if !got.Position.ApproxEqualThreshold(tr.Position, 1e-4) || !got.Scale.ApproxEqualThreshold(tr.Scale, 1e-4) {
			t.Fatalf("%v: position or scale %v", tr, got)
		}
		// Near its own angles, a rotation comes back as itself (any angles, even outside ±180).
		wild := tr
		wild.Rotation = mgl32.Vec3{r(-400, 400), r(-400, 400), r(-400, 400)}
		if got, ok := ecs.TransformFromMatrix(wild.Matrix(), wild.Rotation); !ok ||
			!got.Rotation.ApproxEqualThreshold(wild.Rotation, 0.05) {
			t.Fatalf("near %v: got %v", wild.Rotation, got.Rotation)
		}
		noNegZero(t, "random", got)
	}
}

func TestTransformFromMatrixPlainAngles(t *testing.T) {
	for _, c := range []struct{ rot, want mgl32.Vec3 }{
		{mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 0, 0}},
		{mgl32.Vec3{30, 45, 60}, mgl32.Vec3{30, 45, 60}},
		{mgl32.Vec3{0, 180, 0}, mgl32.Vec3{0, 180, 0}},
		{mgl32.Vec3{0, -180, 0}, mgl32.Vec3{0, 180, 0}}, // (-180, 180]
		{mgl32.Vec3{0, 270, 0}, mgl32.Vec3{0, -90, 0}},
		{mgl32.Vec3{-30, 0, 0}, mgl32.Vec3{-30, 0, 0}},
	} {
		got, ok := ecs.TransformFromMatrix(ecs.Transform{Rotation: c.rot, Scale: mgl32.Vec3{1, 1, 1}}.Matrix(), mgl32.Vec3{})
		if !ok || !got.Rotation.ApproxEqualThreshold(c.want, 1e-3) {
			t.Errorf("rotation %v: got %v, want %v", c.rot, got.Rotation, c.want)
		}
	}
}

// A turn across ±180° stays continuous when the previous angles are given.
func TestTransformFromMatrixNearKeepsAnglesContinuous(t *testing.T) {
	m := ecs.Transform{Rotation: mgl32.Vec3{0, 185, 0}, Scale: mgl32.Vec3{1, 1, 1}}.Matrix()
	got, _ := ecs.TransformFromMatrix(m, mgl32.Vec3{0, 175, 0})
	if !got.Rotation.ApproxEqualThreshold(mgl32.Vec3{0, 185, 0}, 1e-3) {
		t.Fatalf("got %v, want yaw 185", got.Rotation)
	}
	// X beyond 90° is the other triple of the same rotation: near it, it comes back as it was.
	m = ecs.Transform{Rotation: mgl32.Vec3{120, 10, 0}, Scale: mgl32.Vec3{1, 1, 1}}.Matrix()
	if got, _ := ecs.TransformFromMatrix(m, mgl32.Vec3{118, 10, 0}); !got.Rotation.ApproxEqualThreshold(mgl32.Vec3{120, 10, 0}, 1e-3) {
		t.Fatalf("got %v, want [120 10 0]", got.Rotation)
	}
	// Near the other triple, that one.
	if got, _ := ecs.TransformFromMatrix(m, mgl32.Vec3{60, -170, 170}); !got.Rotation.ApproxEqualThreshold(mgl32.Vec3{60, -170, 180}, 1e-3) ||
		!nearMat(got.Matrix(), m, 1e-5) {
		t.Fatalf("got %v, want [60 -170 180]", got.Rotation)
	}
}

func TestTransformFromMatrixGimbalLock(t *testing.T) {
	for _, x := range []float32{90, -90, 89.9999, -89.99999} {
		for _, yz := range [][2]float32{{0, 0}, {20, 30}, {-170, 45}, {90, -90}, {179, 179}} {
			tr := ecs.Transform{Position: mgl32.Vec3{1, 2, 3}, Rotation: mgl32.Vec3{x, yz[0], yz[1]}, Scale: mgl32.Vec3{2, 1, 0.5}}
			m := tr.Matrix()
			for _, near := range []mgl32.Vec3{{}, tr.Rotation} {
				got, ok := ecs.TransformFromMatrix(m, near)
				if !ok || !nearMat(got.Matrix(), m, 1e-4) {
					t.Fatalf("%v near %v: got %v, which rebuilds another matrix", tr.Rotation, near, got)
				}
				noNegZero(t, "gimbal lock", got)
			}
			// Near its own angles, the locked rotation keeps Z and finds Y.
			if got, _ := ecs.TransformFromMatrix(m, tr.Rotation); !got.Rotation.ApproxEqualThreshold(tr.Rotation, 0.05) {
				t.Fatalf("%v: got %v", tr.Rotation, got.Rotation)
			}
		}
	}
}

// No -0 comes out, whatever zeros the matrix holds (a move-only gizmo drag wrote "rotation":[-0,0,0]).
func TestTransformFromMatrixNeverNegativeZero(t *testing.T) {
	nz := float32(math.Copysign(0, -1))
	ms := []mgl32.Mat4{
		mgl32.Ident4(),
		{1, nz, nz, 0, nz, 1, nz, 0, nz, nz, 1, 0, nz, nz, nz, 1},
		mgl32.Translate3D(3, 0, 0).Mul4(mgl32.Ident4()),
		mgl32.Translate3D(0, -1, 0).Mul4(mgl32.Scale3D(1, 1, 1)),
		mgl32.HomogRotate3DY(0).Mul4(mgl32.HomogRotate3DX(0)),
		mgl32.HomogRotate3DY(math.Pi),
		mgl32.HomogRotate3DX(math.Pi),
		mgl32.HomogRotate3DZ(-math.Pi),
		mgl32.HomogRotate3DX(math.Pi / 2),
		mgl32.HomogRotate3DX(-math.Pi / 2),
		mgl32.Translate3D(nz, nz, nz).Mul4(mgl32.HomogRotate3DY(-1e-9)),
	}
	for i, m := range ms {
		for _, near := range []mgl32.Vec3{{}, {nz, nz, nz}, {0, 360, 0}, {-180, 0, -180}} {
			got, ok := ecs.TransformFromMatrix(m, near)
			if !ok || !nearMat(got.Matrix(), m, 1e-5) {
				t.Fatalf("matrix %d near %v: %v", i, near, got)
			}
			noNegZero(t, "matrix", got)
		}
	}
}

func TestTransformFromMatrixRefusesDegenerate(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	for _, m := range []mgl32.Mat4{
		ecs.Transform{}.Matrix(), // zero scale
		ecs.Transform{Scale: mgl32.Vec3{1, 0, 1}}.Matrix(),
		ecs.Transform{Scale: mgl32.Vec3{1, 1, nan}}.Matrix(),
		ecs.Transform{Scale: mgl32.Vec3{inf, 1, 1}}.Matrix(),
		mgl32.Translate3D(nan, 0, 0),
		mgl32.Translate3D(0, 0, -inf),
	} {
		if got, ok := ecs.TransformFromMatrix(m, mgl32.Vec3{}); ok {
			t.Errorf("%v: decomposed into %v", m, got)
		}
	}
}

// A mirroring matrix comes back with a negative X scale and the same matrix.
func TestTransformFromMatrixMirror(t *testing.T) {
	m := ecs.Transform{Rotation: mgl32.Vec3{0, 30, 0}, Scale: mgl32.Vec3{1, -2, 1}}.Matrix()
	if got, ok := ecs.TransformFromMatrix(m, mgl32.Vec3{}); !ok || !nearMat(got.Matrix(), m, 1e-5) || got.Scale[0] > 0 {
		t.Fatalf("mirrored: %v", got)
	}
}

// TestUnrotatedMatrixIsTheProduct: Matrix is, bit for bit (the signs of zeros too), the product T·Ry·Rx·Rz·S
// for every transform — the unrotated ones it builds without multiplying included: ±0 angles, -0 and tiny or huge
// positions and scales, negative scales, and the values that take the product (infinities, NaN, zero scales).
func TestUnrotatedMatrixIsTheProduct(t *testing.T) {
	product := func(tr ecs.Transform) mgl32.Mat4 {
		m := mgl32.Translate3D(tr.Position[0], tr.Position[1], tr.Position[2])
		m = m.Mul4(mgl32.HomogRotate3DY(mgl32.DegToRad(tr.Rotation[1])))
		m = m.Mul4(mgl32.HomogRotate3DX(mgl32.DegToRad(tr.Rotation[0])))
		m = m.Mul4(mgl32.HomogRotate3DZ(mgl32.DegToRad(tr.Rotation[2])))
		return m.Mul4(mgl32.Scale3D(tr.Scale[0], tr.Scale[1], tr.Scale[2]))
	}
	negZero := float32(math.Copysign(0, -1))
	inf := float32(math.Inf(1))
	values := []float32{0, negZero, 1, -1, 0.5, -2.75, 1e-42, -1e-42, 3e38, -3e38, 123456.7, inf, -inf, float32(math.NaN())}
	angles := []float32{0, negZero, 90, -30}
	r := rand.New(rand.NewPCG(3, 5))
	pick := func(vs []float32) float32 {
		if r.IntN(4) == 0 {
			return (r.Float32() - 0.5) * 200
		}
		return vs[r.IntN(len(vs))]
	}
	for range 20000 {
		var tr ecs.Transform
		for i := range 3 {
			tr.Position[i], tr.Scale[i] = pick(values), pick(values)
			tr.Rotation[i] = angles[r.IntN(len(angles))]
			if r.IntN(2) == 0 {
				tr.Rotation[i] = []float32{0, negZero}[r.IntN(2)]
			}
		}
		got, want := tr.Matrix(), product(tr)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
				t.Fatalf("%+v: element %d is %v (bits %#x), the product's %v (%#x)", tr, i, got[i],
					math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
}
