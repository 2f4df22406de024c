package assets

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseOBJ checks that no input makes the parser panic, that every accepted mesh is
// well-formed (indices in range, finite values, bounds enclosing the vertices) and within the
// limits, and that every rejection is a positioned ParseError list. Seeds: testdata/fuzz and
// the small shared models.
func FuzzParseOBJ(f *testing.F) {
	if dir := filepath.Join("..", "..", "shared", "testdata", "obj"); dirExists(dir) {
		for _, name := range []string{"box.obj", "cube.obj", "cuber.obj"} {
			if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				f.Add(data)
			}
		}
	}
	odd, _ := filepath.Glob(filepath.Join("testdata", "obj", "*.obj")) // the oddities of real exporters
	for _, name := range odd {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	lim := Limits{MaxFileBytes: 1 << 16, MaxVertices: 64, MaxTriangles: 128, MaxFaceVertices: 16}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseOBJ("fuzz.obj", data, lim)
		if err != nil {
			if m != nil {
				t.Fatal("mesh returned with an error")
			}
			var list ParseErrors
			if !errors.As(err, &list) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if len(list) == 0 || len(list) > MaxReportedErrors {
				t.Fatalf("%d errors reported", len(list))
			}
			for _, e := range list {
				if e.File != "fuzz.obj" || e.Msg == "" || e.Line < 0 || e.Col < 0 {
					t.Fatalf("malformed error %#v", e)
				}
			}
			return
		}
		checkMesh(t, m)
		if m.VertexCount() > lim.MaxVertices || m.TriangleCount() > lim.MaxTriangles || m.TriangleCount() == 0 {
			t.Fatalf("%d vertices, %d triangles: outside the limits", m.VertexCount(), m.TriangleCount())
		}
	})
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
