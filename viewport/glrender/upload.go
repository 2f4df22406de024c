package glrender

import (
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// minInstanceCapacity is the smallest instance buffer allocated for a batch.
const minInstanceCapacity = 64

// respecifyMin is the fewest dirty instances for which a chunk that changed mostly gets new buffer storage
// (uploadChunk); fewer are written into the storage it has.
const respecifyMin = 64

// mesh returns the GPU buffers of m, uploading it on first use.
func (r *Renderer) mesh(m *assets.Mesh) *gpuMesh {
	if gm, ok := r.meshes[m]; ok {
		return gm
	}
	gm := &gpuMesh{indexCount: int32(len(m.Indices)), triangles: m.TriangleCount()}
	vertices, indices := m.Vertices, m.Indices
	if v, i, ok := flatVertices(m); ok && !r.noFlat {
		vertices, indices, gm.flat = v, i, true
	}
	gl.GenBuffers(1, &gm.vbo)
	gl.BindBuffer(gl.ARRAY_BUFFER, gm.vbo)
	if n := len(vertices) * 4; n > 0 {
		gl.BufferData(gl.ARRAY_BUFFER, n, unsafe.Pointer(&vertices[0]), gl.STATIC_DRAW)
		r.countUpload(r.uploadStats(), n)
	}
	gl.GenBuffers(1, &gm.ebo)
	gl.BindBuffer(gl.ARRAY_BUFFER, gm.ebo)
	if n := len(indices) * 4; n > 0 {
		gl.BufferData(gl.ARRAY_BUFFER, n, unsafe.Pointer(&indices[0]), gl.STATIC_DRAW)
		r.countUpload(r.uploadStats(), n)
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	gm.closed = closedMesh(m)
	if !r.noPull {
		r.pullMesh(gm, len(vertices)/assets.FloatsPerVertex, indices)
	}
	r.meshes[m] = gm
	return gm
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

// scanMirrored brings cs.mirrored up to date with chunk c: whether one of its instances is mirrored (a negative
// determinant turns its triangles' winding around). The chunk's state caches the scan.
func scanMirrored(cs *chunkState, c *viewport.Chunk) {
	if cs.mirrorAt == c.Changes()+1 {
		return
	}
	cs.mirrored = false
	for i := range c.Instances {
		if c.Instances[i].World.Mat3().Det() < 0 {
			cs.mirrored = true
			break
		}
	}
	cs.mirrorAt = c.Changes() + 1
}

// cull turns back-face culling on for the instances of a chunk when its mesh is closed and none of them is
// mirrored (as of the last scanMirrored).
func (r *Renderer) cull(cs *chunkState, gm *gpuMesh) {
	on := gm.closed && !cs.mirrored
	if on != r.culling {
		if on {
			gl.Enable(gl.CULL_FACE)
		} else {
			gl.Disable(gl.CULL_FACE)
		}
		r.culling = on
	}
}

func deleteMesh(gm *gpuMesh) {
	gl.DeleteBuffers(1, &gm.vbo)
	gl.DeleteBuffers(1, &gm.ebo)
	if gm.pulled != nil {
		gm.pulled.delete()
	}
}

func (r *Renderer) countUpload(st *Stats, n int) {
	if st != nil {
		st.UploadedBytes += n
		st.UploadCalls++
	}
	r.totalUploaded += uint64(n)
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
// instance buffer, one step per instance, reading every stride-th instance.
func setupInstanceAttribs(stride int) { setupInstanceAttribsAt(stride, 0) }

// setupInstanceAttribsAt is setupInstanceAttribs reading from byte base of the buffer on.
func setupInstanceAttribsAt(stride int, base uintptr) {
	st := int32(viewport.InstanceSize * stride)
	for c := range uint32(4) {
		gl.EnableVertexAttribArray(locModel + c)
		gl.VertexAttribPointerWithOffset(locModel+c, 4, gl.FLOAT, false, st, base+uintptr(c*16))
		gl.VertexAttribDivisor(locModel+c, 1)
	}
	gl.EnableVertexAttribArray(locColor)
	gl.VertexAttribPointerWithOffset(locColor, 4, gl.FLOAT, false, st, base+uintptr(offColor))
	gl.VertexAttribDivisor(locColor, 1)
	gl.EnableVertexAttribArray(locID)
	gl.VertexAttribIPointerWithOffset(locID, 1, gl.UNSIGNED_INT, st, base+uintptr(offID))
	gl.VertexAttribDivisor(locID, 1)
	gl.EnableVertexAttribArray(locFlags)
	gl.VertexAttribIPointerWithOffset(locFlags, 1, gl.UNSIGNED_INT, st, base+uintptr(offFlags))
	gl.VertexAttribDivisor(locFlags, 1)
}

// deleteChunk frees a chunk's buffer and vertex array.
func deleteChunk(cs *chunkState) {
	if cs.vao != 0 {
		gl.DeleteVertexArrays(1, &cs.vao)
	}
	if cs.vbo != 0 {
		gl.DeleteBuffers(1, &cs.vbo)
	}
	if cs.tex != 0 {
		gl.DeleteTextures(1, &cs.tex)
	}
	*cs = chunkState{}
}

// listState is the GPU side of one DrawList: its batches' chunk buffers.
type listState struct {
	dl      *viewport.DrawList
	batches []batchState
	used    uint64 // the picture serial it was last drawn in
	// lost is true when a chunk the front picture shows lost its state (its mesh changed, or the list dropped
	// it): the next picture cannot be a patch (patch.go).
	lost bool
	// forgotten: Forget was called for dl; its state is freed at the next picture of another list.
	forgotten bool
}

// Forget frees what the renderer keeps for dl — its GPU buffers (in llvmpipe, copies in the C heap) and its
// reference to the list — when it next draws another list: for a list that will not be drawn again, such as the
// preview of a dialog that closed (the renderer keeps the states of the last maxLists lists drawn, so switching
// between the scene and a preview uploads only what changed). Drawing dl again later uploads it whole.
func (r *Renderer) Forget(dl *viewport.DrawList) {
	for _, ls := range r.lists {
		if ls.dl == dl {
			ls.forgotten = true
		}
	}
}

// maxLists is how many draw lists keep their GPU buffers (the scene's and the grid dialog's preview): switching
// between them uploads only what changed.
const maxLists = 2

func (ls *listState) delete() {
	for i := range ls.batches {
		for j := range ls.batches[i].chunks {
			deleteChunk(&ls.batches[i].chunks[j])
		}
	}
	ls.batches = nil
}

// resetBatches frees the GPU state of every draw list.
func (r *Renderer) resetBatches() {
	r.keptPics = [maxLists]keptPicture{}
	for _, ls := range r.lists {
		ls.delete()
	}
	r.lists, r.list = nil, nil
}

// syncBatches makes r.list the GPU state of dl (keeping the states of the maxLists lists drawn last; a list seen
// for the first time, or again after its state was dropped, is uploaded whole) and brings its batch-level state up
// to date: meshes are uploaded once per *assets.Mesh (and freed when no list uses them any more), every batch and
// chunk has its state (the buffers of chunks a list dropped are freed). Instance data is uploaded later, chunk by
// chunk, when a chunk is drawn.
func (r *Renderer) syncBatches(dl *viewport.DrawList) {
	// The forgotten lists go first (dl, if it is one, is drawn again): a list drawn after a replaced preview does
	// not push out the scene's, which the least recently used rule below would.
	kept := r.lists[:0]
	for _, ls := range r.lists {
		if ls.forgotten && ls.dl != dl {
			r.forgetKept(ls.dl)
			ls.delete()
			continue
		}
		kept = append(kept, ls)
	}
	clear(r.lists[len(kept):])
	r.lists = kept
	r.list = nil
	for _, ls := range r.lists {
		if ls.dl == dl {
			r.list = ls
		}
	}
	if r.list == nil {
		if len(r.lists) == maxLists { // drop the one drawn least recently
			old := 0
			for i, ls := range r.lists {
				if ls.used < r.lists[old].used {
					old = i
				}
			}
			r.forgetKept(r.lists[old].dl)
			r.lists[old].delete()
			r.lists = append(r.lists[:old], r.lists[old+1:]...)
		}
		r.list = &listState{dl: dl}
		r.lists = append(r.lists, r.list)
		for _, b := range dl.Batches() {
			b.MarkAllDirty() // new to this renderer: everything is uploaded
		}
	}
	r.list.forgotten = false // drawn again
	r.list.used = r.serial
	for _, gm := range r.meshes {
		gm.used = false
	}
	for _, ls := range r.lists {
		for i, b := range ls.dl.Batches() {
			if i < len(ls.batches) && b.Mesh != nil {
				if gm, ok := r.meshes[b.Mesh]; ok {
					gm.used = true
				}
			}
		}
	}
	for i, b := range dl.Batches() {
		if i == len(r.list.batches) {
			r.list.batches = append(r.list.batches, batchState{})
		}
		bs := &r.list.batches[i]
		old := bs.mesh
		bs.mesh = nil
		if b.Mesh != nil {
			bs.mesh = r.mesh(b.Mesh)
			bs.mesh.used = true
		}
		if old != bs.mesh {
			r.list.lost = true
		}
		n := len(b.Chunks())
		for j := n; j < len(bs.chunks); j++ {
			if bs.chunks[j].shown != nil {
				r.list.lost = true
			}
			deleteChunk(&bs.chunks[j])
		}
		if n < len(bs.chunks) {
			bs.chunks = bs.chunks[:n]
		}
		for len(bs.chunks) < n {
			bs.chunks = append(bs.chunks, chunkState{})
		}
	}
	for m, gm := range r.meshes {
		if !gm.used {
			deleteMesh(gm)
			delete(r.meshes, m)
		}
	}
}

// uploadChunk makes cs ready to draw chunk c with mesh gm: its vertex array exists and reads gm, and its buffer
// holds c's instances (grown by doubling, a full upload; else only the dirty ranges, glBufferSubData). The
// chunk's dirty ranges are then cleared. Uploads are counted in st.
func (r *Renderer) uploadChunk(cs *chunkState, gm *gpuMesh, c *viewport.Chunk, st *Stats) {
	if cs.vao == 0 {
		gl.GenVertexArrays(1, &cs.vao)
		gl.GenBuffers(1, &cs.vbo)
		gl.BindVertexArray(cs.vao)
		gl.BindBuffer(gl.ARRAY_BUFFER, cs.vbo)
		setupInstanceAttribs(1)
		cs.stride = 1
	}
	if cs.mesh != gm {
		gl.BindVertexArray(cs.vao)
		setupMeshAttribs(gm)
		cs.mesh = gm
	}
	n := c.Len()
	const size = viewport.InstanceSize
	gl.BindBuffer(gl.ARRAY_BUFFER, cs.vbo)
	if n > cs.capacity {
		cs.capacity = max(n, 2*cs.capacity, minInstanceCapacity)
		gl.BufferData(gl.ARRAY_BUFFER, cs.capacity*size, nil, gl.DYNAMIC_DRAW)
		gl.BufferSubData(gl.ARRAY_BUFFER, 0, n*size, unsafe.Pointer(&c.Instances[0]))
		r.countUpload(st, n*size)
		if cs.tex == 0 {
			cs.tex = bufferTexture(cs.vbo, gl.RG32UI)
		}
	} else if d := c.DirtyCount(); d >= respecifyMin && 2*d >= n {
		// Most of the chunk changed (the undo of a delete, a regroup): its buffer gets new storage, filled whole
		// in one call rather than range by range. (It was made for memory: writing the ranges into the storage
		// the last pictures drew from seemed to make llvmpipe keep about 370 bytes an instance besides; measured
		// as the C heap's bytes in use, TestUndoKeepsNoGLCopies finds no such copies on either path — that figure
		// was a second llvmpipe scene in flight, which the resident memory showed in some runs only.)
		gl.BufferData(gl.ARRAY_BUFFER, cs.capacity*size, nil, gl.DYNAMIC_DRAW)
		gl.BufferSubData(gl.ARRAY_BUFFER, 0, n*size, unsafe.Pointer(&c.Instances[0]))
		r.countUpload(st, n*size)
	} else {
		for _, rg := range c.Dirty() {
			gl.BufferSubData(gl.ARRAY_BUFFER, rg.Start*size, rg.Len()*size, unsafe.Pointer(&c.Instances[rg.Start]))
			r.countUpload(st, rg.Len()*size)
		}
	}
	c.ClearDirty()
}

// uploadSelection sends dl's selection (a byte per id) to the selection texture: selTexWidth ids a row.
func (r *Renderer) uploadSelection(dl *viewport.DrawList) {
	sel := dl.SelectionBytes()
	rows := max(1, (len(sel)+selTexWidth-1)/selTexWidth)
	if cap(r.selScratch) < rows*selTexWidth {
		r.selScratch = make([]byte, rows*selTexWidth)
	}
	buf := r.selScratch[:rows*selTexWidth]
	clear(buf[copy(buf, sel):])
	if r.selTex == 0 {
		gl.GenTextures(1, &r.selTex)
		gl.BindTexture(gl.TEXTURE_2D, r.selTex)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
	}
	gl.BindTexture(gl.TEXTURE_2D, r.selTex)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	if rows != r.selRows {
		gl.TexImage2D(gl.TEXTURE_2D, 0, gl.R8UI, selTexWidth, int32(rows), 0, gl.RED_INTEGER, gl.UNSIGNED_BYTE, unsafe.Pointer(&buf[0]))
		r.selRows = rows
	} else {
		gl.TexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, selTexWidth, int32(rows), gl.RED_INTEGER, gl.UNSIGNED_BYTE, unsafe.Pointer(&buf[0]))
	}
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	gl.BindTexture(gl.TEXTURE_2D, 0)
	r.totalUploaded += uint64(len(buf))
}

// uploadStats are the statistics uploads count into: those of the picture being drawn.
func (r *Renderer) uploadStats() *Stats {
	if r.job != nil {
		return &r.job.stats
	}
	return nil
}
