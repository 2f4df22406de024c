package gltfprefab_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// samples are Khronos sample models (in ../shared/testdata/gltf) with the entities an instance of
// each makes: the instance itself and one per node of the default scene.
var samples = map[string]int{
	"BoxVertexColors/glTF-Binary/BoxVertexColors.glb": 1 + 4,
	"Cube/glTF/Cube.gltf":                             1 + 1,
	"Cameras/glTF/Cameras.gltf":                       1 + 3,
	"OrientationTest/glTF-Binary/OrientationTest.glb": 1 + 13,
	"Triangle/glTF-Embedded/Triangle.gltf":            1 + 1,
}

// TestSampleModelsAsPrefabs: each sample model placed as a prefab (in a sub-folder of the scene)
// makes an entity per node, and every mesh and texture reference its entities hold resolves: the
// meshes load from the registry and the texture files exist.
func TestSampleModelsAsPrefabs(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared", "testdata", "gltf")
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("skipping: ../shared (project test inputs) is absent beside the repository: %v", err)
	}
	for sample, want := range samples {
		t.Run(filepath.Dir(filepath.Dir(sample)), func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(shared, filepath.Dir(sample))
			files, err := os.ReadDir(src)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				data, err := os.ReadFile(filepath.Join(src, f.Name()))
				if err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(dir, "m", f.Name()), string(data))
			}
			write(t, filepath.Join(dir, "s.json"), `{"format": "voltex.scene", "version": 2, "entities": [{"id": 1, "prefab": "m/`+filepath.Base(sample)+`"}]}`)
			s, err := serialize.LoadFile(context.Background(), filepath.Join(dir, "s.json"), serialize.LoadOptions{
				CheckAsset: func(ref string) error { return assets.CheckRef(dir, ref) }})
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Warnings) > 0 {
				t.Errorf("warnings: %v", s.Warnings)
			}
			if n := s.World.Len(); n != want {
				t.Errorf("%d entities, want %d", n, want)
			}
			reg := assets.NewRegistry(dir, assets.Limits{})
			meshes, mats := ecs.NewMap[scene.Mesh](s.World), ecs.NewMap[scene.Material](s.World)
			drawn := 0
			for _, e := range scene.EnsureIDs(s.World) {
				if m, ok := meshes.TryGet(e); ok {
					drawn++
					if _, err := reg.Mesh(m.Asset); err != nil {
						t.Errorf("mesh %s: %v", m.Asset, err)
					}
				}
				if m, ok := mats.TryGet(e); ok && m.BaseColorTexture.Image != "" {
					if err := assets.CheckRef(dir, m.BaseColorTexture.Image); err != nil {
						t.Errorf("texture %s: %v", m.BaseColorTexture.Image, err)
					}
				}
			}
			if drawn == 0 {
				t.Error("no entity has a mesh")
			}
		})
	}
}
