package gltf_test

import (
	"fmt"
	"path/filepath"

	"github.com/voltex-editor/voltex/assets/gltf"
)

func ExampleImport() {
	m, err := gltf.Import(filepath.Join("testdata", "triangle.gltf"), gltf.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := m.Counts()
	fmt.Printf("%d node, %d mesh, %d vertices, %d triangle\n", c.Nodes, c.Meshes, c.Vertices, c.Triangles)
	p := m.Meshes[0].Primitives[0]
	fmt.Println(p.Indices, p.Normals[0])
	// Output:
	// 1 node, 1 mesh, 3 vertices, 1 triangle
	// [0 1 2] [0 0 1]
}
