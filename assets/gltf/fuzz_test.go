package gltf

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzImport feeds .glb and .gltf bytes (seeded with every sample that has no external files, and
// the synthetic square) to Decode: it must refuse or import, never panic, hang or allocate past
// its limits.
func FuzzImport(f *testing.F) {
	found, _ := filepath.Glob(filepath.Join(sampleDir(f), "*", "glTF-*", "*.gl*"))
	for _, p := range found {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(square().bytes(f))
	lim := Limits{MaxBytes: 1 << 20, MaxVertices: 100_000, MaxTriangles: 200_000}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data, "", lim)
		if err != nil {
			return
		}
		c := m.Counts()
		if c.Vertices > lim.MaxVertices || c.Triangles > lim.MaxTriangles {
			t.Errorf("past the limits: %+v", c)
		}
		for _, me := range m.Meshes {
			for _, p := range me.Primitives {
				if len(p.Normals) != len(p.Positions) || p.Tangents != nil && len(p.Tangents) != len(p.Positions) {
					t.Errorf("%d normals and %d tangents for %d positions", len(p.Normals), len(p.Tangents), len(p.Positions))
				}
				for _, i := range p.Indices {
					if int(i) >= len(p.Positions) {
						t.Fatalf("index %d past %d positions", i, len(p.Positions))
					}
				}
			}
		}
	})
}
