package gltf

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// sampleDir returns ../shared/testdata/gltf (beside the repository), or skips the test when the
// shared folder is absent (a clone outside the project setup).
func sampleDir(tb testing.TB) string {
	tb.Helper()
	shared := filepath.Join("..", "..", "..", "shared")
	if _, err := os.Stat(shared); err != nil {
		tb.Skipf("skipping: ../shared (project test inputs) is absent beside the repository: %v", err)
	}
	return filepath.Join(shared, "testdata", "gltf")
}

// The counts below were read from each sample's JSON: nodes, meshes and materials are the lengths
// of their arrays, vertices the POSITION accessors' counts, triangles the index accessors'
// counts (or POSITION's, without indices) divided by 3.
var sampleCounts = map[string]Counts{
	"Triangle/glTF/Triangle.gltf":                                      {Nodes: 1, Meshes: 1, Primitives: 1, Vertices: 3, Triangles: 1},
	"Triangle/glTF-Embedded/Triangle.gltf":                             {Nodes: 1, Meshes: 1, Primitives: 1, Vertices: 3, Triangles: 1},
	"TriangleWithoutIndices/glTF/TriangleWithoutIndices.gltf":          {Nodes: 1, Meshes: 1, Primitives: 1, Vertices: 3, Triangles: 1},
	"TriangleWithoutIndices/glTF-Embedded/TriangleWithoutIndices.gltf": {Nodes: 1, Meshes: 1, Primitives: 1, Vertices: 3, Triangles: 1},
	"BoxVertexColors/glTF/BoxVertexColors.gltf":                        {Nodes: 4, Meshes: 1, Primitives: 1, Vertices: 24, Triangles: 12, Materials: 1},
	"BoxVertexColors/glTF-Embedded/BoxVertexColors.gltf":               {Nodes: 4, Meshes: 1, Primitives: 1, Vertices: 24, Triangles: 12, Materials: 1},
	"BoxVertexColors/glTF-Binary/BoxVertexColors.glb":                  {Nodes: 4, Meshes: 1, Primitives: 1, Vertices: 24, Triangles: 12, Materials: 1},
	"Cube/glTF/Cube.gltf":                                              {Nodes: 1, Meshes: 1, Primitives: 1, Vertices: 36, Triangles: 12, Materials: 1, Textures: 2},
	"Cameras/glTF/Cameras.gltf":                                        {Nodes: 3, Meshes: 1, Primitives: 1, Vertices: 4, Triangles: 2, Cameras: 2},
	"Cameras/glTF-Embedded/Cameras.gltf":                               {Nodes: 3, Meshes: 1, Primitives: 1, Vertices: 4, Triangles: 2, Cameras: 2},
	"OrientationTest/glTF/OrientationTest.gltf":                        {Nodes: 13, Meshes: 13, Primitives: 13, Vertices: 1048, Triangles: 524, Materials: 7},
	"OrientationTest/glTF-Embedded/OrientationTest.gltf":               {Nodes: 13, Meshes: 13, Primitives: 13, Vertices: 1048, Triangles: 524, Materials: 7},
	"OrientationTest/glTF-Binary/OrientationTest.glb":                  {Nodes: 13, Meshes: 13, Primitives: 13, Vertices: 1048, Triangles: 524, Materials: 7},
}

