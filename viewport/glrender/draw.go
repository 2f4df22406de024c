package glrender

import (
	"math"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/viewport"
)

// Render draws dl as seen by cam into the framebuffer (the size set by
// Resize), then outlines the selection if there is one. Only the instance ranges dl
// marked dirty since the last render are uploaded, so a DrawList must feed
// one Renderer (Render consumes its dirty ranges); passing a different
// DrawList re-uploads everything. Each visible batch with a mesh is one
// instanced draw call. It returns an error if GL reported one.
func (r *Renderer) Render(dl *viewport.DrawList, cam viewport.Camera) error {
	r.check("Render")
	if dl == nil {
		panic("glrender: Renderer.Render needs a DrawList: pass viewport.NewDrawList() for an empty scene")
	}
	f, ok := r.beginScene(dl, cam)
	if !ok {
		return nil
	}
	p := r.meshProg
	gl.UseProgram(p.id)
	r.lightUniforms(p, f.vp, f.eye)
	r.eachVisibleBatch(dl, f, func(st *batchState, b *viewport.Batch) int {
		gl.BindVertexArray(st.vao)
		gl.DrawElementsInstanced(gl.TRIANGLES, st.mesh.indexCount, gl.UNSIGNED_INT, nil, int32(b.Len()))
		return 1
	})
	return r.endScene(dl, cam, f)
}

// frame is what the passes of one render share.
type frame struct {
	vp      mgl32.Mat4 // projection × view
	eye     mgl32.Vec3
	frustum viewport.Frustum
}

// beginScene starts a render: statistics reset, dl's changes uploaded, the scene framebuffer cleared and set up
// for the mesh pass. ok is false when there is nothing to draw into (size 0).
func (r *Renderer) beginScene(dl *viewport.DrawList, cam viewport.Camera) (f frame, ok bool) {
	s := &r.stats
	s.DrawCalls, s.Instances, s.Triangles, s.CulledBatches, s.UploadedBytes, s.UploadCalls = 0, 0, 0, 0, 0, 0
	if r.w == 0 || r.h == 0 {
		return frame{}, false
	}
	r.sync(dl)
	f.vp = cam.Proj(float32(r.w) / float32(r.h)).Mul4(cam.View())
	f.eye = cam.Eye()
	f.frustum = viewport.NewFrustum(f.vp)

	gl.BindFramebuffer(gl.FRAMEBUFFER, r.sceneFBO)
	gl.Viewport(0, 0, int32(r.w), int32(r.h))
	gl.Disable(gl.SCISSOR_TEST)
	gl.ColorMask(true, true, true, true)
	gl.DepthMask(true)
	bg := r.Settings.Background
	clearColor := [4]float32{bg[0], bg[1], bg[2], 1}
	gl.ClearBufferfv(gl.COLOR, 0, &clearColor[0])
	var noID [4]uint32
	gl.ClearBufferuiv(gl.COLOR, 1, &noID[0])
	depth := float32(1)
	gl.ClearBufferfv(gl.DEPTH, 0, &depth)

	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LESS)
	gl.Disable(gl.BLEND)
	return f, true
}

// eachVisibleBatch calls draw for every batch of dl that has instances and a mesh and is not culled by the
// frustum, counting draw calls (what draw returns), instances, triangles and culled batches.
func (r *Renderer) eachVisibleBatch(dl *viewport.DrawList, f frame, draw func(st *batchState, b *viewport.Batch) int) {
	s := &r.stats
	for i, b := range dl.Batches() {
		st := &r.batches[i]
		n := b.Len()
		if n == 0 || st.mesh == nil {
			continue
		}
		if !f.frustum.IntersectsAABB(b.Bounds()) {
			s.CulledBatches++
			continue
		}
		s.DrawCalls += draw(st, b)
		s.Instances += n
		s.Triangles += n * st.mesh.triangles
	}
}

// endScene draws the grid and the selection outline over the meshes and finishes the render.
func (r *Renderer) endScene(dl *viewport.DrawList, cam viewport.Camera, f frame) error {
	if r.Settings.Grid {
		r.drawGrid(f.vp, f.eye, cam)
	}
	if r.Settings.Outline {
		r.drawOutline(dl, f.vp)
	}

	gl.BindVertexArray(0)
	gl.UseProgram(0)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.Disable(gl.DEPTH_TEST)
	r.stats.Renders++
	return glError("rendering")
}

