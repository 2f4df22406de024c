package assets_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/voltex-editor/voltex/assets"
)

func ExampleParseOBJ() {
	src := `# a unit quad, written as one polygon
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
vt 0 0
vt 1 0
vt 1 1
vt 0 1
f 1/1 2/2 3/3 4/4
`
	m, err := assets.ParseOBJ("quad.obj", []byte(src), assets.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("vertices", m.VertexCount(), "triangles", m.TriangleCount())
	fmt.Println("indices", m.Indices)
	fmt.Println("bounds", m.Min, m.Max)
	fmt.Println("computed normal", m.Normal(0))
	// Output:
	// vertices 4 triangles 2
	// indices [0 1 2 0 2 3]
	// bounds [0 0 0] [1 1 0]
	// computed normal [0 0 1]
}

func ExampleParseOBJ_errors() {
	src := "v 0 0 0\nv 1 0 0\nf 1 2\nf 1 2 7\n"
	_, err := assets.ParseOBJ("bad.obj", []byte(src), assets.Limits{})
	fmt.Println(err)
	// Output:
	// bad.obj:3:1: face has 2 vertices, needs at least 3
	// bad.obj:4:7: vertex index 7 out of range (2 defined so far)
}

func ExampleNormalizeRef() {
	for _, ref := range []string{`models\ship.obj`, "./a/../b.obj", "../secret.obj", "/etc/passwd"} {
		norm, err := assets.NormalizeRef(ref)
		fmt.Printf("%q %q %v\n", norm, ref, errors.Is(err, assets.ErrUnsafePath))
	}
	// Output:
	// "models/ship.obj" "models\\ship.obj" false
	// "b.obj" "./a/../b.obj" false
	// "" "../secret.obj" true
	// "" "/etc/passwd" true
}

func ExampleRegistry() {
	dir, _ := os.MkdirTemp("", "scene")
	defer func() { check(os.RemoveAll(dir)) }()
	check(os.WriteFile(filepath.Join(dir, "tri.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644))

	reg := assets.NewRegistry(dir, assets.Limits{})
	cube, _ := reg.Mesh(assets.BuiltinCube)
	fmt.Println(cube.Ref, cube.VertexCount(), cube.TriangleCount())

	tri, err := reg.Mesh("tri.obj")
	fmt.Println(tri.Ref, tri.TriangleCount(), err)

	// Unsafe or broken references give the placeholder and a reason for the console.
	ph, err := reg.Mesh("../elsewhere.obj")
	fmt.Println(ph.Placeholder, err)

	// After the file changes (a watcher says so), Reload swaps in a newer version.
	check(os.WriteFile(filepath.Join(dir, "tri.obj"), []byte("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n"), 0o644))
	tri2, err := reg.Reload("tri.obj")
	fmt.Println(tri2.TriangleCount(), tri2.Version > tri.Version, err)
	fmt.Println(reg.List())
	// Output:
	// builtin:cube 24 12
	// tri.obj 1 <nil>
	// true assets: mesh "../elsewhere.obj": path "../elsewhere.obj" refused: it climbs out of the scene folder with "..": outside the scene folder
	// 2 true <nil>
	// [builtin:cube builtin:plane builtin:sphere tri.obj]
}

func ExampleDescribeOBJ() {
	dir, _ := os.MkdirTemp("", "validate")
	defer func() { check(os.RemoveAll(dir)) }()
	path := filepath.Join(dir, "box.obj")
	check(os.WriteFile(path, []byte("v -1 0 0\nv 1 0 0\nv 1 2 0\nv -1 2 0\nf 1 2 3 4\n"), 0o644))
	desc, err := assets.DescribeOBJ(path)
	fmt.Println(desc, err)
	// Output:
	// vertices 4, triangles 2, bounds [-1 0 0] .. [1 2 0] (faces 1, texcoords 0, normals 0, mesh vertices 4) <nil>
}

// check stops an example whose own setup (writing its input files) failed.
func check(err error) {
	if err != nil {
		panic(err)
	}
}
