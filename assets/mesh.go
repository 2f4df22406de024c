package assets

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Vertex layout of [Mesh.Vertices]: interleaved float32 position (3), normal (3) and uv (2).
const (
	// FloatsPerVertex is the number of float32 values per vertex.
	FloatsPerVertex = 8
	// VertexStride is the size of one vertex in bytes (the stride for glVertexAttribPointer).
	VertexStride = FloatsPerVertex * 4
	// OffsetPosition is the byte offset of the position (3 × float32) inside a vertex.
	OffsetPosition = 0
	// OffsetNormal is the byte offset of the normal (3 × float32) inside a vertex.
	OffsetNormal = 12
	// OffsetUV is the byte offset of the texture coordinate (2 × float32) inside a vertex.
	OffsetUV = 24
)

// Mesh is indexed triangle geometry ready to upload to a GPU.
//
// A Mesh is immutable once it has been returned by this package: share it freely between
// readers, never write into its slices. A reload produces a new Mesh with a larger Version.
type Mesh struct {
	// Ref is the normalized reference the mesh was loaded from ("builtin:cube", "models/a.obj").
	Ref string
	// Vertices is the interleaved vertex buffer, FloatsPerVertex floats per vertex
	// (see VertexStride, OffsetPosition, OffsetNormal, OffsetUV).
	Vertices []float32
	// Colors is nil or holds a linear RGBA colour per vertex (4 floats), multiplied into the surface's
	// colour (a glTF primitive's COLOR_0).
	Colors []float32
	// UVs1 is nil or holds a second texture coordinate per vertex (2 floats: a glTF primitive's
	// TEXCOORD_1), read by the textures that name it.
	UVs1 []float32
	// Tangents is nil or holds a tangent per vertex (4 floats: xyz along +u of the texture
	// coordinates, w the sign that turns normal × tangent into −v, up the image), for normal maps.
	Tangents []float32
	// Indices lists triangles as triples of vertex indices, counter-clockwise when seen from
	// the front (as written in the file for OBJ meshes).
	Indices []uint32
	// Min and Max are the axis-aligned bounds of the referenced vertex positions.
	Min, Max mgl32.Vec3
	// Version identifies this content: built-in meshes have version 1, and a Registry gives
	// every mesh it loads or reloads a larger version than any it handed out before. Renderers
	// re-upload when (Ref, Version) changes.
	Version uint64
	// Placeholder is true for the stand-in mesh shown for refused or broken references.
	Placeholder bool
}

// VertexCount returns the number of vertices in the vertex buffer.
func (m *Mesh) VertexCount() int { return len(m.Vertices) / FloatsPerVertex }

// TriangleCount returns the number of triangles in the index buffer.
func (m *Mesh) TriangleCount() int { return len(m.Indices) / 3 }

// Position returns the position of vertex i.
func (m *Mesh) Position(i int) mgl32.Vec3 {
	v := m.Vertices[i*FloatsPerVertex:]
	return mgl32.Vec3{v[0], v[1], v[2]}
}

// Normal returns the normal of vertex i.
func (m *Mesh) Normal(i int) mgl32.Vec3 {
	v := m.Vertices[i*FloatsPerVertex+3:]
	return mgl32.Vec3{v[0], v[1], v[2]}
}

// UV returns the texture coordinate of vertex i.
func (m *Mesh) UV(i int) mgl32.Vec2 {
	v := m.Vertices[i*FloatsPerVertex+6:]
	return mgl32.Vec2{v[0], v[1]}
}

// Center returns the middle of the bounds.
func (m *Mesh) Center() mgl32.Vec3 { return m.Min.Add(m.Max).Mul(0.5) }

// Radius returns the radius of the sphere around Center that encloses the bounds.
func (m *Mesh) Radius() float32 { return m.Max.Sub(m.Min).Len() * 0.5 }

// withVersion returns a shallow copy of m (sharing its read-only slices) with ref and version set.
func (m *Mesh) withVersion(ref string, version uint64) *Mesh {
	c := *m
	c.Ref = ref
	c.Version = version
	return &c
}

// computeBounds sets m.Min and m.Max from the vertex positions; an empty mesh gets zero bounds.
func (m *Mesh) computeBounds() {
	if len(m.Vertices) == 0 {
		m.Min, m.Max = mgl32.Vec3{}, mgl32.Vec3{}
		return
	}
	inf := float32(math.Inf(1))
	lo := mgl32.Vec3{inf, inf, inf}
	hi := mgl32.Vec3{-inf, -inf, -inf}
	for i := 0; i+2 < len(m.Vertices); i += FloatsPerVertex {
		for k := range 3 {
			c := m.Vertices[i+k]
			lo[k] = min(lo[k], c)
			hi[k] = max(hi[k], c)
		}
	}
	m.Min, m.Max = lo, hi
}
