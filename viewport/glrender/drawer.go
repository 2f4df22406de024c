package glrender

import (
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// drawer draws meshes' instances and the ground grid into the bound framebuffer: the programs and their uniforms,
// the meshes' buffers, the instance buffers' uploads, the draw calls. It knows nothing of pictures, what they
// reuse or over how many calls they are drawn (the picture cache decides that): a new way to draw a mesh
// (materials, textures, lights) is a change of this file, shaders.go, and the mesh's upload (upload.go).
type drawer struct {
	// meshProgs draw instances, one program per variant (variant.go): in their colours or with a material,
	// instanced or pulled (pull.go), smooth or with FLAT_NORMAL (flat.go), and the features a few meshes and
	// materials have (vertex colours, normal, occlusion and emissive maps, second texture coordinates); lit by one
	// directional light or by the loop over the lights. Those of the default rig in colours are made by init, the
	// others when first drawn.
	meshProgs [variantCount]*program
	pass      passState // the pass being drawn: what a program used in it is given
	gridProg  *program
	inUse     *program // the mesh program in use during a pass
	maxTexels int      // GL_MAX_TEXTURE_BUFFER_SIZE
	vao       uint32   // empty: the grid makes its vertices
	meshes    map[*assets.Mesh]*gpuMesh
	texMeshes map[*assets.Mesh]*gpuMesh // meshes whose texture coordinates are read: not welded
	materials map[*viewport.Material]*gpuMaterial
	textures  map[textureKey]*sharedTexture // 2D textures of the materials' images
	matSet    *gpuMaterial                  // the material whose uniforms matProg has (nil: none)
	matProg   *program
	blending  bool             // a blended material's state is set
	lights    []viewport.Light // the scene's (none: the default rig of the Settings)
	lightSet  lightUniformValues
	culling   bool // GL_CULL_FACE is on (during a pass)
	// gridUniforms are drawGrid's values GL is given pointers to (locals would escape: an allocation each).
	gridUniforms struct {
		inv    mgl32.Mat4
		rz, rw mgl32.Vec4
	}
	lightOrder []viewport.Light // the scene's lights sorted for a picture (pickLights)
	// pull and flat turn pulled drawing (pull.go: only a software renderer gains by it) and shared flat vertices
	// (flat.go) on; tests compare them with the plain instanced draw. Set before the first mesh is uploaded.
	pull, flat bool
	uploaded   uint64 // bytes uploaded since the renderer was made
	// pointProgs draw small box instances as points (points.go), lit by the loop over the lights or by one
	// directional light; made when first used. pointsFailed: they did not compile, or the context's points are too
	// small (triangles then).
	pointProgs   [2]*program
	pointVAO     uint32 // reads an instance buffer's instances as the points' vertices
	pointsFailed bool
	// Tests draw the points' instances as triangles (noPoints), the points off by pointMarginOff pixels a side,
	// every copy of an instance drawn before too (allCopies), or each chunk without its own copies only
	// (chunkCopiesOnly).
	noPoints        bool
	pointMarginOff  float32
	allCopies       bool
	chunkCopiesOnly bool
	copies          copyScan // uploadChunk's scratch for noteCopies
}

// meshUniforms are the uniforms every mesh program variant has.
var meshUniforms = append([]string{"uViewProj", "uSky", "uGround", "uEye", "uLightCount", "uLightPos", "uLightDir",
	"uLightColor", "uLightCone"}, materialUniforms...)

// init makes the programs; pull says whether small meshes are drawn pulled.
func (d *drawer) init(pull bool) error {
	d.meshes, d.texMeshes = map[*assets.Mesh]*gpuMesh{}, map[*assets.Mesh]*gpuMesh{}
	d.materials, d.textures = map[*viewport.Material]*gpuMaterial{}, map[textureKey]*sharedTexture{}
	d.pull, d.flat = pull, true
	for _, pulled := range []bool{false, pull} {
		for _, flat := range []bool{false, true} {
			if _, err := d.program(variantOf(&gpuMesh{flat: flat}, nil, pulled, true)); err != nil {
				return err
			}
		}
	}
	gl.UseProgram(0)
	var maxTexels int32
	gl.GetIntegerv(gl.MAX_TEXTURE_BUFFER_SIZE, &maxTexels)
	d.maxTexels = int(maxTexels)
	var pointSizes [2]float32
	gl.GetFloatv(gl.POINT_SIZE_RANGE, &pointSizes[0])
	d.pointsFailed = pointSizes[1] < 2*maxPointPixels // points as big as the boxes need are not drawn
	var err error
	if d.gridProg, err = newProgram("grid program", gridVS, gridFS, nil,
		"uInvViewProj", "uClipZ", "uClipW", "uEye", "uFade", "uMinor", "uMajor", "uPass", "uDim", "uBias"); err != nil {
		return err
	}
	gl.GenVertexArrays(1, &d.vao)
	return nil
}

// meshPrograms returns the mesh programs made so far.
func (d *drawer) meshPrograms() []*program {
	var ps []*program
	for _, p := range d.meshProgs {
		if p != nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// delete frees the programs and meshes.
func (d *drawer) delete() {
	d.keepMeshes(func(*assets.Mesh) bool { return false })
	d.keepMaterials(func(*viewport.Material) bool { return false })
	for _, p := range append(d.meshPrograms(), d.gridProg, d.pointProgs[0], d.pointProgs[1]) {
		p.delete()
	}
	if d.vao != 0 {
		gl.DeleteVertexArrays(1, &d.vao)
	}
	if d.pointVAO != 0 {
		gl.DeleteVertexArrays(1, &d.pointVAO)
	}
}

// frame is what the passes of one picture share.
type frame struct {
	vp      mgl32.Mat4 // projection × view
	eye     mgl32.Vec3
	frustum viewport.Frustum
	// The target's size in pixels and the world rays through its pixels (setRays: the points' uRays).
	size [2]float32
	rays [6]mgl32.Vec3
}

// beginPass readies the bound framebuffer for instances seen through f, lit as s says: depth-tested, no blending,
// the lights picked; each mesh program gets the pass's uniforms when first used in it (useMeshProgram).
func (d *drawer) beginPass(f *frame, s *Settings) {
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LESS)
	gl.DepthMask(true)
	gl.Disable(gl.BLEND)
	gl.Enable(gl.PROGRAM_POINT_SIZE) // points.go
	d.pickLights(&d.lightSet, s, f.eye)
	d.pass = passState{frame: f, settings: s, serial: d.pass.serial + 1}
	d.inUse = nil
	d.matSet, d.matProg = nil, nil
}

// passState is what the programs of a pass are given.
type passState struct {
	frame    *frame
	settings *Settings
	serial   uint64 // counts the passes (program.pass)
}

// passUniforms gives prog, in use, the pass's view and lights, unless it has them.
func (d *drawer) passUniforms(prog *program) {
	if prog.pass == d.pass.serial {
		return
	}
	lightUniforms(prog, d.pass.settings, d.pass.frame)
	d.lightSet.set(prog)
	prog.pass = d.pass.serial
}

// endPass undoes what the pass's draws bound.
func (d *drawer) endPass() {
	gl.BindVertexArray(0)
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	gl.Disable(gl.CULL_FACE)
	gl.Disable(gl.PROGRAM_POINT_SIZE)
	d.culling = false
	d.blend(false)
	d.pass.frame, d.pass.settings = nil, nil
}

// drawInstances draws count instances of buf with mesh gm and material mat (nil: the instances' colours) —
// instance base + k×stride — pulled when it can, else instanced; mirrored says that one of them is mirrored (no
// back-face culling then). It returns the triangles.
func (d *drawer) drawInstances(buf *instanceBuffer, gm *gpuMesh, mat *gpuMaterial, base, stride, count int, mirrored bool) int {
	d.cull((gm.closed || mat.singleSided()) && !mirrored)
	d.blend(mat != nil && mat.blend)
	pulled := d.useMeshProgram(gm, buf.capacity, mat)
	if mat != nil {
		d.useMaterial(mat)
	}
	if pulled {
		d.drawPulled(gm, buf.tex, base, stride, count)
		return count * gm.triangles
	}
	gl.BindVertexArray(buf.vao)
	if buf.mesh != gm {
		setupMeshAttribs(gm)
		buf.mesh = gm
	}
	if buf.stride != stride || buf.base != base {
		gl.BindBuffer(gl.ARRAY_BUFFER, buf.vbo)
		setupInstanceAttribs(stride, uintptr(base*viewport.InstanceSize), 1)
		buf.stride, buf.base = stride, base
	}
	gl.DrawElementsInstanced(gl.TRIANGLES, gm.indexCount, gl.UNSIGNED_INT, nil, int32(count))
	return count * gm.triangles
}

// cull turns back-face culling on or off.
func (d *drawer) cull(on bool) {
	if on != d.culling {
		if on {
			gl.Enable(gl.CULL_FACE)
		} else {
			gl.Disable(gl.CULL_FACE)
		}
		d.culling = on
	}
}

// lightUniforms gives p, in use, the view and the ambient light of a pass (GL is given pointers into f and st:
// those into copies would make the copies escape, an allocation each).
func lightUniforms(p *program, st *Settings, f *frame) {
	gl.UniformMatrix4fv(p.loc("uViewProj"), 1, false, &f.vp[0])
	gl.Uniform3fv(p.loc("uSky"), 1, &st.Sky[0])
	gl.Uniform3fv(p.loc("uGround"), 1, &st.Ground[0])
	gl.Uniform3fv(p.loc("uEye"), 1, &f.eye[0])
}

// How the grid meets the scene: over geometry below the ground its lines keep
// gridDimBelow of their strength (the geometry stays clear, as through a
// glass floor), and its depth is pushed back by gridDepthBias of the distance
// so that a floor at y = 0 covers it without z-fighting (2 mm at 4 units,
// 5 cm at 100; 24-bit depth resolves far less at those distances).
const (
	gridDimBelow  = 0.25
	gridDepthBias = 5e-4
)

// drawGrid draws the ground grid over the scene in the bound framebuffer, depth-tested against it,
// without touching depth or the id attachment (two passes: see gridFS).
func (d *drawer) drawGrid(f *frame, cam viewport.Camera, s *Settings) {
	p := d.gridProg
	vp, eye := f.vp, f.eye
	gl.UseProgram(p.id)
	u := &d.gridUniforms
	u.inv, u.rz, u.rw = vp.Inv(), vp.Row(2), vp.Row(3)
	gl.UniformMatrix4fv(p.loc("uInvViewProj"), 1, false, &u.inv[0])
	gl.Uniform4fv(p.loc("uClipZ"), 1, &u.rz[0])
	gl.Uniform4fv(p.loc("uClipW"), 1, &u.rw[0])
	gl.Uniform3fv(p.loc("uEye"), 1, &f.eye[0])
	// The grid fades out well before float precision and line aliasing
	// become visible: a few times the view distance, at least 60 units.
	fade := max(60, 4*max(cam.Distance, float32(math.Abs(float64(eye[1])))*3))
	gl.Uniform1f(p.loc("uFade"), min(fade, cam.Far))
	gl.Uniform3fv(p.loc("uMinor"), 1, &s.GridMinor[0])
	gl.Uniform3fv(p.loc("uMajor"), 1, &s.GridMajor[0])
	gl.Uniform1f(p.loc("uDim"), gridDimBelow)
	gl.Uniform1f(p.loc("uBias"), gridDepthBias)
	gl.ColorMaski(1, false, false, false, false)
	gl.DepthMask(false)
	gl.Enable(gl.DEPTH_TEST)
	gl.Enable(gl.BLEND)
	gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE)
	gl.BindVertexArray(d.vao)
	// Pass 0: wherever the plane is in front (background and geometry below the ground), dimmed.
	gl.Uniform1i(p.loc("uPass"), 0)
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	// Pass 1: only where nothing was drawn (the cleared depth), the rest of the lines' strength.
	gl.Uniform1i(p.loc("uPass"), 1)
	gl.DepthFunc(gl.EQUAL)
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	gl.DepthFunc(gl.LESS)
	gl.Disable(gl.BLEND)
	gl.DepthMask(true)
	gl.ColorMaski(1, true, true, true, true)
	gl.BindVertexArray(0)
	gl.UseProgram(0)
}

// instanceBuffer is a buffer of viewport.Instance (a chunk's, or a patch's selection of instances) with the vertex
// array and buffer texture that read it.
type instanceBuffer struct {
	vao, vbo uint32
	tex      uint32   // a buffer texture over vbo, for pulled drawing (pull.go)
	capacity int      // instances the buffer holds
	mesh     *gpuMesh // the mesh the vertex array reads
	// The instance the vertex array's attributes start at and the stride they read at.
	base, stride int
	// The instances uploaded from a chunk (uploadChunk), and when at least a quarter of them are copies of an
	// instance before them (the same world matrix: a field set on a whole grid stacks its cubes), the others'
	// indices, in ebo and keptIdx (none: nil).
	n       int
	ebo     uint32
	keptIdx []uint32
	// The index list of the picture being drawn (pictureCopies.indices): pkept instances, in pebo.
	pkept int
	pebo  uint32
}

// minInstanceCapacity is the smallest instance buffer allocated.
const minInstanceCapacity = 64

// respecifyMin is the fewest dirty instances for which a chunk that changed mostly gets new buffer storage
// (uploadChunk); fewer are written into the storage it has.
const respecifyMin = 64

// ensure makes the buffer's GL objects, and binds its buffer as the array buffer.
func (b *instanceBuffer) ensure() {
	if b.vao == 0 {
		gl.GenVertexArrays(1, &b.vao)
		gl.GenBuffers(1, &b.vbo)
		b.stride = -1 // the attributes are set at the first draw
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, b.vbo)
}

// grow gives the buffer room for n instances (new storage of usage, at least double), and reports whether it did.
func (b *instanceBuffer) grow(n int, usage uint32) bool {
	if n <= b.capacity {
		return false
	}
	b.capacity = max(n, 2*b.capacity, minInstanceCapacity)
	gl.BufferData(gl.ARRAY_BUFFER, b.capacity*viewport.InstanceSize, nil, usage)
	if b.tex == 0 {
		b.tex = bufferTexture(b.vbo, gl.RG32UI)
	}
	return true
}

// delete frees the buffer's GL objects.
func (b *instanceBuffer) delete() {
	if b.vao != 0 {
		gl.DeleteVertexArrays(1, &b.vao)
	}
	if b.vbo != 0 {
		gl.DeleteBuffers(1, &b.vbo)
	}
	if b.tex != 0 {
		gl.DeleteTextures(1, &b.tex)
	}
	for _, id := range []*uint32{&b.ebo, &b.pebo} {
		if *id != 0 {
			gl.DeleteBuffers(1, id)
		}
	}
	*b = instanceBuffer{}
}

// uploadChunk makes buf hold chunk c's instances (grown by doubling, a full upload; else only the dirty ranges,
// glBufferSubData) and clears the chunk's dirty ranges. Uploads are counted in st. The copies are found again only
// when the buffer's instances changed: a picture of a million unchanged ones looked at each again (noteCopies).
func (d *drawer) uploadChunk(buf *instanceBuffer, c *viewport.Chunk, st *Stats) {
	buf.ensure()
	n := c.Len()
	const size = viewport.InstanceSize
	dirty := c.Dirty()
	dc := 0
	for _, rg := range dirty {
		dc += rg.Len()
	}
	changed := n != buf.n || dc > 0
	switch {
	case buf.grow(n, gl.DYNAMIC_DRAW):
		gl.BufferSubData(gl.ARRAY_BUFFER, 0, n*size, unsafe.Pointer(&c.Instances[0]))
		d.countUpload(st, n*size)
	case dc >= respecifyMin && 2*dc >= n:
		// Most of the chunk changed (the undo of a delete, a regroup): its buffer gets new storage, filled whole
		// in one call rather than range by range. (It was made for memory: writing the ranges into the storage
		// the last pictures drew from seemed to make llvmpipe keep about 370 bytes an instance besides; measured
		// as the C heap's bytes in use, TestUndoKeepsNoGLCopies finds no such copies on either path — that figure
		// was a second llvmpipe scene in flight, which the resident memory showed in some runs only.)
		gl.BufferData(gl.ARRAY_BUFFER, buf.capacity*size, nil, gl.DYNAMIC_DRAW)
		gl.BufferSubData(gl.ARRAY_BUFFER, 0, n*size, unsafe.Pointer(&c.Instances[0]))
		d.countUpload(st, n*size)
	default:
		for _, rg := range dirty {
			gl.BufferSubData(gl.ARRAY_BUFFER, rg.Start*size, rg.Len()*size, unsafe.Pointer(&c.Instances[rg.Start]))
			d.countUpload(st, rg.Len()*size)
		}
	}
	c.ClearDirty()
	if changed {
		d.noteCopies(buf, c.Instances[:n])
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
}

// uploadInstances makes buf hold inst (a stream: written whole each time). Uploads are counted in st.
func (d *drawer) uploadInstances(buf *instanceBuffer, inst []viewport.Instance, st *Stats) {
	if len(inst) == 0 {
		return
	}
	buf.ensure()
	buf.grow(len(inst), gl.STREAM_DRAW)
	n := len(inst) * viewport.InstanceSize
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, n, unsafe.Pointer(&inst[0]))
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	d.countUpload(st, n)
}

// countUpload counts n bytes uploaded, in st too when it is not nil.
func (d *drawer) countUpload(st *Stats, n int) {
	if st != nil {
		st.UploadedBytes += n
		st.UploadCalls++
	}
	d.uploaded += uint64(n)
}
