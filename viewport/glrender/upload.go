package glrender

import (
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// minInstanceCapacity is the smallest instance buffer allocated for a batch.
const minInstanceCapacity = 64

// mesh returns the GPU buffers of m, uploading it on first use.
func (r *Renderer) mesh(m *assets.Mesh) *gpuMesh {
	if gm, ok := r.meshes[m]; ok {
		return gm
	}
	gm := &gpuMesh{indexCount: int32(len(m.Indices)), triangles: m.TriangleCount()}
	gl.GenBuffers(1, &gm.vbo)
	gl.BindBuffer(gl.ARRAY_BUFFER, gm.vbo)
	if n := len(m.Vertices) * 4; n > 0 {
		gl.BufferData(gl.ARRAY_BUFFER, n, unsafe.Pointer(&m.Vertices[0]), gl.STATIC_DRAW)
		r.countUpload(n)
	}
	gl.GenBuffers(1, &gm.ebo)
	gl.BindBuffer(gl.ARRAY_BUFFER, gm.ebo)
	if n := len(m.Indices) * 4; n > 0 {
		gl.BufferData(gl.ARRAY_BUFFER, n, unsafe.Pointer(&m.Indices[0]), gl.STATIC_DRAW)
		r.countUpload(n)
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	r.meshes[m] = gm
	return gm
}

func deleteMesh(gm *gpuMesh) {
	gl.DeleteBuffers(1, &gm.vbo)
	gl.DeleteBuffers(1, &gm.ebo)
}

func (r *Renderer) countUpload(n int) {
	r.stats.UploadedBytes += n
	r.stats.UploadCalls++
	r.stats.TotalUploaded += uint64(n)
}

// setupMeshAttribs points the bound VAO's vertex attributes 0..2 at gm
// (interleaved pos3/normal3/uv2) and binds its index buffer.
func setupMeshAttribs(gm *gpuMesh) {
	gl.BindBuffer(gl.ARRAY_BUFFER, gm.vbo)
	for _, a := range [...]struct {
		loc       uint32
		size, off int
	}{{locPos, 3, assets.OffsetPosition}, {locNormal, 3, assets.OffsetNormal}, {locUV, 2, assets.OffsetUV}} {
		gl.EnableVertexAttribArray(a.loc)
		gl.VertexAttribPointerWithOffset(a.loc, int32(a.size), gl.FLOAT, false, assets.VertexStride, uintptr(a.off))
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
// instance buffer, one step per instance.
func setupInstanceAttribs() {
	const stride = int32(viewport.InstanceSize)
	for c := range uint32(4) {
		gl.EnableVertexAttribArray(locModel + c)
		gl.VertexAttribPointerWithOffset(locModel+c, 4, gl.FLOAT, false, stride, uintptr(c*16))
		gl.VertexAttribDivisor(locModel+c, 1)
	}
	gl.EnableVertexAttribArray(locColor)
	gl.VertexAttribPointerWithOffset(locColor, 4, gl.FLOAT, false, stride, uintptr(offColor))
	gl.VertexAttribDivisor(locColor, 1)
	gl.EnableVertexAttribArray(locID)
	gl.VertexAttribIPointerWithOffset(locID, 1, gl.UNSIGNED_INT, stride, uintptr(offID))
	gl.VertexAttribDivisor(locID, 1)
	gl.EnableVertexAttribArray(locFlags)
	gl.VertexAttribIPointerWithOffset(locFlags, 1, gl.UNSIGNED_INT, stride, uintptr(offFlags))
	gl.VertexAttribDivisor(locFlags, 1)
}

// resetBatches frees the per-batch GPU state (for a new draw list).
func (r *Renderer) resetBatches() {
	for i := range r.batches {
		st := &r.batches[i]
		if st.vao != 0 {
			gl.DeleteVertexArrays(1, &st.vao)
		}
		if st.ivbo != 0 {
			gl.DeleteBuffers(1, &st.ivbo)
		}
	}
	r.batches = r.batches[:0]
	r.dl = nil
}

// sync brings the GPU copies of dl up to date: meshes are uploaded once per
// *assets.Mesh, instance buffers grow by doubling (a full upload) or get
// only their dirty ranges (glBufferSubData); dirty ranges are then cleared.
// Meshes no batch refers to any more are freed.
func (r *Renderer) sync(dl *viewport.DrawList) {
	if dl != r.dl {
		r.resetBatches()
		r.dl = dl
	}
	for _, gm := range r.meshes {
		gm.used = false
	}
	for i, b := range dl.Batches() {
		if i == len(r.batches) {
			r.batches = append(r.batches, batchState{})
		}
		st := &r.batches[i]
		if st.vao == 0 {
			gl.GenVertexArrays(1, &st.vao)
			gl.GenBuffers(1, &st.ivbo)
			gl.BindVertexArray(st.vao)
			gl.BindBuffer(gl.ARRAY_BUFFER, st.ivbo)
			setupInstanceAttribs()
		}
		var gm *gpuMesh
		if b.Mesh != nil {
			gm = r.mesh(b.Mesh)
			gm.used = true
		}
		if gm != st.mesh {
			gl.BindVertexArray(st.vao)
			if gm != nil {
				setupMeshAttribs(gm)
			}
			st.mesh = gm
		}
		r.uploadInstances(st, b)
	}
	gl.BindVertexArray(0)
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	for m, gm := range r.meshes {
		if !gm.used {
			deleteMesh(gm)
			delete(r.meshes, m)
		}
	}
}

func (r *Renderer) uploadInstances(st *batchState, b *viewport.Batch) {
	n := b.Len()
	const size = viewport.InstanceSize
	gl.BindBuffer(gl.ARRAY_BUFFER, st.ivbo)
	if n > st.capacity {
		st.capacity = max(n, 2*st.capacity, minInstanceCapacity)
		gl.BufferData(gl.ARRAY_BUFFER, st.capacity*size, nil, gl.DYNAMIC_DRAW)
		gl.BufferSubData(gl.ARRAY_BUFFER, 0, n*size, unsafe.Pointer(&b.Instances[0]))
		r.countUpload(n * size)
	} else {
		for _, rg := range b.Dirty() {
			gl.BufferSubData(gl.ARRAY_BUFFER, rg.Start*size, rg.Len()*size, unsafe.Pointer(&b.Instances[rg.Start]))
			r.countUpload(rg.Len() * size)
		}
	}
	b.ClearDirty()
}
