package glrender

import (
	"math"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/viewport"
)

// Render draws dl as seen by cam into the framebuffer (the size set by
// Resize) and composites the output texture. Only the instance ranges dl
// marked dirty since the last render are uploaded, so a DrawList must feed
// one Renderer (Render consumes its dirty ranges); passing a different
// DrawList re-uploads everything. Each visible batch with a mesh is one
// instanced draw call. It returns an error if GL reported one.
func (r *Renderer) Render(dl *viewport.DrawList, cam viewport.Camera) error {
	r.check("Render")
	return r.render(dl, cam, drawInstanced)
}

// render is Render with a choice of how instances are submitted (the
// per-entity modes exist for the benchmark).
func (r *Renderer) render(dl *viewport.DrawList, cam viewport.Camera, mode drawMode) error {
	s := &r.stats
	s.DrawCalls, s.Instances, s.Triangles, s.CulledBatches, s.UploadedBytes, s.UploadCalls = 0, 0, 0, 0, 0, 0
	if r.w == 0 || r.h == 0 {
		return nil
	}
	r.sync(dl)
	view := cam.View()
	vp := cam.Proj(float32(r.w) / float32(r.h)).Mul4(view)
	eye := cam.Eye()

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
	// gl.Disable(gl.CULL_FACE) // ZZ experiment
	p := r.meshProg
	if mode != drawInstanced {
		var err error
		if p, err = r.baseline.program(mode); err != nil {
			return err
		}
	}
	gl.UseProgram(p.id)
	r.lightUniforms(p, vp, eye)
	f := viewport.NewFrustum(vp)
	for i, b := range dl.Batches() {
		st := &r.batches[i]
		n := b.Len()
		if n == 0 || st.mesh == nil {
			continue
		}
		if !f.IntersectsAABB(b.Bounds()) {
			s.CulledBatches++
			continue
		}
		if mode != drawInstanced {
			s.DrawCalls += r.baseline.draw(mode, p, st.mesh, b)
		} else {
			gl.BindVertexArray(st.vao)
			gl.DrawElementsInstanced(gl.TRIANGLES, st.mesh.indexCount, gl.UNSIGNED_INT, nil, int32(n))
			s.DrawCalls++
		}
		s.Instances += n
		s.Triangles += n * st.mesh.triangles
	}

	if r.Settings.Grid {
		r.drawGrid(vp, eye, cam)
	}
	r.composite()

	gl.BindVertexArray(0)
	gl.UseProgram(0)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.Disable(gl.DEPTH_TEST)
	s.Renders++
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

// drawGrid draws the ground grid over the scene, depth-tested against it,
// without touching depth or the id attachment.
func (r *Renderer) drawGrid(vp mgl32.Mat4, eye mgl32.Vec3, cam viewport.Camera) {
	p := r.gridProg
	gl.UseProgram(p.id)
	inv := vp.Inv()
	gl.UniformMatrix4fv(p.loc("uInvViewProj"), 1, false, &inv[0])
	gl.UniformMatrix4fv(p.loc("uViewProj"), 1, false, &vp[0])
	gl.Uniform3fv(p.loc("uEye"), 1, &eye[0])
	// The grid fades out well before float precision and line aliasing
	// become visible: a few times the view distance, at least 60 units.
	fade := max(60, 4*max(cam.Distance, float32(math.Abs(float64(eye[1])))*3))
	gl.Uniform1f(p.loc("uFade"), min(fade, cam.Far))
	gl.Uniform3fv(p.loc("uMinor"), 1, &r.Settings.GridMinor[0])
	gl.Uniform3fv(p.loc("uMajor"), 1, &r.Settings.GridMajor[0])
	gl.ColorMaski(1, false, false, false, false)
	gl.DepthMask(false)
	gl.Enable(gl.BLEND)
	gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE)
	gl.BindVertexArray(r.emptyVAO)
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	gl.Disable(gl.BLEND)
	gl.DepthMask(true)
	gl.ColorMaski(1, true, true, true, true)
}

// composite copies the scene colour into the output texture and outlines
// the selection.
func (r *Renderer) composite() {
	p := r.compProg
	gl.BindFramebuffer(gl.FRAMEBUFFER, r.outFBO)
	gl.Disable(gl.DEPTH_TEST)
	gl.UseProgram(p.id)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindTexture(gl.TEXTURE_2D, r.colorTex)
	gl.ActiveTexture(gl.TEXTURE1)
	gl.BindTexture(gl.TEXTURE_2D, r.idTex)
	gl.Uniform1i(p.loc("uColor"), 0)
	gl.Uniform1i(p.loc("uIDs"), 1)
	gl.Uniform3fv(p.loc("uSelectColor"), 1, &r.Settings.SelectColor[0])
	outline := int32(0)
	if r.Settings.Outline {
		outline = 1
	}
	gl.Uniform1i(p.loc("uOutline"), outline)
	gl.BindVertexArray(r.emptyVAO)
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	gl.BindTexture(gl.TEXTURE_2D, 0)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindTexture(gl.TEXTURE_2D, 0)
}
