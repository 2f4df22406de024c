package glrender

import (
	"strings"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/viewport"
)

// The per-entity ways of drawing that BenchmarkRender100k compares instancing with. They live in this test file:
// the renderer's own draw path knows nothing of them.

// drawMode selects how a benchmark frame submits instances.
type drawMode uint8

const (
	// drawInstanced: one glDrawElementsInstanced per batch (Renderer.Render).
	drawInstanced drawMode = iota
	// drawUniforms: per entity, set the model/colour/id uniforms and call
	// glDrawElements (the Phase-3a method with GL uniforms).
	drawUniforms
	// drawUBO: per entity, rewrite a uniform buffer, bind the mesh and call
	// glDrawElements — the Phase-3a plan literally (queue.write_buffer of
	// the uniform struct, set_vertex_buffer/set_index_buffer, draw_indexed).
	drawUBO
)

// entityBlockSize is the std140 size of the Entity uniform block: mat4,
// vec4, uvec4.
const entityBlockSize = 64 + 16 + 16

// entityBinding is the uniform buffer binding point of the Entity block.
const entityBinding = 1

// The per-entity vertex shaders: meshVS with its instance attributes replaced by uniforms or a uniform block.
const (
	uniformInputs = `uniform mat4 uModel;
uniform vec4 uColor;
uniform uint uID;
uniform uint uFlags;
`
	uniformRead = `	mat4 M = uModel;
	vColor = uColor;
	vID = uID;
	vFlags = uFlags;
`
	uboInputs = `layout(std140) uniform Entity {
	mat4 uModel;
	vec4 uColor;
	uvec4 uIDFlags;
};
`
	uboRead = `	mat4 M = uModel;
	vColor = uColor;
	vID = uIDFlags.x;
	vFlags = uIDFlags.y;
`
)

func perEntityVS(inputs, read string) string {
	if !strings.Contains(meshVS, meshInstanceInputs) || !strings.Contains(meshVS, meshInstanceRead) {
		panic("glrender: meshVS no longer holds meshInstanceInputs and meshInstanceRead; update baseline_test.go")
	}
	return strings.Replace(strings.Replace(meshVS, meshInstanceInputs, inputs, 1), meshInstanceRead, read, 1)
}

// baseline holds the per-entity programs and the VAOs of meshes without instance attributes, made on first use.
type baseline struct {
	uniformProg, uboProg [2]*program // [flat]: with FLAT_NORMAL for flat-shaded meshes (flat.go)
	ubo                  uint32
	vaos                 map[*gpuMesh]uint32
	// block is the Entity block staging area; a separate allocation, since
	// cgo refuses pointers into structs that also hold Go pointers.
	block []uint32
}

func (bl *baseline) program(mode drawMode, flat int) (*program, error) {
	var err error
	defines := [][]string{nil, {"FLAT_NORMAL"}}[flat]
	switch mode {
	case drawUniforms:
		if bl.uniformProg[flat] == nil {
			bl.uniformProg[flat], err = newProgram("per-entity mesh program", perEntityVS(uniformInputs, uniformRead), meshFS, defines,
				append(meshUniforms, "uModel", "uColor", "uID", "uFlags")...)
		}
		return bl.uniformProg[flat], err
	case drawUBO:
		if bl.uboProg[flat] == nil {
			if bl.uboProg[flat], err = newProgram("per-entity UBO mesh program", perEntityVS(uboInputs, uboRead), meshFS, defines, meshUniforms...); err != nil {
				return nil, err
			}
			gl.UniformBlockBinding(bl.uboProg[flat].id, gl.GetUniformBlockIndex(bl.uboProg[flat].id, gl.Str("Entity\x00")), entityBinding)
			if bl.ubo == 0 {
				gl.GenBuffers(1, &bl.ubo)
				gl.BindBuffer(gl.UNIFORM_BUFFER, bl.ubo)
				gl.BufferData(gl.UNIFORM_BUFFER, entityBlockSize, nil, gl.DYNAMIC_DRAW)
				gl.BindBuffer(gl.UNIFORM_BUFFER, 0)
			}
		}
		return bl.uboProg[flat], nil
	}
	panic("glrender: baseline.program: not a per-entity mode")
}

