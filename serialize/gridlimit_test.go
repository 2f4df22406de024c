package serialize_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// TestMaxGridLoads checks that the biggest grid the editor's Spawn Cube Grid and the grid command make
// (scene.MaxGridCubes) is a scene the loaders accept: within MaxEntities, and — measured on a sample
// grid with every option (spin, gradient, group, rotation and scale steps, a 60-byte mesh path, long
// numbers, random ids), scaled linearly — within MaxFileSize and MaxWorldBytes.
func TestMaxGridLoads(t *testing.T) {
	if scene.MaxGridCubes+1 > serialize.DefaultMaxEntities { // +1: the group
		t.Fatalf("scene.MaxGridCubes = %d (+ its group) is more than serialize.DefaultMaxEntities = %d",
			scene.MaxGridCubes, serialize.DefaultMaxEntities)
	}
	p := scene.GridParams{Count: [3]int{20, 10, 10}, Spacing: mgl32.Vec3{1.37, 2.11, 1.73},
		Origin: mgl32.Vec3{-12345.678, 321.123, 9876.543}, Mesh: "models/" + strings.Repeat("m", 49) + ".obj",
		ColorFrom: [4]float32{0.123, 0.456, 0.789, 1}, ColorTo: [4]float32{0.987, 0.654, 0.321, 0.5},
		Spin: &scene.Spin{Axis: mgl32.Vec3{0.267, 0.534, 0.801}, Speed: 33.3}, Group: "a group",
		RotationStep: mgl32.Vec3{0.7, 1.3, 0.1}, ScaleStep: mgl32.Vec3{1.0001, 0.9999, 1.0002}}
	b, err := serialize.Grid(p, "worst grid", 0)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(p.Len())
	scale := func(limit int64) int64 { return limit * n / scene.MaxGridCubes }
	if budget := scale(serialize.DefaultMaxFileSize); int64(len(b)) > budget {
		t.Errorf("a grid of %d cubes takes %d bytes (%d per cube): %d cubes take more than MaxFileSize",
			n, len(b), int64(len(b))/n, scene.MaxGridCubes)
	}
	lim := serialize.Limits{MaxWorldBytes: scale(serialize.DefaultMaxWorldBytes)}
	if _, err := serialize.Load(context.Background(), bytes.NewReader(b), serialize.LoadOptions{Limits: lim}); err != nil {
		t.Errorf("%d cubes take more than MaxWorldBytes: a sample of %d does not load within %d bytes: %v",
			scene.MaxGridCubes, n, lim.MaxWorldBytes, err)
	}
}
