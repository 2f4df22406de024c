package glrender

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/viewport"
)

// Pulled drawing (pulledVS): the instances of a small mesh are drawn without instancing, by one glDrawElements
// whose vertex ids name the instance and the mesh vertex, which the vertex shader reads from buffer textures (the
// chunk's instance buffer and the mesh's vertex buffer). Mesa's llvmpipe runs its whole vertex pipeline once per
// instance of an instanced draw (fetch, vertex shader, clipping, emitting, setup), which for a cube of 24 vertices
// costs about as much again as the vertices themselves; pulled, 100,000 cubes are one pipeline run per chunk.

// pullMaxVertices is the most vertices a mesh may have to be drawn pulled (the built-in cube has 24, the plane 4);
// bigger meshes spend their time in their vertices, and their index buffer of pullInstances copies would be big.
const pullMaxVertices = 32

// pullInstances is how many instances one pulled draw takes at most: the copies of the mesh's indices in its
// pulled index buffer (a chunk holds at most viewport.MaxChunk instances; more are drawn in several draws).
const pullInstances = viewport.MaxChunk

// instanceTexels is a viewport.Instance's size in RG32UI texels (8 bytes); the colour and the id with the flags
// are at these texels of it.
const (
	instanceTexels = viewport.InstanceSize / 8
	colorTexel     = 8
	idTexel        = 10
)

// The layout pulledVS reads; checked once here so that a change of viewport.Instance fails loudly.
func init() {
	if viewport.InstanceSize%8 != 0 || offColor != colorTexel*8 || offID != idTexel*8 || offFlags != offID+4 {
		panic(fmt.Sprintf("glrender: viewport.Instance's layout (size %d, colour at %d, id at %d, flags at %d) is not the one pulledVS reads",
			viewport.InstanceSize, offColor, offID, offFlags))
	}
}

// pulledDefines are pulledVS's layout constants.
var pulledDefines = []string{
	fmt.Sprintf("INSTANCE_TEXELS %d", instanceTexels),
	fmt.Sprintf("COLOR_TEXEL %d", colorTexel),
	fmt.Sprintf("ID_TEXEL %d", idTexel),
}

// Texture units of pulledVS's buffer textures (compose uses 0–2).
const (
	unitInst = 3
	unitMesh = 4
)

// pulledMesh is the GPU state of a mesh drawn pulled.
type pulledMesh struct {
	shift uint   // vertex ids are instance << shift | vertex
	tex   uint32 // buffer texture over the mesh's vertex buffer (RGBA32F, two texels a vertex)
	ebo   uint32 // the mesh's indices, pullInstances times, each copy's by 1 << shift more
	vao   uint32 // binds ebo, no attributes
}

// pullMesh readies gm (just uploaded: n vertices, indices) for pulled drawing when it is small enough.
func (d *drawer) pullMesh(gm *gpuMesh, n int, indices []uint32, st *Stats) {
	if n == 0 || n > pullMaxVertices || len(indices) == 0 {
		return
	}
	pm := &pulledMesh{shift: uint(bits.Len(uint(n - 1)))}
	idx := make([]uint32, 0, len(indices)*pullInstances)
	for k := range uint32(pullInstances) {
		for _, i := range indices {
			idx = append(idx, k<<pm.shift|i)
		}
	}
	gl.GenVertexArrays(1, &pm.vao)
	gl.BindVertexArray(pm.vao)
	gl.GenBuffers(1, &pm.ebo)
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, pm.ebo)
	gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, len(idx)*4, unsafe.Pointer(&idx[0]), gl.STATIC_DRAW)
	d.countUpload(st, len(idx)*4)
	gl.BindVertexArray(0)
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, 0)
	pm.tex = bufferTexture(gm.vbo, gl.RGBA32F)
	gm.pulled = pm
}

// delete frees pm's GL objects.
func (pm *pulledMesh) delete() {
	gl.DeleteVertexArrays(1, &pm.vao)
	gl.DeleteBuffers(1, &pm.ebo)
	gl.DeleteTextures(1, &pm.tex)
}

// bufferTexture returns a new buffer texture reading buffer buf as format.
func bufferTexture(buf uint32, format uint32) uint32 {
	var t uint32
	gl.GenTextures(1, &t)
	gl.BindTexture(gl.TEXTURE_BUFFER, t)
	gl.TexBuffer(gl.TEXTURE_BUFFER, format, buf)
	gl.BindTexture(gl.TEXTURE_BUFFER, 0)
	return t
}

// canPull reports whether n instances from base on at stride of a buffer of capacity instances can be drawn
// pulled with gm: the mesh is small and the buffer fits the buffer texture size the context allows.
func (d *drawer) canPull(gm *gpuMesh, capacity int) bool {
	return gm.pulled != nil && capacity*instanceTexels <= d.maxTexels
}

// drawPulled draws n instances with gm (pulled: canPull), instance base + k×stride of the instance buffer whose
// buffer texture is tex, with the pulled program in use.
func (d *drawer) drawPulled(gm *gpuMesh, tex uint32, base, stride, n int) {
	pm := gm.pulled
	gl.ActiveTexture(gl.TEXTURE0 + unitInst)
	gl.BindTexture(gl.TEXTURE_BUFFER, tex)
	gl.ActiveTexture(gl.TEXTURE0 + unitMesh)
	gl.BindTexture(gl.TEXTURE_BUFFER, pm.tex)
	gl.ActiveTexture(gl.TEXTURE0)
	prog := d.inUse
	gl.Uniform1i(prog.loc("uShift"), int32(pm.shift))
	gl.Uniform1i(prog.loc("uStride"), int32(stride))
	gl.BindVertexArray(pm.vao)
	for n > 0 {
		k := min(n, pullInstances)
		gl.Uniform1i(prog.loc("uBase"), int32(base))
		gl.DrawElements(gl.TRIANGLES, int32(k)*gm.indexCount, gl.UNSIGNED_INT, nil)
		base += k * stride
		n -= k
	}
}

// useMeshProgram makes the program that draws gm's instances from a buffer of capacity instances with material mat
// (nil: in their colours) the one in use, and reports whether they are drawn pulled.
func (d *drawer) useMeshProgram(gm *gpuMesh, capacity int, mat *gpuMaterial) bool {
	pull := d.canPull(gm, capacity)
	v := variantOf(gm, mat, pull, d.lightSet.oneDirectional())
	p := d.meshProgs[v]
	if p == nil {
		p = d.makeVariant(v)
	}
	if d.inUse != p {
		gl.UseProgram(p.id)
		d.inUse = p
	}
	d.passUniforms(p)
	return pull
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
