package assets

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// sharedOBJDir returns ../shared/testdata/obj (relative to the repository root), or skips the
// test when the shared folder is absent (a clone outside the project setup).
func sharedOBJDir(tb testing.TB) string {
	tb.Helper()
	shared := filepath.Join("..", "..", "shared")
	if _, err := os.Stat(shared); err != nil {
		tb.Skipf("skipping: ../shared (project test inputs) is absent beside the repository: %v", err)
	}
	return filepath.Join(shared, "testdata", "obj")
}

// TestSharedOBJFiles loads every model of ../shared/testdata/obj and checks the counts its
// README lists (v, vn, f statements and triangles after fan triangulation).
func TestSharedOBJFiles(t *testing.T) {
	dir := sharedOBJDir(t)
	want := map[string]struct{ v, vn, faces, tris int }{
		"box.obj":     {8, 0, 6, 12},
		"cube.obj":    {8, 6, 12, 12},
		"cuber.obj":   {24, 0, 6, 12},
		"teapot.obj":  {3644, 0, 6320, 6320},
		"teapotn.obj": {1202, 1202, 2256, 2256},
		"airboat.obj": {5797, 0, 6273, 11566},
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.obj"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(want) {
		t.Errorf("found %d .obj files in %s, the README lists %d: update this table", len(files), dir, len(want))
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			w, ok := want[name]
			if !ok {
				t.Fatalf("%s is not in the README table", name)
			}
			m, st, err := loadOBJ(f, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if st.Positions != w.v || st.Normals != w.vn || st.Faces != w.faces || m.TriangleCount() != w.tris {
				t.Errorf("v %d vn %d faces %d triangles %d; want %d %d %d %d",
					st.Positions, st.Normals, st.Faces, m.TriangleCount(), w.v, w.vn, w.faces, w.tris)
			}
			checkMesh(t, m)
		})
	}
}

// checkMesh asserts the invariants every parsed mesh has: whole vertices, indices in range,
// finite values, unit normals when computed, bounds that enclose every vertex.
func checkMesh(t testing.TB, m *Mesh) {
	t.Helper()
	if len(m.Vertices)%FloatsPerVertex != 0 || len(m.Indices)%3 != 0 {
		t.Fatalf("vertex floats %d, indices %d: not whole vertices/triangles", len(m.Vertices), len(m.Indices))
	}
	n := uint32(m.VertexCount())
	for i, ix := range m.Indices {
		if ix >= n {
			t.Fatalf("index %d = %d, only %d vertices", i, ix, n)
		}
	}
	for i, f := range m.Vertices {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			t.Fatalf("vertex float %d is %v", i, f)
		}
	}
	for i := range m.VertexCount() {
		p := m.Position(i)
		for k := range 3 {
			if p[k] < m.Min[k] || p[k] > m.Max[k] {
				t.Fatalf("vertex %d %v outside bounds %v..%v", i, p, m.Min, m.Max)
			}
		}
	}
}

func mustParse(t *testing.T, src string) *Mesh {
	t.Helper()
	m, err := ParseOBJ("t.obj", []byte(src), Limits{})
	if err != nil {
		t.Fatalf("ParseOBJ: %v", err)
	}
	checkMesh(t, m)
	return m
}

const quadPositions = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"

func TestFaceForms(t *testing.T) {
	const vt = "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
	const vn = "vn 0 0 1\n"
	tests := []struct {
		name, src        string
		verts            int
		wantUV, wantNorm bool
	}{
		{"v", quadPositions + "f 1 2 3 4\n", 4, false, false},
		{"v/vt", quadPositions + vt + "f 1/1 2/2 3/3 4/4\n", 4, true, false},
		{"v//vn", quadPositions + vn + "f 1//1 2//1 3//1 4//1\n", 4, false, true},
		{"v/vt/vn", quadPositions + vt + vn + "f 1/1/1 2/2/1 3/3/1 4/4/1\n", 4, true, true},
		{"mixed forms", quadPositions + vt + vn + "f 1 2/2 3//1 4/4/1\n", 4, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.src)
			if m.VertexCount() != tc.verts || m.TriangleCount() != 2 {
				t.Fatalf("vertices %d triangles %d, want %d and 2", m.VertexCount(), m.TriangleCount(), tc.verts)
			}
			if got := m.Indices; !slices.Equal(got, []uint32{0, 1, 2, 0, 2, 3}) {
				t.Errorf("indices %v, want fan 0 1 2 0 2 3", got)
			}
			if tc.wantUV && m.UV(1) != (mgl32.Vec2{1, 0}) {
				t.Errorf("uv of corner 2 = %v, want [1 0]", m.UV(1))
			}
			if !tc.wantUV && m.UV(1) != (mgl32.Vec2{}) {
				t.Errorf("uv without vt = %v, want zero", m.UV(1))
			}
			// With or without vn the quad faces +Z (file normal, or computed from the CCW winding).
			for i := range m.VertexCount() {
				if !m.Normal(i).ApproxEqual(mgl32.Vec3{0, 0, 1}) {
					t.Errorf("normal %d = %v, want [0 0 1]", i, m.Normal(i))
				}
			}
		})
	}
}

