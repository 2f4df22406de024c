package assets

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// meshArea is the total area of a mesh's triangles.
func meshArea(m *Mesh) float64 {
	a := 0.0
	for t := 0; t+2 < len(m.Indices); t += 3 {
		p0, p1, p2 := m.Position(int(m.Indices[t])), m.Position(int(m.Indices[t+1])), m.Position(int(m.Indices[t+2]))
		a += float64(p1.Sub(p0).Cross(p2.Sub(p0)).Len()) / 2
	}
	return a
}

// The oddities real exporters write (testdata/obj: small hand-written files with each feature),
// read as the files mean them; each was refused or silently misread before.
func TestOBJOddities(t *testing.T) {
	load := func(name string) (*Mesh, objStats, error) {
		return loadOBJ(filepath.Join("testdata", "obj", name), DefaultLimits())
	}
	// A UTF-8 byte order mark glued onto the first "v": the vertex was lost and every index
	// shifted by one, silently.
	m, st, err := load("bom.obj")
	if err != nil || st.Positions != 4 || m.Position(int(m.Indices[0])) != (mgl32.Vec3{0, 0, 0}) || m.Position(int(m.Indices[1])) != (mgl32.Vec3{1, 0, 0}) {
		t.Errorf("bom.obj: %v, %d positions, first triangle at %v", err, st.Positions, m)
	}
	// Comments after statements, line continuations, empty trailing slots, nan colours.
	for name, tris := range map[string]int{"comments.obj": 2, "continuation.obj": 2, "slots.obj": 3, "nan_colors.obj": 1} {
		m, _, err := load(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if m.TriangleCount() != tris {
			t.Errorf("%s: %d triangles, want %d", name, m.TriangleCount(), tris)
		}
		checkMesh(t, m)
	}
	if m, _, err := load("comments.obj"); err == nil && math.Abs(meshArea(m)-1) > 1e-6 {
		t.Errorf("comments.obj: area %v, want 1", meshArea(m))
	}
	// UTF-16 says so (it said "no faces").
	if _, _, err := load("utf16.obj"); err == nil || !strings.Contains(err.Error(), "utf16.obj:1:1: the file is UTF-16 text") {
		t.Errorf("utf16.obj: %v", err)
	}
	// A concave face covers its own area (a fan covered more).
	m, _, err = load("comb.obj")
	if err != nil || math.Abs(meshArea(m)-0.22) > 1e-6 || m.TriangleCount() != 10 {
		t.Errorf("comb.obj: %v, area %v (want 0.22), %d triangles", err, meshArea(m), m.TriangleCount())
	}
}

// combOBJ returns a face shaped like a comb — a spine of 1 × 0.1 and teeth teeth of W × 0.4,
// W = 1/(2·teeth-1), with gaps of W between them — in the plane through the origin spanned by u
// and v, and its area in those (u, v) units.
func combOBJ(teeth int, u, v mgl32.Vec3) (string, float64) {
	w := 1 / float64(2*teeth-1)
	corners := [][2]float64{{0, 0}, {1, 0}, {1, 0.5}}
	for j := teeth - 1; j > 0; j-- {
		corners = append(corners, [2]float64{float64(2*j) * w, 0.5}, [2]float64{float64(2*j) * w, 0.1},
			[2]float64{float64(2*j-1) * w, 0.1}, [2]float64{float64(2*j-1) * w, 0.5})
	}
	corners = append(corners, [2]float64{0, 0.5})
	var b strings.Builder
	for _, c := range corners {
		p := u.Mul(float32(c[0])).Add(v.Mul(float32(c[1])))
		fmt.Fprintf(&b, "v %g %g %g\n", p[0], p[1], p[2])
	}
	b.WriteString("f")
	for i := range corners {
		fmt.Fprintf(&b, " %d", i+1)
	}
	b.WriteString("\n")
	return b.String(), 0.1 + float64(teeth)*w*0.4
}

// Concave n-gons are ear-clipped on their own plane, so they cover their area whatever plane
// they are in and however many corners they have (a 66-corner concave face covered 3.22 units²
// instead of 0.25); faces of up to 1024 corners are read (a 936-corner face was refused).
func TestConcaveFacesCoverTheirArea(t *testing.T) {
	planes := map[string][2]mgl32.Vec3{
		"xy":      {{1, 0, 0}, {0, 1, 0}},
		"yx":      {{0, 1, 0}, {1, 0, 0}}, // facing -Z
		"xz":      {{1, 0, 0}, {0, 0, 1}},
		"tilted":  {mgl32.Vec3{1, 1, 0}.Normalize(), mgl32.Vec3{0, 0.3, 1}.Normalize()},
		"zy-back": {{0, 0, -1}, {0, 1, 0}},
	}
	for _, teeth := range []int{16, 234} { // 64 and 936 corners
		for name, uv := range planes {
			src, _ := combOBJ(teeth, uv[0], uv[1])
			m, err := ParseOBJ("comb.obj", []byte(src), Limits{})
			if err != nil {
				t.Fatalf("%d teeth, %s: %v", teeth, name, err)
			}
			u, v := uv[0], uv[1]
			scale := float64(u.Cross(v).Len()) // area factor of a non-orthogonal plane basis
			_, area := combOBJ(teeth, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0})
			if got := meshArea(m); math.Abs(got-area*scale) > 1e-4*area*scale+1e-6 {
				t.Errorf("%d teeth in %s: area %v, want %v", teeth, name, got, area*scale)
			}
			corners := 4 * teeth
			if m.TriangleCount() != corners-2 {
				t.Errorf("%d corners: %d triangles", corners, m.TriangleCount())
			}
			// The triangles keep the face's winding: their normals agree with the plane's.
			n := u.Cross(v)
			for k := 0; k+2 < len(m.Indices); k += 3 {
				p0, p1, p2 := m.Position(int(m.Indices[k])), m.Position(int(m.Indices[k+1])), m.Position(int(m.Indices[k+2]))
				if p1.Sub(p0).Cross(p2.Sub(p0)).Dot(n) < -1e-9 {
					t.Fatalf("%s: triangle %d is wound backwards", name, k/3)
				}
			}
		}
	}
	// Convex faces keep their fan (same triangles as before).
	m := mustParse(t, "v 1 0 0\nv .5 .8 0\nv -.5 .8 0\nv -1 0 0\nv -.5 -.8 0\nv .5 -.8 0\nf 1 2 3 4 5 6\n")
	if m.TriangleCount() != 4 || m.Indices[0] != 0 || m.Indices[3] != 0 {
		t.Errorf("the hexagon is not fanned: %v", m.Indices)
	}
}

// Self-intersecting and degenerate faces still give n-2 triangles and never hang.
func TestDegenerateFacesTerminate(t *testing.T) {
	for _, src := range []string{
		"v 0 0 0\nv 1 1 0\nv 1 0 0\nv 0 1 0\nf 1 2 3 4\n",            // a bow tie
		"v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nf 1 2 3 4\n",            // collinear
		"v 0 0 0\nv 0 0 0\nv 0 0 0\nv 1 1 0\nv 1 0 0\nf 1 2 3 4 5\n", // repeated corners
	} {
		m := mustParse(t, src)
		if m.TriangleCount() != strings.Count(strings.Split(src, "f ")[1], " ")-1 {
			t.Errorf("%q: %d triangles", src, m.TriangleCount())
		}
		checkMesh(t, m)
	}
}
