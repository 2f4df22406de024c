package scene_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// A 2×1×2 grid of spinning cubes under a group, then one second of play.
func ExampleSpawnGrid() {
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = [3]int{2, 1, 2}
	p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 30}
	p.Group = "Cubes"
	group, cubes := scene.SpawnGrid(w, p)

	names := ecs.NewMap[scene.Name](w)
	tr := ecs.NewMap[ecs.Transform](w)
	scene.ApplySpin(w, 1)
	fmt.Println(names.Get(group).Value, "holds", len(w.Children(group)), "cubes")
	for _, c := range cubes {
		fmt.Println(names.Get(c).Value, tr.Get(c).Position, tr.Get(c).Rotation)
	}
	// Output:
	// Cubes holds 4 cubes
	// Cube 0,0 [-0.75 0 -0.75] [0 30 0]
	// Cube 1,0 [0.75 0 -0.75] [0 30 0]
	// Cube 0,1 [-0.75 0 0.75] [0 30 0]
	// Cube 1,1 [0.75 0 0.75] [0 30 0]
}