func TestNegativeIndices(t *testing.T) {
	// The same quad twice: once with absolute, once with relative indices after more vertices.
	abs := mustParse(t, quadPositions+"vt 0 0\nvt 1 1\nvn 0 0 1\nf 1/1/1 2/2/1 3/2/1\n")
	rel := mustParse(t, quadPositions+"vt 0 0\nvt 1 1\nvn 0 0 1\nf -4/-2/-1 -3/-1/-1 -2/-1/-1\n")
	if !slices.Equal(abs.Vertices, rel.Vertices) || !slices.Equal(abs.Indices, rel.Indices) {
		t.Fatalf("relative indices differ from absolute:\n%v\n%v", abs.Vertices, rel.Vertices)
	}
	// Relative indices count from the end of the list *so far*, not of the file.
	m := mustParse(t, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 5 5 5\nv 6 5 5\nv 5 6 5\nf -3 -2 -1\n")
	if m.TriangleCount() != 2 || m.Position(int(m.Indices[3])) != (mgl32.Vec3{5, 5, 5}) {
		t.Errorf("second face starts at %v, want [5 5 5]", m.Position(int(m.Indices[3])))
	}
}

func TestPolygonFanAndDedup(t *testing.T) {
	// A hexagon: 4 triangles fanned from the first corner.
	src := "v 1 0 0\nv .5 .8 0\nv -.5 .8 0\nv -1 0 0\nv -.5 -.8 0\nv .5 -.8 0\nf 1 2 3 4 5 6\n"
	m := mustParse(t, src)
	if want := []uint32{0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5}; !slices.Equal(m.Indices, want) {
		t.Errorf("indices %v, want %v", m.Indices, want)
	}
	// Corners shared by two faces with the same v/vt/vn are one vertex; a different vt splits.
	m = mustParse(t, quadPositions+"vt 0 0\nvt 1 1\nf 1/1 2/1 3/1\nf 1/1 3/1 4/1\nf 1/2 2/2 3/2\n")
	if m.VertexCount() != 7 {
		t.Errorf("vertices %d, want 4 shared + 3 with the second texcoord", m.VertexCount())
	}
}

func TestTolerance(t *testing.T) {
	src := "# comment\r\n\r\nmtllib x.mtl\r\no thing\r\ng a b\r\ns off\r\nusemtl red\r\n" +
		"  v 0 0 0  \r\n\tv 1 0 0 1\r\nv 0 1 0 0.5 0.5 0.5\r\nvp 0.1\r\nl 1 2\r\np 1\r\ncstype bezier\r\n" +
		"f 1 2 3 # trailing comment\r\n"
	// A "#" after a statement starts a comment (exporters write them: "f 1 2 3 # quad half").
	m := mustParse(t, src)
	if m.TriangleCount() != 1 || m.VertexCount() != 3 {
		t.Errorf("got %d triangles %d vertices, want 1 and 3", m.TriangleCount(), m.VertexCount())
	}
	// No newline at the end of the file.
	if m := mustParse(t, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3"); m.TriangleCount() != 1 {
		t.Error("last line without newline lost")
	}
}

func TestComputedNormalsAreSmoothAndAreaWeighted(t *testing.T) {
	// Two triangles share the edge 1-2: a big one in the XY plane (normal +Z, area 8) and a small
	// one in the XZ plane (normal -Y, area 2). The shared vertices lean to +Z by area.
	src := "v 0 0 0\nv 4 0 0\nv 0 4 0\nv 0 0 -1\nf 1 2 3\nf 1 4 2\n"
	m := mustParse(t, src)
	n := m.Normal(0) // vertex 1 is shared
	want := mgl32.Vec3{0, -2, 8}.Normalize()
	if !n.ApproxEqualThreshold(want, 1e-6) {
		t.Errorf("shared normal %v, want %v", n, want)
	}
	if got := m.Normal(2); !got.ApproxEqual(mgl32.Vec3{0, 0, 1}) { // vertex 3: only the big face
		t.Errorf("normal of vertex 3 = %v, want +Z", got)
	}
	// Different texcoords at one position still share the smooth normal.
	m = mustParse(t, "v 0 0 0\nv 4 0 0\nv 0 4 0\nv 0 0 -1\nvt 0 0\nvt 1 1\nf 1/1 2/1 3/1\nf 1/2 4/2 2/2\n")
	if a, b := m.Normal(0), m.Normal(3); !a.ApproxEqual(b) || !a.ApproxEqualThreshold(want, 1e-6) {
		t.Errorf("split vertex normals %v and %v, want both %v", a, b, want)
	}
	// A degenerate face gets a finite up normal instead of NaN.
	m = mustParse(t, "v 1 1 1\nv 1 1 1\nv 1 1 1\nf 1 2 3\n")
	if m.Normal(0) != (mgl32.Vec3{0, 1, 0}) {
		t.Errorf("degenerate normal %v, want [0 1 0]", m.Normal(0))
	}
}

func TestFileNormalsKept(t *testing.T) {
	m := mustParse(t, quadPositions+"vn 0 0 -2\nf 1//1 2//1 3//1\n")
	if m.Normal(0) != (mgl32.Vec3{0, 0, -2}) {
		t.Errorf("normal %v, want the file's [0 0 -2]", m.Normal(0))
	}
}

func TestBounds(t *testing.T) {
	// The unused vertex 4 at 100 must not widen the bounds.
	m := mustParse(t, "v -1 2 -3\nv 4 -5 6\nv 0 0 0\nv 100 100 100\nf 1 2 3\n")
	if m.Min != (mgl32.Vec3{-1, -5, -3}) || m.Max != (mgl32.Vec3{4, 2, 6}) {
		t.Errorf("bounds %v..%v", m.Min, m.Max)
	}
}

func TestParseErrors(t *testing.T) {
	const tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
	tests := []struct{ name, src, want string }{
		{"face with 2 vertices", tri + "f 1 2\n", "t.obj:4:1: face has 2 vertices, needs at least 3"},
		{"empty face", tri + "f\n", "t.obj:4:1: face has 0 vertices, needs at least 3"},
		{"face with 1 vertex", tri + "f 1\n", "t.obj:4:1: face has 1 vertex, needs at least 3"},
		{"index 0", tri + "f 0 1 2\n", "t.obj:4:3: vertex index 0 is invalid (OBJ indices start at 1; negative ones count back from the last)"},
		{"out of range", tri + "f 1 2 4\n", "t.obj:4:7: vertex index 4 out of range (3 defined so far)"},
		{"negative out of range", tri + "f 1 2 -4\n", "t.obj:4:7: vertex index -4 out of range (3 defined so far)"},
		{"forward reference", "f 1 2 3\n" + tri, "t.obj:1:3: vertex index 1 out of range (0 defined so far)"},
		{"vt out of range", tri + "vt 0 0\nf 1/1 2/2 3/1\n", "t.obj:5:9: texture coordinate index 2 out of range (1 defined so far)"},
		{"vn out of range", tri + "f 1//1 2//1 3//1\n", "t.obj:4:6: normal index 1 out of range (0 defined so far)"},
		{"huge index", tri + "f 1 2 99999999999999999999\n", "t.obj:4:7: vertex index 99999999999999999999 out of range (3 defined so far)"},
		{"bad number", "v 1 x 3\n", `t.obj:1:5: bad number "x"`},
		{"NaN", "v 1 NaN 3\n", `t.obj:1:5: bad number "NaN"`},
		{"nan lower", "vn nan 0 0\n", `t.obj:1:4: bad number "nan"`},
		{"Inf", "v inf 0 0\n", `t.obj:1:3: bad number "inf"`},
		{"hex", "v 0x10 0 0\n", `t.obj:1:3: bad number "0x10"`},
		{"trailing junk", "v 1.5abc 0 0\n", `t.obj:1:3: bad number "1.5abc"`},
		{"bare sign", "v - 0 0\n", `t.obj:1:3: bad number "-"`},
		{"bare dot", "v . 0 0\n", `t.obj:1:3: bad number "."`},
		{"exponent without digits", "v 1e 0 0\n", `t.obj:1:3: bad number "1e"`},
		{"overflow", "v 1e39 0 0\n", `t.obj:1:3: number out of float32 range "1e39"`},
		{"too few coordinates", "v 1 2\n", "t.obj:1:6: v needs at least 3 numbers, got 2"},
		{"too many coordinates", "v 1 2 3 4 5 6 7 8\n", "t.obj:1:17: v: too many values (at most 7)"},
		{"vn with 4", "vn 1 2 3 4\n", "t.obj:1:10: vn: too many values (at most 3)"},
		{"vt with none", "vt\n", "t.obj:1:3: vt needs at least 1 numbers, got 0"},
		{"bad corner slash", tri + "f /1 2 3\n", `t.obj:4:3: bad face vertex "/1" (want v, v/vt, v//vn or v/vt/vn)`},
		{"bad corner triple slash", tri + "f 1///1 2 3\n", `t.obj:4:3: bad face vertex "1///1" (want v, v/vt, v//vn or v/vt/vn)`},
		{"bad corner letters", tri + "f a 2 3\n", `t.obj:4:3: bad face vertex "a" (want v, v/vt, v//vn or v/vt/vn)`},
		{"bad corner float", tri + "f 1.0 2 3\n", `t.obj:4:3: bad face vertex "1.0" (want v, v/vt, v//vn or v/vt/vn)`},
		{"no faces", tri, "t.obj: no faces: a mesh needs at least one f statement"},
		{"empty file", "", "t.obj: no faces: a mesh needs at least one f statement"},
		{"binary junk", "\x00\x01\x02\xff", "t.obj:1:1: the file is not text: it has NUL bytes near the start (UTF-16, or binary?); OBJ files are ASCII or UTF-8"},
		{"junk without NUL", "\x01\x02\xff", "t.obj: no faces: a mesh needs at least one f statement"},
		{"NUL further on", tri + strings.Repeat("# c\n", 300) + "f 1 2\x003\n", "t.obj:304:6: a NUL byte: the file is not text (binary?); OBJ files are ASCII or UTF-8"},
		{"several errors", "v 1 x 3\nv 1 2\n", "t.obj:1:5: bad number \"x\"\nt.obj:2:6: v needs at least 3 numbers, got 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseOBJ("t.obj", []byte(tc.src), Limits{})
			if err == nil {
				t.Fatalf("no error; want %q", tc.want)
			}
			if m != nil {
				t.Error("mesh returned together with an error")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got: %s\nwant: %s", err, tc.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "t.obj" {
				t.Errorf("errors.As(*ParseError) failed or wrong file: %#v", pe)
			}
		})
	}
}

