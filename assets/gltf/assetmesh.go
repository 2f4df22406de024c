package gltf

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/internal/words"
)

func init() {
	for _, ext := range []string{".gltf", ".glb"} {
		assets.RegisterMeshFormat(ext, LoadMesh)
		assets.RegisterMeshPartFormat(ext, LoadPart)
		assets.RegisterImagePartFormat(ext, LoadImagePart)
	}
}

// LoadMesh imports the .gltf or .glb file at path as one mesh asset: every triangle primitive
// of the default scene (every root node when the file names none), placed by its node's world
// matrix, merged into a single [assets.Mesh]. Materials, textures and vertex colours are not
// kept. lim.MaxFileBytes bounds the file, MaxVertices and MaxTriangles both the file's meshes
// and the merged mesh (a mesh used by several nodes counts once per node). Like
// [assets.LoadOBJ] it does no path-safety checks of path itself.
func LoadMesh(path string, lim assets.Limits) (*assets.Mesh, error) {
	lim = lim.WithDefaults()
	m, err := Import(path, Limits{MaxBytes: lim.MaxFileBytes, MaxVertices: lim.MaxVertices, MaxTriangles: lim.MaxTriangles})
	if err != nil {
		return nil, err
	}
	nodes := m.sceneNodes()
	var verts, tris int64
	for _, n := range nodes {
		for _, p := range m.Meshes[m.Nodes[n].Mesh].Primitives {
			if !p.Skipped {
				verts += int64(len(p.Positions))
				tris += int64(len(p.Indices) / 3)
			}
		}
	}
	switch {
	case verts > int64(lim.MaxVertices):
		return nil, fmt.Errorf("%s: the scene places %s vertices, over the limit of %s (Limits.MaxVertices): %w", path, words.Thousands(verts), words.Thousands(int64(lim.MaxVertices)), assets.ErrLimit)
	case tris > int64(lim.MaxTriangles):
		return nil, fmt.Errorf("%s: the scene places %s triangles, over the limit of %s (Limits.MaxTriangles): %w", path, words.Thousands(tris), words.Thousands(int64(lim.MaxTriangles)), assets.ErrLimit)
	case tris == 0:
		return nil, fmt.Errorf("%s: no triangles: the scene's nodes use no mesh with triangles", path)
	}
	vb := make([]float32, 0, verts*assets.FloatsPerVertex)
	ib := make([]uint32, 0, tris*3)
	for _, n := range nodes {
		world := m.Nodes[n].World
		normalM := world.Mat3().Inv().Transpose()
		mirrored := world.Mat3().Det() < 0
		for _, p := range m.Meshes[m.Nodes[n].Mesh].Primitives {
			if p.Skipped {
				continue
			}
			base := uint32(len(vb) / assets.FloatsPerVertex)
			for i, pos := range p.Positions {
				w := world.Mul4x1(pos.Vec4(1)).Vec3()
				nrm := normalM.Mul3x1(p.Normals[i])
				if l := nrm.Len(); l > 0 {
					nrm = nrm.Mul(1 / l)
				}
				var uv mgl32.Vec2
				if i < len(p.UVs) {
					uv = p.UVs[i]
				}
				vb = append(vb, w[0], w[1], w[2], nrm[0], nrm[1], nrm[2], uv[0], uv[1])
			}
			for t := 0; t+2 < len(p.Indices); t += 3 {
				a, b, c := p.Indices[t], p.Indices[t+1], p.Indices[t+2]
				if mirrored { // a mirroring matrix turns counter-clockwise into clockwise
					b, c = c, b
				}
				ib = append(ib, base+a, base+b, base+c)
			}
		}
	}
	return assets.NewMesh(vb, ib), nil
}

// sceneNodes returns the nodes with a mesh in the default scene (every root node's tree when
// the file names no default scene), depth first.
func (m *Model) sceneNodes() []int {
	var stack []int
	if m.Scene >= 0 {
		stack = append(stack, m.Scenes[m.Scene].Nodes...)
	} else {
		for i, n := range m.Nodes {
			if n.Parent < 0 {
				stack = append(stack, i)
			}
		}
	}
	var out []int
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if m.Nodes[n].Mesh >= 0 {
			out = append(out, n)
		}
		stack = append(stack, m.Nodes[n].Children...)
	}
	return out
}