// render is Renderer.Render with the instances of each batch submitted the way mode says.
func (bl *baseline) render(r *Renderer, dl *viewport.DrawList, cam viewport.Camera, mode drawMode) error {
	if mode == drawInstanced {
		return r.Render(dl, cam)
	}
	if r.pics.t.w == 0 || r.pics.t.h == 0 {
		return nil
	}
	// A picture begun as Render begins one, its chunks drawn here instance by instance, finished as Render does.
	r.pics.job = nil
	r.pics.begin(pictureKey{dl: dl, version: dl.Version(), cam: cam, w: r.pics.t.w, h: r.pics.t.h, settings: r.Settings}, viewport.DrawOptions{})
	pic := r.pics.job
	pic.items = pic.items[:0]
	gl.BindFramebuffer(gl.FRAMEBUFFER, r.pics.t.back().fbo)
	gl.Viewport(0, 0, int32(r.pics.t.w), int32(r.pics.t.h))
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LESS)
	calls := 0
	for i, b := range dl.Batches() {
		if gm := r.pics.lists.cur.batches[i].mesh; gm != nil && b.Len() > 0 && pic.f.frustum.IntersectsAABB(b.Bounds()) {
			p, err := bl.program(mode, b2i(gm.flat))
			if err != nil {
				return err
			}
			gl.UseProgram(p.id)
			lightUniforms(p, &r.Settings, &pic.f)
			calls += bl.draw(mode, p, gm, b)
		}
	}
	r.pics.step(0)
	r.pics.shown.stats.DrawCalls = calls
	return glError("baseline render")
}

// draw submits every instance of b with its own draw call and returns the
// number of calls.
func (bl *baseline) draw(mode drawMode, p *program, gm *gpuMesh, b *viewport.Batch) int {
	vao, ok := bl.vaos[gm]
	if !ok {
		if bl.vaos == nil {
			bl.vaos = map[*gpuMesh]uint32{}
		}
		gl.GenVertexArrays(1, &vao)
		gl.BindVertexArray(vao)
		setupMeshAttribs(gm)
		bl.vaos[gm] = vao
	}
	gl.BindVertexArray(vao)
	instances := b.AppendInstances(nil)
	if mode == drawUniforms {
		lm, lc, li, lf := p.loc("uModel"), p.loc("uColor"), p.loc("uID"), p.loc("uFlags")
		for i := range instances {
			in := &instances[i]
			gl.UniformMatrix4fv(lm, 1, false, &in.World[0])
			gl.Uniform4fv(lc, 1, &in.Color[0])
			gl.Uniform1ui(li, in.ID)
			gl.Uniform1ui(lf, in.Flags)
			gl.DrawElements(gl.TRIANGLES, gm.indexCount, gl.UNSIGNED_INT, nil)
		}
		return len(instances)
	}
	gl.BindBufferBase(gl.UNIFORM_BUFFER, entityBinding, bl.ubo)
	if bl.block == nil {
		bl.block = make([]uint32, entityBlockSize/4)
	}
	for i := range instances {
		in := &instances[i]
		// An Instance (mat4, vec4, ID, Flags) is the block's first 22 words.
		copy(bl.block, (*[viewport.InstanceSize / 4]uint32)(unsafe.Pointer(in))[:])
		gl.BufferSubData(gl.UNIFORM_BUFFER, 0, entityBlockSize, unsafe.Pointer(&bl.block[0]))
		gl.BindVertexArray(vao)
		gl.DrawElements(gl.TRIANGLES, gm.indexCount, gl.UNSIGNED_INT, nil)
	}
	return len(instances)
}

func (bl *baseline) delete() {
	for _, p := range append(bl.uniformProg[:], bl.uboProg[:]...) {
		p.delete()
	}
	if bl.ubo != 0 {
		gl.DeleteBuffers(1, &bl.ubo)
		bl.ubo = 0
	}
	for gm, vao := range bl.vaos {
		gl.DeleteVertexArrays(1, &vao)
		delete(bl.vaos, gm)
	}
}
