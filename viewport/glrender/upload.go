package glrender

import (
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// mesh returns the GPU buffers of m, uploading it on first use. textured says its texture coordinates are
// read: then its vertices are not welded (flat.go), which would give faces meeting at a corner one coordinate.
func (d *drawer) mesh(m *assets.Mesh, textured bool, st *Stats) *gpuMesh {
	meshes := d.meshes
	if textured {
		meshes = d.texMeshes
	}
	if gm, ok := meshes[m]; ok {
		return gm
	}
	gm := &gpuMesh{indexCount: int32(len(m.Indices)), triangles: m.TriangleCount()}
	vertices, indices := m.Vertices, m.Indices
	// Vertex colours, tangents and second texture coordinates are per source vertex: such a mesh is drawn as it is,
	// not welded or pulled.
	n := m.VertexCount()
	extras := n > 0 && (len(m.Colors) == 4*n || len(m.Tangents) == 4*n || len(m.UVs1) == 2*n)
	if !extras && !textured && d.flat {
		if v, i, ok := flatVertices(m); ok {
			vertices, indices, gm.flat = v, i, true
		}
	}
	gl.GenBuffers(1, &gm.vbo)
	gl.BindBuffer(gl.ARRAY_BUFFER, gm.vbo)
	if n := len(vertices) * 4; n > 0 {
		gl.BufferData(gl.ARRAY_BUFFER, n, unsafe.Pointer(&vertices[0]), gl.STATIC_DRAW)
		d.countUpload(st, n)
	}
	gl.GenBuffers(1, &gm.ebo)
	gl.BindBuffer(gl.ARRAY_BUFFER, gm.ebo)
	if n := len(indices) * 4; n > 0 {
		gl.BufferData(gl.ARRAY_BUFFER, n, unsafe.Pointer(&indices[0]), gl.STATIC_DRAW)
		d.countUpload(st, n)
	}
	if n > 0 && len(m.Colors) == 4*n {
		gm.colors = d.arrayBuffer(m.Colors, st)
	}
	if n > 0 && len(m.Tangents) == 4*n {
		gm.tangents = d.arrayBuffer(m.Tangents, st)
	}
	if n > 0 && len(m.UVs1) == 2*n {
		gm.uvs1 = d.arrayBuffer(m.UVs1, st)
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	gm.closed = closedMesh(m)
	gm.box = boxMesh(m)
	if d.pull && !extras {
		d.pullMesh(gm, len(vertices)/assets.FloatsPerVertex, indices, st)
	}
	meshes[m] = gm
	return gm
}

// arrayBuffer uploads data into a new static buffer, left bound as the array buffer.
func (d *drawer) arrayBuffer(data []float32, st *Stats) uint32 {
	var b uint32
	gl.GenBuffers(1, &b)
	gl.BindBuffer(gl.ARRAY_BUFFER, b)
	gl.BufferData(gl.ARRAY_BUFFER, len(data)*4, unsafe.Pointer(&data[0]), gl.STATIC_DRAW)
	d.countUpload(st, len(data)*4)
	return b
}

// closedMesh reports whether m is a closed surface wound outwards: every edge (between two vertex positions) is
// shared by exactly two of its triangles, in opposite directions, and the enclosed volume is positive. From outside
// such a mesh its back faces are always behind its front faces, so they need not be drawn (back-face culling); an
// open mesh shows its inside, lit (meshFS), and is drawn whole.
func closedMesh(m *assets.Mesh) bool {
	if len(m.Indices) == 0 || len(m.Indices)%3 != 0 {
		return false
	}
	const stride = assets.FloatsPerVertex
	pos := func(i uint32) (mgl32.Vec3, bool) {
		o := int(i)*stride + assets.OffsetPosition/4
		if o+3 > len(m.Vertices) {
			return mgl32.Vec3{}, false
		}
		return mgl32.Vec3{m.Vertices[o], m.Vertices[o+1], m.Vertices[o+2]}, true
	}
	type edge struct{ a, b mgl32.Vec3 }
	count := make(map[edge]int, len(m.Indices))
	var vol float32
	for t := 0; t < len(m.Indices); t += 3 {
		var p [3]mgl32.Vec3
		for k := range 3 {
			v, ok := pos(m.Indices[t+k])
			if !ok {
				return false
			}
			p[k] = v
		}
		vol += p[0].Dot(p[1].Cross(p[2]))
		for k := range 3 {
			a, b := p[k], p[(k+1)%3]
			if a == b {
				return false
			}
			count[edge{a, b}]++
		}
	}
	for e, n := range count {
		if n != 1 || count[edge{e.b, e.a}] != 1 {
			return false
		}
	}
	return vol > 0
}

func deleteMesh(gm *gpuMesh) {
	gl.DeleteBuffers(1, &gm.vbo)
	gl.DeleteBuffers(1, &gm.ebo)
	for _, b := range []*uint32{&gm.colors, &gm.tangents, &gm.uvs1} {
		if *b != 0 {
			gl.DeleteBuffers(1, b)
		}
	}
	if gm.pulled != nil {
		gm.pulled.delete()
	}
}

// setupMeshAttribs points the bound VAO's vertex attributes 0..2 at gm
// (interleaved pos3/normal3/uv2), its colours, tangents and second texture coordinates (off for a mesh without),
// and binds its index buffer.
func setupMeshAttribs(gm *gpuMesh) {
	gl.BindBuffer(gl.ARRAY_BUFFER, gm.vbo)
	for _, a := range [...]struct {
		loc       uint32
		size, off int
	}{{locPos, 3, assets.OffsetPosition}, {locNormal, 3, assets.OffsetNormal}, {locUV, 2, assets.OffsetUV}} {
		gl.EnableVertexAttribArray(a.loc)
		gl.VertexAttribPointerWithOffset(a.loc, int32(a.size), gl.FLOAT, false, assets.VertexStride, uintptr(a.off))
	}
	for _, a := range [...]struct {
		loc, buf uint32
		size     int32
	}{{locVertexColor, gm.colors, 4}, {locTangent, gm.tangents, 4}, {locUV1, gm.uvs1, 2}} {
		if a.buf == 0 {
			gl.DisableVertexAttribArray(a.loc)
			continue
		}
		gl.BindBuffer(gl.ARRAY_BUFFER, a.buf)
		gl.EnableVertexAttribArray(a.loc)
		gl.VertexAttribPointerWithOffset(a.loc, a.size, gl.FLOAT, false, 4*a.size, 0)
	}
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, gm.ebo)
}

// Byte offsets of viewport.Instance fields in the instance buffer.
var (
	offColor = int(unsafe.Offsetof(viewport.Instance{}.Color))
	offID    = int(unsafe.Offsetof(viewport.Instance{}.ID))
	offFlags = int(unsafe.Offsetof(viewport.Instance{}.Flags))
)

// setupInstanceAttribs points the bound VAO's attributes 3..9 at the bound
// instance buffer from byte base on, one step per instance, reading every
// stride-th instance.
func setupInstanceAttribs(stride int, base uintptr, divisor uint32) {
	st := int32(viewport.InstanceSize * stride)
	for c := range uint32(4) {
		gl.EnableVertexAttribArray(locModel + c)
		gl.VertexAttribPointerWithOffset(locModel+c, 4, gl.FLOAT, false, st, base+uintptr(c*16))
		gl.VertexAttribDivisor(locModel+c, divisor)
	}
	gl.EnableVertexAttribArray(locColor)
	gl.VertexAttribPointerWithOffset(locColor, 4, gl.FLOAT, false, st, base+uintptr(offColor))
	gl.VertexAttribDivisor(locColor, divisor)
	gl.EnableVertexAttribArray(locID)
	gl.VertexAttribIPointerWithOffset(locID, 1, gl.UNSIGNED_INT, st, base+uintptr(offID))
	gl.VertexAttribDivisor(locID, divisor)
	gl.EnableVertexAttribArray(locFlags)
	gl.VertexAttribIPointerWithOffset(locFlags, 1, gl.UNSIGNED_INT, st, base+uintptr(offFlags))
	gl.VertexAttribDivisor(locFlags, divisor)
}

// gpuMesh is one uploaded *assets.Mesh.
type gpuMesh struct {
	vbo, ebo   uint32
	indexCount int32
	triangles  int
	closed     bool        // a closed surface wound outwards: its back faces are culled (closedMesh)
	pulled     *pulledMesh // how a small mesh is drawn without instancing (pull.go); nil for bigger ones
	flat       bool        // drawn with FLAT_NORMAL, its vertices shared between faces (flat.go)
	box        *meshBox    // the box the mesh is, if it is one: small instances are drawn as points (points.go)
	// Buffers of the vertex colours and tangents (4 floats a vertex) and second texture coordinates (2), 0 for a
	// mesh without.
	colors, tangents, uvs1 uint32
}

// keepMeshes frees the meshes that used does not report used.
func (d *drawer) keepMeshes(used func(m *assets.Mesh) bool) {
	for _, meshes := range []map[*assets.Mesh]*gpuMesh{d.meshes, d.texMeshes} {
		for m, gm := range meshes {
			if !used(m) {
				deleteMesh(gm)
				delete(meshes, m)
			}
		}
	}
}