func (r *Renderer) lightUniforms(p *program, vp mgl32.Mat4, eye mgl32.Vec3) {
	st := &r.Settings
	gl.UniformMatrix4fv(p.loc("uViewProj"), 1, false, &vp[0])
	l := st.LightDir
	if l.Len() == 0 {
		l = mgl32.Vec3{0, 1, 0}
	}
	l = l.Normalize()
	gl.Uniform3fv(p.loc("uLightDir"), 1, &l[0])
	gl.Uniform3fv(p.loc("uLightColor"), 1, &st.LightColor[0])
	gl.Uniform3fv(p.loc("uSky"), 1, &st.Sky[0])
	gl.Uniform3fv(p.loc("uGround"), 1, &st.Ground[0])
	gl.Uniform3fv(p.loc("uEye"), 1, &eye[0])
	gl.Uniform3fv(p.loc("uSelectColor"), 1, &st.SelectColor[0])
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

// drawGrid draws the ground grid over the scene, depth-tested against it,
// without touching depth or the id attachment (two passes: see gridFS).
func (r *Renderer) drawGrid(vp mgl32.Mat4, eye mgl32.Vec3, cam viewport.Camera) {
	p := r.gridProg
	gl.UseProgram(p.id)
	inv := vp.Inv()
	gl.UniformMatrix4fv(p.loc("uInvViewProj"), 1, false, &inv[0])
	rz, rw := vp.Row(2), vp.Row(3)
	gl.Uniform4fv(p.loc("uClipZ"), 1, &rz[0])
	gl.Uniform4fv(p.loc("uClipW"), 1, &rw[0])
	gl.Uniform3fv(p.loc("uEye"), 1, &eye[0])
	// The grid fades out well before float precision and line aliasing
	// become visible: a few times the view distance, at least 60 units.
	fade := max(60, 4*max(cam.Distance, float32(math.Abs(float64(eye[1])))*3))
	gl.Uniform1f(p.loc("uFade"), min(fade, cam.Far))
	gl.Uniform3fv(p.loc("uMinor"), 1, &r.Settings.GridMinor[0])
	gl.Uniform3fv(p.loc("uMajor"), 1, &r.Settings.GridMajor[0])
	gl.Uniform1f(p.loc("uDim"), gridDimBelow)
	gl.Uniform1f(p.loc("uBias"), gridDepthBias)
	gl.ColorMaski(1, false, false, false, false)
	gl.DepthMask(false)
	gl.Enable(gl.BLEND)
	gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE)
	gl.BindVertexArray(r.emptyVAO)
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
}

// selectionBox returns the world box around dl's selected instances,
// recomputed only when dl changed since the last call.
func (r *Renderer) selectionBox(dl *viewport.DrawList) (viewport.AABB, bool) {
	if r.sel.dl == dl && r.sel.version == dl.Version() {
		return r.sel.box, r.sel.any
	}
	box, any := viewport.EmptyAABB(), false
	for _, b := range dl.Batches() {
		local := viewport.MeshBounds(b.Mesh)
		for i := range b.Instances {
			if in := &b.Instances[i]; in.Selected() {
				box, any = box.Union(local.Transform(in.World)), true
			}
		}
	}
	r.sel.dl, r.sel.version, r.sel.box, r.sel.any = dl, dl.Version(), box, any
	return box, any
}

// scissorFor returns the framebuffer rectangle (GL coordinates) covering
// box seen through vp, with room for the outline; the whole framebuffer
// when a corner is behind the camera.
func (r *Renderer) scissorFor(box viewport.AABB, vp mgl32.Mat4) (x, y, w, h int32) {
	const pad = 3
	x0, y0, x1, y1 := float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Inf(-1))
	for i := range 8 {
		c := box.Min
		for a := range 3 {
			if i&(1<<a) != 0 {
				c[a] = box.Max[a]
			}
		}
		p := vp.Mul4x1(c.Vec4(1))
		if p[3] <= 1e-6 {
			return 0, 0, int32(r.w), int32(r.h)
		}
		sx := (p[0]/p[3]*0.5 + 0.5) * float32(r.w)
		sy := (p[1]/p[3]*0.5 + 0.5) * float32(r.h)
		x0, y0, x1, y1 = min(x0, sx), min(y0, sy), max(x1, sx), max(y1, sy)
	}
	ix0 := max(int32(math.Floor(float64(x0)))-pad, 0)
	iy0 := max(int32(math.Floor(float64(y0)))-pad, 0)
	ix1 := min(int32(math.Ceil(float64(x1)))+pad, int32(r.w))
	iy1 := min(int32(math.Ceil(float64(y1)))+pad, int32(r.h))
	return ix0, iy0, max(ix1-ix0, 0), max(iy1-iy0, 0)
}

// drawOutline outlines the selected entities: a full-screen pass over the
// id attachment, blended onto the output and scissored to the selection's
// screen rectangle, skipped when nothing is selected.
func (r *Renderer) drawOutline(dl *viewport.DrawList, vp mgl32.Mat4) {
	box, any := r.selectionBox(dl)
	if !any {
		return
	}
	x, y, w, h := r.scissorFor(box, vp)
	if w == 0 || h == 0 {
		return
	}
	p := r.outlineProg
	gl.BindFramebuffer(gl.FRAMEBUFFER, r.outFBO) // the output alone: the id texture is only read
	gl.Disable(gl.DEPTH_TEST)
	gl.Enable(gl.SCISSOR_TEST)
	gl.Scissor(x, y, w, h)
	gl.Enable(gl.BLEND)
	gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE)
	gl.UseProgram(p.id)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindTexture(gl.TEXTURE_2D, r.idTex)
	gl.Uniform1i(p.loc("uIDs"), 0)
	gl.Uniform3fv(p.loc("uSelectColor"), 1, &r.Settings.SelectColor[0])
	gl.BindVertexArray(r.emptyVAO)
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	gl.BindTexture(gl.TEXTURE_2D, 0)
	gl.Disable(gl.BLEND)
	gl.Disable(gl.SCISSOR_TEST)
}
