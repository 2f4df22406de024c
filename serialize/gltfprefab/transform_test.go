package gltfprefab

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// TestTransformOfRebuildsTheMatrix: the Transform made from a node's matrix (any rotation, scales
// of either sign, the gimbal poles) gives that matrix back, and only a shearing matrix is
// reported as one.
func TestTransformOfRebuildsTheMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		q := mgl32.Quat{W: rng.Float32()*2 - 1, V: mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}}.Normalize()
		switch i {
		case 0:
			q = mgl32.QuatRotate(mgl32.DegToRad(90), mgl32.Vec3{1, 0, 0}).Mul(mgl32.QuatRotate(0.3, mgl32.Vec3{0, 0, 1}))
		case 1:
			q = mgl32.QuatRotate(0.7, mgl32.Vec3{0, 1, 0}).Mul(mgl32.QuatRotate(mgl32.DegToRad(-90), mgl32.Vec3{1, 0, 0}))
		}
		s := mgl32.Vec3{0.1 + rng.Float32()*3, 0.1 + rng.Float32()*3, 0.1 + rng.Float32()*3}
		if i%3 == 0 {
			s[1] = -s[1]
		}
		m := mgl32.Translate3D(rng.Float32()*10, -3, 2).Mul4(q.Mat4()).Mul4(mgl32.Scale3D(s[0], s[1], s[2]))
		tr, sheared := transformOf(m)
		if sheared {
			t.Fatalf("case %d: a rotation and scale reported as shear", i)
		}
		if got := tr.Matrix(); !sameMatrix(got, m) {
			t.Fatalf("case %d: %v\nrebuilt %v\nfrom %+v", i, m, got, tr)
		}
	}
	shear := mgl32.Ident4()
	shear.Set(0, 1, 0.5)
	if _, sheared := transformOf(shear); !sheared {
		t.Error("a shear is not reported")
	}
}

func sameMatrix(a, b mgl32.Mat4) bool {
	for i := range a {
		if d := a[i] - b[i]; d > 1e-4 || d < -1e-4 {
			return false
		}
	}
	return true
}