func TestSampleCounts(t *testing.T) {
	dir := sampleDir(t)
	found, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.gl*"))
	if len(found) != len(sampleCounts) {
		t.Errorf("%d sample files, the test knows %d", len(found), len(sampleCounts))
	}
	for name, want := range sampleCounts {
		m, err := Import(filepath.Join(dir, name), Limits{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := m.Counts(); got != want {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
		if len(m.Warnings) > 0 {
			t.Errorf("%s: warnings %q", name, m.Warnings)
		}
	}
}

// The three BoxVertexColors files hold the same data: vertex colours (VEC4 floats), normals,
// UVs and the nodes' world matrices agree.
func TestBoxVertexColorsVariantsAgree(t *testing.T) {
	dir := sampleDir(t)
	var first *Model
	for _, v := range []string{"glTF/BoxVertexColors.gltf", "glTF-Embedded/BoxVertexColors.gltf", "glTF-Binary/BoxVertexColors.glb"} {
		m, err := Import(filepath.Join(dir, "BoxVertexColors", v), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		p := m.Meshes[0].Primitives[0]
		if len(p.Colors) != 24 || len(p.Normals) != 24 || len(p.UVs) != 24 || len(p.Indices) != 36 {
			t.Fatalf("%s: colours %d normals %d uvs %d indices %d", v, len(p.Colors), len(p.Normals), len(p.UVs), len(p.Indices))
		}
		if first == nil {
			first = m
			continue
		}
		q := first.Meshes[0].Primitives[0]
		for i := range p.Colors {
			if p.Colors[i] != q.Colors[i] || p.Positions[i] != q.Positions[i] {
				t.Errorf("%s: vertex %d differs", v, i)
			}
		}
		for i := range m.Nodes {
			if !m.Nodes[i].World.ApproxEqual(first.Nodes[i].World) {
				t.Errorf("%s: node %d world differs", v, i)
			}
		}
	}
	p := first.Meshes[0].Primitives[0]
	distinct := map[mgl32.Vec4]bool{}
	for _, c := range p.Colors {
		distinct[c] = true
	}
	if len(distinct) < 2 {
		t.Errorf("vertex colours all alike: %v", p.Colors[0])
	}
	mat := first.Materials[0]
	if mat.Name != "Default" || mat.BaseColorFactor != (mgl32.Vec4{0.8, 0.8, 0.8, 1}) || mat.MetallicFactor != 0.1 || mat.RoughnessFactor != 0.99 || mat.AlphaMode != AlphaOpaque {
		t.Errorf("material %+v", mat)
	}
}

// Cube's textures are external PNGs whose sizes come from their headers.
func TestCubeTextures(t *testing.T) {
	m, err := Import(filepath.Join(sampleDir(t), "Cube", "glTF", "Cube.gltf"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Images) != 2 {
		t.Fatalf("%d images", len(m.Images))
	}
	for i, img := range m.Images {
		if img.Width <= 0 || img.Height <= 0 || img.MimeType != "image/png" || len(img.Data) == 0 {
			t.Errorf("image %d: %s %dx%d, %d bytes", i, img.MimeType, img.Width, img.Height, len(img.Data))
		}
	}
	mat := m.Materials[0]
	if mat.BaseColorTexture == nil || mat.BaseColorTexture.Texture != 0 || mat.MetallicRoughnessTexture == nil || mat.MetallicRoughnessTexture.Texture != 1 {
		t.Errorf("material textures %+v %+v", mat.BaseColorTexture, mat.MetallicRoughnessTexture)
	}
	if m.Samplers[0].WrapS != 10497 || m.Textures[0].Sampler != 0 || m.Textures[0].Source != 0 {
		t.Errorf("sampler %+v texture %+v", m.Samplers[0], m.Textures[0])
	}
}

func TestCamerasSample(t *testing.T) {
	m, err := Import(filepath.Join(sampleDir(t), "Cameras", "glTF", "Cameras.gltf"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p, o := m.Cameras[0], m.Cameras[1]
	if p.Type != "perspective" || p.YFov != 0.7 || p.AspectRatio != 1 || p.ZNear != 0.01 || p.ZFar != 100 {
		t.Errorf("perspective %+v", p)
	}
	if o.Type != "orthographic" || o.XMag != 1 || o.YMag != 1 {
		t.Errorf("orthographic %+v", o)
	}
	if m.Nodes[1].Camera != 0 || m.Nodes[2].Camera != 1 || m.Nodes[0].Mesh != 0 {
		t.Errorf("nodes %+v", m.Nodes)
	}
	if got := m.Nodes[1].World.Col(3); got != (mgl32.Vec4{0.5, 0.5, 3, 1}) {
		t.Errorf("camera node at %v", got)
	}
	// No normals in the file: computed, facing +Z for this square in the XY plane.
	for _, n := range m.Meshes[0].Primitives[0].Normals {
		if !n.ApproxEqual(mgl32.Vec3{0, 0, 1}) {
			t.Errorf("normal %v, want +Z", n)
		}
	}
}

// OrientationTest: each arrow node's world matrix turns its +Y axis the way its
// README says; here, node worlds are products of parent and local, and rotations are unit.
func TestOrientationWorlds(t *testing.T) {
	m, err := Import(filepath.Join(sampleDir(t), "OrientationTest", "glTF-Binary", "OrientationTest.glb"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range m.Nodes {
		want := n.Local
		if n.Parent >= 0 {
			want = m.Nodes[n.Parent].World.Mul4(n.Local)
		}
		if !n.World.ApproxEqualThreshold(want, 1e-5) {
			t.Errorf("node %d: world %v, want %v", i, n.World, want)
		}
	}
}
