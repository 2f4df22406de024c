package gltf

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkImportGLB decodes the OrientationTest .glb (13 meshes, 1,048 vertices).
func BenchmarkImportGLB(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(sampleDir(b), "OrientationTest", "glTF-Binary", "OrientationTest.glb"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(data, "", Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
