package assets

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// checkOutwardCCW asserts that every triangle of a convex mesh centred on the origin is
// counter-clockwise seen from outside: its geometric normal points away from the origin and
// agrees with its vertex normals. No triangle may be degenerate.
func checkOutwardCCW(t *testing.T, m *Mesh) {
	t.Helper()
	for tri := range m.TriangleCount() {
		i := m.Indices[tri*3 : tri*3+3]
		a, b, c := m.Position(int(i[0])), m.Position(int(i[1])), m.Position(int(i[2]))
		n := b.Sub(a).Cross(c.Sub(a))
		if n.Len() < 1e-7 {
			t.Fatalf("%s: triangle %d is degenerate: %v %v %v", m.Ref, tri, a, b, c)
		}
		centroid := a.Add(b).Add(c).Mul(1.0 / 3)
		if n.Dot(centroid) <= 0 {
			t.Fatalf("%s: triangle %d faces inwards (clockwise from outside)", m.Ref, tri)
		}
		for _, k := range i {
			if n.Dot(m.Normal(int(k))) <= 0 {
				t.Fatalf("%s: triangle %d winding disagrees with the normal of vertex %d", m.Ref, tri, k)
			}
		}
	}
}

func checkUnitNormalsAndUVs(t *testing.T, m *Mesh) {
	t.Helper()
	for i := range m.VertexCount() {
		if l := m.Normal(i).Len(); math.Abs(float64(l)-1) > 1e-5 {
			t.Fatalf("%s: normal %d has length %v", m.Ref, i, l)
		}
		uv := m.UV(i)
		if uv[0] < 0 || uv[0] > 1 || uv[1] < 0 || uv[1] > 1 {
			t.Fatalf("%s: uv %d = %v outside 0..1", m.Ref, i, uv)
		}
	}
}

func TestBuiltinCube(t *testing.T) {
	m, ok := Builtin(BuiltinCube)
	if !ok {
		t.Fatal("no builtin:cube")
	}
	if m.VertexCount() != 24 || m.TriangleCount() != 12 {
		t.Fatalf("cube has %d vertices %d triangles, want 24 and 12", m.VertexCount(), m.TriangleCount())
	}
	if m.Min != (mgl32.Vec3{-0.5, -0.5, -0.5}) || m.Max != (mgl32.Vec3{0.5, 0.5, 0.5}) {
		t.Errorf("bounds %v..%v", m.Min, m.Max)
	}
	checkMesh(t, m)
	checkOutwardCCW(t, m)
	checkUnitNormalsAndUVs(t, m)
	// Per-face normals: each axis direction on exactly 4 vertices, all on that face's plane.
	count := map[mgl32.Vec3]int{}
	for i := range 24 {
		n := m.Normal(i)
		count[n]++
		if m.Position(i).Dot(n) != 0.5 {
			t.Errorf("vertex %d %v is not on the face with normal %v", i, m.Position(i), n)
		}
	}
	if len(count) != 6 {
		t.Errorf("%d distinct normals, want 6: %v", len(count), count)
	}
	for n, c := range count {
		if c != 4 {
			t.Errorf("normal %v on %d vertices, want 4", n, c)
		}
	}
}

func TestBuiltinPlane(t *testing.T) {
	m, _ := Builtin(BuiltinPlane)
	if m.VertexCount() != 4 || m.TriangleCount() != 2 {
		t.Fatalf("plane has %d vertices %d triangles", m.VertexCount(), m.TriangleCount())
	}
	if m.Min != (mgl32.Vec3{-0.5, 0, -0.5}) || m.Max != (mgl32.Vec3{0.5, 0, 0.5}) {
		t.Errorf("bounds %v..%v", m.Min, m.Max)
	}
	checkMesh(t, m)
	checkUnitNormalsAndUVs(t, m)
	for tri := range 2 {
		i := m.Indices[tri*3:]
		a, b, c := m.Position(int(i[0])), m.Position(int(i[1])), m.Position(int(i[2]))
		if n := b.Sub(a).Cross(c.Sub(a)); n.Y() <= 0 {
			t.Errorf("triangle %d faces %v, want +Y", tri, n)
		}
	}
	for i := range 4 {
		if m.Normal(i) != (mgl32.Vec3{0, 1, 0}) {
			t.Errorf("normal %d = %v", i, m.Normal(i))
		}
	}
}

func TestBuiltinSphere(t *testing.T) {
	m, _ := Builtin(BuiltinSphere)
	wantV := (SphereSlices + 1) * (SphereStacks + 1)
	wantT := 2 * SphereSlices * (SphereStacks - 1)
	if m.VertexCount() != wantV || m.TriangleCount() != wantT {
		t.Fatalf("sphere has %d vertices %d triangles, want %d and %d", m.VertexCount(), m.TriangleCount(), wantV, wantT)
	}
	checkMesh(t, m)
	checkOutwardCCW(t, m)
	checkUnitNormalsAndUVs(t, m)
	for i := range m.VertexCount() {
		p := m.Position(i)
		if math.Abs(float64(p.Len())-0.5) > 1e-6 || !p.Mul(2).ApproxEqualThreshold(m.Normal(i), 1e-6) {
			t.Fatalf("vertex %d at %v (normal %v) is not on the radius-0.5 sphere", i, p, m.Normal(i))
		}
	}
	if !m.Min.ApproxEqual(mgl32.Vec3{-0.5, -0.5, -0.5}) || !m.Max.ApproxEqual(mgl32.Vec3{0.5, 0.5, 0.5}) {
		t.Errorf("bounds %v..%v", m.Min, m.Max)
	}
}

func TestPlaceholder(t *testing.T) {
	m := Placeholder()
	if !m.Placeholder || m.VertexCount() != 24 || m.TriangleCount() != 8 {
		t.Fatalf("placeholder: flag %v, %d vertices, %d triangles", m.Placeholder, m.VertexCount(), m.TriangleCount())
	}
	checkMesh(t, m)
	checkOutwardCCW(t, m)
	checkUnitNormalsAndUVs(t, m)
	if m.Radius() != float32(math.Sqrt(3)/2) || m.Center() != (mgl32.Vec3{}) {
		t.Errorf("center %v radius %v", m.Center(), m.Radius())
	}
}

func TestBuiltinRefs(t *testing.T) {
	got := BuiltinRefs()
	want := []string{BuiltinCube, BuiltinPlane, BuiltinSphere}
	if len(got) != len(want) {
		t.Fatalf("BuiltinRefs() = %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("BuiltinRefs() = %v, want %v", got, want)
		}
		if m, _ := Builtin(want[i]); m.Ref != want[i] || m.Version != 1 || m.Placeholder {
			t.Errorf("%s: ref %q version %d placeholder %v", want[i], m.Ref, m.Version, m.Placeholder)
		}
	}
	if _, ok := Builtin("builtin:teapot"); ok {
		t.Error("unknown builtin found")
	}
}