func TestErrorCountIsCapped(t *testing.T) {
	src := strings.Repeat("v x 0 0\n", 100)
	_, err := ParseOBJ("t.obj", []byte(src), Limits{})
	var list ParseErrors
	if !errors.As(err, &list) || len(list) != MaxReportedErrors {
		t.Fatalf("got %d errors (%v), want %d", len(list), err, MaxReportedErrors)
	}
}

func TestLimits(t *testing.T) {
	tri := "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
	tests := []struct {
		name, src string
		lim       Limits
		want      string
	}{
		{"file bytes", tri + "f 1 2 3\n", Limits{MaxFileBytes: 10}, "t.obj: file is 32 bytes, larger than the limit of 10 bytes"},
		{"positions", tri + "v 1 1 1\n", Limits{MaxVertices: 3}, "t.obj:4:1: too many vertices (limit 3)"},
		{"texcoords", "vt 0\nvt 0\n", Limits{MaxVertices: 1}, "t.obj:2:1: too many texture coordinates (limit 1)"},
		{"normals", "vn 0 0 1\nvn 0 0 1\n", Limits{MaxVertices: 1}, "t.obj:2:1: too many normals (limit 1)"},
		{"mesh vertices", tri + "vt 0\nvt 1\nf 1/1 2/1 3/1\nf 1/2 2/2 3/2\n", Limits{MaxVertices: 4}, "t.obj:7:7: too many distinct vertices (limit 4)"},
		{"triangles", tri + "v 1 1 0\nf 1 2 3 4\n", Limits{MaxTriangles: 1}, "t.obj:5:1: too many triangles (limit 1)"},
		{"face size", tri + "v 1 1 0\nf 1 2 3 4\n", Limits{MaxFaceVertices: 3}, "t.obj:5:9: too many vertices in one face (limit 3)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseOBJ("t.obj", []byte(tc.src), tc.lim)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v, want %s", err, tc.want)
			}
			if !errors.Is(err, ErrLimit) {
				t.Error("limit error does not wrap ErrLimit")
			}
		})
	}
	// At the limit exactly is fine.
	if _, err := ParseOBJ("t.obj", []byte(tri+"f 1 2 3\n"), Limits{MaxVertices: 3, MaxTriangles: 1, MaxFaceVertices: 3}); err != nil {
		t.Errorf("at the limits: %v", err)
	}
}

func TestLoadOBJRefusesOversizeAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.obj")
	if err := os.WriteFile(big, []byte(strings.Repeat("# padding\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOBJ(big, Limits{MaxFileBytes: 999}); !errors.Is(err, ErrLimit) {
		t.Errorf("oversize file: err = %v, want ErrLimit", err)
	}
	if _, err := LoadOBJ(dir, Limits{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: err = %v, want 'not a regular file'", err)
	}
	if _, err := LoadOBJ(filepath.Join(dir, "missing.obj"), Limits{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v, want ErrNotExist", err)
	}
}

func TestScanFloatMatchesStrconv(t *testing.T) {
	cases := []string{
		"0", "-0", "+1", "1.", ".5", "-.5", "0.605903", "-5.975275", "2.712726", "1e10", "1E-10",
		"123456789", "16777217", "0.1", "0.3", "3.4028235e38", "1.17549435e-38", "1e-45", "1e-50",
		"9999999999999999999999", "0.000000000000000000000000123", "1.0000000596046448", "-7e-3",
		"340282356779733661637539395458142568447", // just below the float32 overflow threshold
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		f := rng.Float64()*2 - 1
		e := rng.IntN(20) - 10
		cases = append(cases, strconv.FormatFloat(f*math.Pow10(e), 'f', rng.IntN(10), 64),
			strconv.FormatFloat(f*math.Pow10(e), 'e', rng.IntN(12), 64))
	}
	for _, s := range cases {
		got, end, msg := scanFloat([]byte(s), 0)
		want, err := strconv.ParseFloat(s, 32)
		if msg != "" || err != nil || end != len(s) {
			t.Fatalf("%q: msg %q end %d, strconv err %v", s, msg, end, err)
		}
		if got != float32(want) || math.Signbit(float64(got)) != math.Signbit(want) {
			t.Errorf("%q: got %v, strconv %v", s, got, float32(want))
		}
	}
}

func TestScanFloatNoAllocs(t *testing.T) {
	line := []byte("0.605903 12345678901234567890.5 1e-30")
	allocs := testing.AllocsPerRun(100, func() {
		for i := 0; i < len(line); {
			_, end, _ := scanFloat(line, i)
			i = skipSpace(line, end)
		}
	})
	if allocs != 0 {
		t.Errorf("scanFloat allocates %v times per line", allocs)
	}
}

// endless yields head, then NUL and other bytes without end, counting what it gave.
type endless struct {
	head string
	n    int64
}

func (e *endless) Read(b []byte) (int, error) {
	k := copy(b, e.head)
	e.head = e.head[k:]
	for i := k; i < len(b); i++ {
		b[i] = byte(i - k)
	}
	e.n += int64(len(b))
	return len(b), nil
}

// Binary input piped in as a model (a comment first, so it looks like OBJ) is refused where its
// first NUL byte is, without reading on to the size limit.
func TestDescribeOBJFromStopsAtBinary(t *testing.T) {
	r := &endless{head: "# binary\n" + strings.Repeat("v 1 2 3\n", 1000)}
	_, err := DescribeOBJFrom("stdin", r)
	want := "stdin:1002:1: a NUL byte: the file is not text (binary?); OBJ files are ASCII or UTF-8"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if r.n > 1<<20 {
		t.Errorf("read %d bytes of endless input", r.n)
	}
}
