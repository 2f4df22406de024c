package snap

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/viewport"
)

// TestOnSurfaceTurnsUpToTheNormal: for normals all round — up, straight down, within a degree of down, tilted,
// level — the placed thing's up axis is the normal, its turn is a rotation (no scale or mirror added), and the
// bottom of its box touches the point.
func TestOnSurfaceTurnsUpToTheNormal(t *testing.T) {
	box := viewport.AABB{Min: mgl32.Vec3{-0.5, -0.25, -0.5}, Max: mgl32.Vec3{0.5, 0.75, 0.5}}
	point := mgl32.Vec3{3, 1, -2}
	normals := []mgl32.Vec3{
		{0, 1, 0}, {0, -1, 0}, {0.01, -1, 0}, {0, -1, -0.03}, {-0.02, -1, 0.01}, {1, 0, 0}, {0, 0, -1},
		{-1, 0, 0}, {1, 1, 0}, {0, 1, 1}, {-1, -1, 1}, {0.3, -1, 0.2},
	}
	froms := map[string]mgl32.Mat4{
		"unturned": mgl32.Ident4(),
		"turned and scaled": mgl32.Translate3D(5, 6, 7).Mul4(mgl32.HomogRotate3DY(0.7)).Mul4(mgl32.HomogRotate3DX(-0.4)).
			Mul4(mgl32.Scale3D(2, 0.5, 1.5)),
	}
	for name, from := range froms {
		for _, n := range normals {
			n = n.Normalize()
			m := OnSurface(from, box, point, n)
			if up := m.Mul4x1(mgl32.Vec4{0, 1, 0, 0}).Vec3().Normalize(); up.Sub(n).Len() > 1e-5 {
				t.Errorf("%s on normal %v: up axis %v", name, n, up)
			}
			turned := m.Mat3().Mul3(from.Mat3().Inv())
			if d := turned.Mul3(turned.Transpose()).Sub(mgl32.Ident3()); maxAbs(d[:]) > 1e-5 || turned.Det() < 0.9999 {
				t.Errorf("%s on normal %v: the turn %v is no rotation", name, n, turned)
			}
			if bottom := m.Mul4x1(mgl32.Vec4{0, box.Min[1], 0, 1}).Vec3(); bottom.Sub(point).Len() > 1e-5 {
				t.Errorf("%s on normal %v: the bottom's middle at %v, want on %v", name, n, bottom, point)
			}
		}
	}
}

// TestOnSurfaceUpIsNoTurn: on a level floor an upright thing is not turned at all (a placed entity's rotation
// stays exactly zero), a tilted one is turned the least (about the horizontal axis square to the tilt), and
// without a mesh its origin goes on the point.
func TestOnSurfaceUpIsNoTurn(t *testing.T) {
	m := OnSurface(mgl32.Ident4(), viewport.AABB{Min: mgl32.Vec3{-1, -1, -1}, Max: mgl32.Vec3{1, 1, 1}}, mgl32.Vec3{1, 2, 3}, mgl32.Vec3{0, 1, 0})
	if m != mgl32.Translate3D(1, 3, 3) {
		t.Fatalf("on a level floor: %v", m)
	}
	s := float32(math.Sqrt(0.5))
	m = OnSurface(mgl32.Ident4(), viewport.EmptyAABB(), mgl32.Vec3{}, mgl32.Vec3{s, s, 0})
	if z := m.Mul4x1(mgl32.Vec4{0, 0, 1, 0}).Vec3(); z.Sub(mgl32.Vec3{0, 0, 1}).Len() > 1e-6 {
		t.Fatalf("tilted 45° about Z: its Z axis moved to %v", z)
	}
	if m := OnSurface(mgl32.Scale3D(2, 2, 2), viewport.EmptyAABB(), mgl32.Vec3{1, 2, 3}, mgl32.Vec3{0, 0, 1}); m.Col(3).Vec3() != (mgl32.Vec3{1, 2, 3}) {
		t.Fatalf("without a mesh the origin goes on the point: %v", m.Col(3))
	}
}

func maxAbs(fs []float32) float32 {
	var m float32
	for _, f := range fs {
		m = max(m, float32(math.Abs(float64(f))))
	}
	return m
}
