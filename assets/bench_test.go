package assets

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseOBJ parses airboat.obj (polygons up to 8 sides, no normals: exercises
// triangulation, de-duplication and normal computation). MB/s is the input rate.
func BenchmarkParseOBJ(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(sharedOBJDir(b), "airboat.obj"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var tris int
	for b.Loop() {
		m, err := ParseOBJ("airboat.obj", data, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		tris = m.TriangleCount()
	}
	b.ReportMetric(float64(tris)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mtris/s")
}

// BenchmarkParseOBJNormals parses teapotn.obj (v//vn corners: file normals, no computation).
func BenchmarkParseOBJNormals(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(sharedOBJDir(b), "teapotn.obj"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseOBJ("teapotn.obj", data, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuiltinSphere measures generating the sphere (done once per process).
func BenchmarkBuiltinSphere(b *testing.B) {
	for b.Loop() {
		_ = sphereMesh()
	}
	b.ReportMetric(float64(len(sphereMesh().idx)/3), "tris")
}
