package serialize_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// Build a small scene in code and save it: the canonical form.
func ExampleSave() {
	w := scene.NewWorld()
	// Entities without a SceneID get a random id when saved; these two have
	// fixed ones so that the output below is always the same.
	sun := w.Spawn(&scene.Name{Value: "Sun"}, &ecs.Transform{Scale: mgl32.Vec3{2, 2, 2}},
		&scene.Mesh{Asset: scene.MeshSphere}, &scene.Color{RGBA: [4]float32{1, 0.8, 0.2, 1}}, &scene.SceneID{ID: 1, Order: 1})
	moon := w.Spawn(&scene.Name{Value: "Moon"}, &ecs.Transform{Position: mgl32.Vec3{3, 0, 0}, Scale: mgl32.Vec3{0.3, 0.3, 0.3}},
		&scene.Mesh{Asset: scene.MeshSphere}, &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 90}, &scene.SceneID{ID: 2, Order: 1})
	if err := w.SetParent(moon, sun); err != nil {
		fmt.Println(err)
	}
	s := &serialize.Scene{Name: "Tiny", World: w}
	if err := serialize.Save(context.Background(), os.Stdout, s, serialize.SaveOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "format": "voltex.scene",
	//   "version": 2,
	//   "name": "Tiny",
	//   "entities": [
	//     {
	//       "id": 1,
	//       "name": "Sun",
	//       "order": 1,
	//       "components": {
	//         "Color": { "rgba": [1, 0.8, 0.2, 1] },
	//         "Mesh": { "asset": "builtin:sphere" },
	//         "Transform": { "position": [0, 0, 0], "rotation": [0, 0, 0], "scale": [2, 2, 2] }
	//       }
	//     },
	//     {
	//       "id": 2,
	//       "name": "Moon",
	//       "parent": 1,
	//       "order": 1,
	//       "components": {
	//         "Mesh": { "asset": "builtin:sphere" },
	//         "Spin": { "axis": [0, 1, 0], "speed": 90 },
	//         "Transform": { "position": [3, 0, 0], "rotation": [0, 0, 0], "scale": [0.3, 0.3, 0.3] }
	//       }
	//     }
	//   ]
	// }
}

// Load a scene and walk its world.
func ExampleLoad() {
	src := `{
  "format": "voltex.scene",
  "version": 1,
  "name": "Two cubes",
  "entities": [
    { "id": 1, "name": "A", "components": { "Mesh": { "asset": "builtin:cube" } } },
    { "id": 2, "name": "B", "parent": 1, "components": { "Transform": { "position": [0, 2, 0] } } }
  ]
}`
	s, err := serialize.Load(context.Background(), strings.NewReader(src), serialize.LoadOptions{File: "two.json"})
	if err != nil {
		fmt.Println(err)
		return
	}
	names := ecs.NewMap[scene.Name](s.World)
	s.World.EachEntity(func(e ecs.Entity) bool {
		parent := "none"
		if p := s.World.Parent(e); !p.IsZero() {
			parent = names.Get(p).Value
		}
		fmt.Printf("%s (parent %s) at %v\n", names.Get(e).Value, parent, s.World.WorldMatrix(e).Col(3).Vec3())
		return true
	})
	// Output:
	// A (parent none) at [0 0 0]
	// B (parent A) at [0 2 0]
}

// A file with problems: every one is reported with its position and JSON
// path, and nothing is loaded.
func ExampleLoad_problems() {
	src := `{
  "format": "voltex.scene",
  "version": 1,
  "entities": [
    { "id": 1, "components": { "Transform": { "scale": [1, 1] } } },
    { "id": 1, "parent": 5, "components": { "Color": { "rgba": [2, 0, 0, 1] } } }
  ]
}`
	s, err := serialize.Load(context.Background(), strings.NewReader(src), serialize.LoadOptions{File: "bad.json"})
	fmt.Println(s == nil)
	for _, p := range serialize.ProblemsOf(err) {
		fmt.Println(p)
	}
	// Output:
	// true
	// bad.json:5:56: entities[0].components.Transform.scale: expected 3 items, got 2
	// bad.json:6:65: entities[1].components.Color.rgba[0]: 2 is outside the allowed range 0..1
	// bad.json:6:13: entities[1].id: duplicate id 1 (also at 5:13)
	// bad.json:6:26: entities[1].parent: parent 5 does not exist
}

// Format is what `voltex-editor fmt` prints: the file as the editor would
// save it.
func ExampleFormat() {
	src := `{"format":"voltex.scene","version":1,"name":"x","entities":[{"components":{"Spin":{"speed":1.50,"axis":[0,1,0]}},"id":4}]}`
	out, err := serialize.Format([]byte(src), "x.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// {
	//   "format": "voltex.scene",
	//   "version": 2,
	//   "name": "x",
	//   "entities": [
	//     {
	//       "id": 4,
	//       "order": 1,
	//       "components": {
	//         "Spin": { "axis": [0, 1, 0], "speed": 1.5 }
	//       }
	//     }
	//   ]
	// }
}

// Export a scene for a game: world matrices baked, a mesh table, no
// editor data.
func ExampleExport() {
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = [3]int{2, 1, 1}
	p.Spacing = mgl32.Vec3{4, 4, 4}
	p.Group = "Pair"
	scene.SpawnGrid(w, p)
	s := &serialize.Scene{Name: "Pair", World: w, Camera: &scene.EditorCamera{Distance: 10}}
	if err := serialize.Export(context.Background(), os.Stdout, s); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "format": "voltex.export",
	//   "version": 1,
	//   "name": "Pair",
	//   "meshes": ["builtin:cube"],
	//   "entities": [
	//     {
	//       "name": "Pair",
	//       "parent": -1,
	//       "mesh": -1,
	//       "world": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
	//       "components": {
	//         "Transform": { "position": [0, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] }
	//       }
	//     },
	//     {
	//       "name": "Cube 0,0",
	//       "parent": 0,
	//       "mesh": 0,
	//       "color": [1, 1, 1, 1],
	//       "world": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -2, 0, 0, 1],
	//       "components": {
	//         "Transform": { "position": [-2, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] }
	//       }
	//     },
	//     {
	//       "name": "Cube 1,0",
	//       "parent": 0,
	//       "mesh": 0,
	//       "color": [1, 1, 1, 1],
	//       "world": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 2, 0, 0, 1],
	//       "components": {
	//         "Transform": { "position": [2, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] }
	//       }
	//     }
	//   ]
	// }
}
