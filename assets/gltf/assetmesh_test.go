package gltf_test

import (
	"encoding/base64"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/assets/gltf"
)

// copySample copies a sample model from ../shared/testdata/gltf into dir under name.
func copySample(t *testing.T, sample, dir, name string) string {
	t.Helper()
	shared := filepath.Join("..", "..", "..", "shared")
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("skipping: ../shared (project test inputs) is absent beside the repository: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(shared, "testdata", "gltf", sample))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRegistryLoadsGLB: a .glb in the scene folder is listed by Scan and loads as one mesh with
// every triangle of the model, placed by the node transforms (bounds computed here from the
// importer's world matrices, normals unit length).
func TestRegistryLoadsGLB(t *testing.T) {
	for _, tc := range []struct{ sample, name string }{
		{"BoxVertexColors/glTF-Binary/BoxVertexColors.glb", "Box.glb"},
		{"OrientationTest/glTF-Binary/OrientationTest.glb", "models/Orientation.GLB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "models"), 0o755); err != nil {
				t.Fatal(err)
			}
			p := copySample(t, tc.sample, dir, tc.name)
			model, err := gltf.Import(p, gltf.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			r := assets.NewRegistry(dir, assets.DefaultLimits())
			if err := r.Scan(); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(r.List(), tc.name) {
				t.Errorf("List() = %q, want it to hold %q", r.List(), tc.name)
			}
			m, err := r.Mesh(tc.name)
			if err != nil {
				t.Fatalf("Mesh(%q): %v", tc.name, err)
			}
			if m.Placeholder || m.Ref != tc.name {
				t.Errorf("mesh Placeholder %v Ref %q", m.Placeholder, m.Ref)
			}
			// Every node of these samples is in the default scene and each mesh is used once.
			c := model.Counts()
			if m.TriangleCount() != c.Triangles || m.VertexCount() != c.Vertices {
				t.Errorf("mesh has %d triangles, %d vertices; the importer read %d, %d", m.TriangleCount(), m.VertexCount(), c.Triangles, c.Vertices)
			}
			inf := float32(math.Inf(1))
			lo, hi := mgl32.Vec3{inf, inf, inf}, mgl32.Vec3{-inf, -inf, -inf}
			for _, n := range model.Nodes {
				if n.Mesh < 0 {
					continue
				}
				for _, pr := range model.Meshes[n.Mesh].Primitives {
					for _, pos := range pr.Positions {
						w := n.World.Mul4x1(pos.Vec4(1)).Vec3()
						for k := range 3 {
							lo[k], hi[k] = min(lo[k], w[k]), max(hi[k], w[k])
						}
					}
				}
			}
			if !m.Min.ApproxEqualThreshold(lo, 1e-5) || !m.Max.ApproxEqualThreshold(hi, 1e-5) {
				t.Errorf("bounds %v..%v, want %v..%v", m.Min, m.Max, lo, hi)
			}
			for i := range m.VertexCount() {
				if l := m.Normal(i).Len(); math.Abs(float64(l)-1) > 1e-4 {
					t.Fatalf("vertex %d normal %v has length %v", i, m.Normal(i), l)
				}
			}
		})
	}
}

// TestGLBTransformsNormals: a node that scales x by 2 and mirrors y places the vertices scaled,
// turns the normals by the inverse-transpose (unit length) and keeps the triangles
// counter-clockwise from the front.
func TestGLBTransformsNormals(t *testing.T) {
	dir := t.TempDir()
	// One triangle in the z=0 plane facing +z, under a node with scale (2, -1, 1).
	gltfText := `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
"nodes":[{"mesh":0,"scale":[2,-1,1]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":1}}]}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
{"bufferView":0,"byteOffset":36,"componentType":5126,"count":3,"type":"VEC3"}],
"bufferViews":[{"buffer":0,"byteLength":72}],
"buffers":[{"byteLength":72,"uri":"data:application/octet-stream;base64,` + triangleBase64 + `"}]}`
	if err := os.WriteFile(filepath.Join(dir, "tri.gltf"), []byte(gltfText), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := assets.NewRegistry(dir, assets.Limits{}).Mesh("tri.gltf")
	if err != nil {
		t.Fatal(err)
	}
	want := []mgl32.Vec3{{0, 0, 0}, {2, 0, 0}, {0, -1, 0}}
	got := []mgl32.Vec3{m.Position(int(m.Indices[0])), m.Position(int(m.Indices[1])), m.Position(int(m.Indices[2]))}
	// The mirror turns the winding: the loader swaps the last two corners back.
	wantCCW := []mgl32.Vec3{want[0], want[2], want[1]}
	for i := range 3 {
		if !got[i].ApproxEqual(wantCCW[i]) {
			t.Fatalf("triangle corners %v, want %v", got, wantCCW)
		}
	}
	if face := got[1].Sub(got[0]).Cross(got[2].Sub(got[0])).Normalize(); !face.ApproxEqual(mgl32.Vec3{0, 0, 1}) {
		t.Errorf("the triangle faces %v, want (0,0,1)", face)
	}
	// The stored normal (1,1,0) turns by the inverse-transpose diag(1/2, -1, 1), not by the
	// matrix itself (which would give (2,-1,0)).
	wantN := mgl32.Vec3{0.5, -1, 0}.Normalize()
	for i := range 3 {
		if n := m.Normal(i); !n.ApproxEqualThreshold(wantN, 1e-5) {
			t.Errorf("normal %d = %v, want %v", i, n, wantN)
		}
	}
}

// triangleBase64 is positions (0,0,0) (1,0,0) (0,1,0) then three normals (1,1,0), float32 LE.
var triangleBase64 = func() string {
	f := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0}
	b := make([]byte, 0, 72)
	for _, v := range f {
		u := math.Float32bits(v)
		b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
	}
	return base64.StdEncoding.EncodeToString(b)
}()

// TestBrokenGLBIsARegistryError: a truncated .glb is refused with the reason (the placeholder
// shows), the same way a broken OBJ is, and Err reports it.
func TestBrokenGLBIsARegistryError(t *testing.T) {
	dir := t.TempDir()
	p := copySample(t, "BoxVertexColors/glTF-Binary/BoxVertexColors.glb", dir, "Box.glb")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	r := assets.NewRegistry(dir, assets.Limits{})
	m, err := r.Mesh("Box.glb")
	if err == nil || !m.Placeholder {
		t.Fatalf("Mesh of a truncated .glb = placeholder %v, err %v; want the placeholder and an error", m.Placeholder, err)
	}
	if !strings.Contains(err.Error(), "Box.glb") || !strings.Contains(err.Error(), "truncated") || r.Err("Box.glb") == nil {
		t.Errorf("error %q should name Box.glb and say it is truncated, Err = %v", err, r.Err("Box.glb"))
	}
}

// TestGLBMergedLimit: a mesh used by three nodes counts three times against the registry's
// MaxTriangles, though the file itself holds one triangle.
func TestGLBMergedLimit(t *testing.T) {
	dir := t.TempDir()
	gltfText := `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0,1,2]}],
"nodes":[{"mesh":0},{"mesh":0,"translation":[2,0,0]},{"mesh":0,"translation":[4,0,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"bufferViews":[{"buffer":0,"byteLength":72}],
"buffers":[{"byteLength":72,"uri":"data:application/octet-stream;base64,` + triangleBase64 + `"}]}`
	if err := os.WriteFile(filepath.Join(dir, "three.gltf"), []byte(gltfText), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := assets.NewRegistry(dir, assets.Limits{MaxTriangles: 3}).Mesh("three.gltf")
	if err != nil || m.TriangleCount() != 3 || m.Max.X() != 5 {
		t.Fatalf("within the limit: %d triangles, max %v, err %v; want 3, x 5, nil", m.TriangleCount(), m.Max, err)
	}
	_, err = assets.NewRegistry(dir, assets.Limits{MaxTriangles: 2}).Mesh("three.gltf")
	if !errors.Is(err, assets.ErrLimit) || !strings.Contains(err.Error(), "the scene places 3 triangles, over the limit of 2 (Limits.MaxTriangles)") {
		t.Fatalf("over the limit: err %v", err)
	}
}
