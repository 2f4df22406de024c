package glrender

import (
	"math"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/viewport"
)

// Render draws a new picture of dl as seen by cam at once: when it returns, the image shows it. It is Draw
// without a budget, and without reusing the picture on screen (for `voltex-editor render`, thumbnails and tests).
func (r *Renderer) Render(dl *viewport.DrawList, cam viewport.Camera) error {
	r.check("Render")
	r.job, r.have = nil, false
	_, err := r.Draw(dl, cam, viewport.DrawOptions{})
	return err
}

// Draw brings the image towards dl as seen by cam (see viewport.Renderer): the chunks in view are drawn nearest
// first into the back framebuffer, o.Budget's worth per call (the time measured with the GPU work finished, so
// that a software renderer's work counts), and the picture becomes the front one — shown and picked from — once
// complete; meanwhile the last complete picture stays on screen. Only the instances of the chunks drawn are
// uploaded, and only their dirty ranges, so a DrawList must feed one Renderer (Draw consumes its dirty ranges);
// passing a different DrawList re-uploads everything. With o.Interactive the picture is thinned to fit the
// budget and drawn at once; the first call without it draws the full picture at once (a thinned picture is shown
// only while the view moves). With o.Changing a picture begun of an older version of the list is finished rather
// than begun again. A change of the selection alone re-composes the image without drawing. It returns an error if
// GL reported one.
func (r *Renderer) Draw(dl *viewport.DrawList, cam viewport.Camera, o viewport.DrawOptions) (bool, error) {
	r.check("Draw")
	if dl == nil {
		panic("glrender: Renderer.Draw needs a DrawList: pass viewport.NewDrawList() for an empty scene")
	}
	if r.w == 0 || r.h == 0 {
		return true, nil
	}
	key := pictureKey{dl: dl, version: dl.Version(), cam: cam, w: r.w, h: r.h, settings: r.Settings}
	if o.PatchOnly && r.job != nil {
		return false, nil // a picture is being drawn: it goes on in the next frame
	}
	if r.job != nil && r.job.key != key && !(o.Changing && r.job.uploaded && sameView(r.job.key, key)) {
		r.job = nil // what it was drawing changed: start again
	}
	if r.job == nil {
		if r.have && r.shown.key == key && (!r.shown.coarse || o.Interactive) {
			r.compose(dl)
			return true, glError("composing the picture")
		}
		if r.restore(key) {
			return true, glError("restoring a kept picture")
		}
		if !r.begin(key, o) {
			return false, glError("planning a patch")
		}
	}
	budget := o.Budget
	if o.Interactive || r.job.inPlace {
		budget = 0 // planned to fit: all at once
	}
	if r.have && r.shown.coarse && !o.Interactive {
		budget = 0 // the view stopped: a thinned picture is not left on screen while the full one is drawn
	}
	r.step(budget)
	if r.job != nil {
		return false, glError("drawing")
	}
	return true, glError("drawing")
}

// sameView reports whether a and b are pictures of the same list (of any version) seen alike.
func sameView(a, b pictureKey) bool {
	a.version = b.version
	return a == b
}

// triangles sums the triangles of items.
func triangles(items []viewport.DrawItem) int {
	n := 0
	for _, it := range items {
		n += it.Triangles
	}
	return n
}

// frame is what the passes of one picture share.
type frame struct {
	vp      mgl32.Mat4 // projection × view
	eye     mgl32.Vec3
	frustum viewport.Frustum
}

// begin plans a picture of key (the chunks in view, nearest first; thinned to fit o.Budget when interactive) and
// clears the back framebuffer for it. With o.PatchOnly it begins only a patch drawn in place, and reports false
// (nothing begun) for anything else.
func (r *Renderer) begin(key pictureKey, o viewport.DrawOptions) bool {
	dl, cam := key.dl, key.cam
	r.serial++
	p := &picture{key: key, stride: 1, serial: r.serial, content: dl.ContentHash()}
	r.job = p
	r.syncBatches(dl)
	p.f.vp = cam.Proj(float32(r.w) / float32(r.h)).Mul4(cam.View())
	p.f.eye = cam.Eye()
	p.f.frustum = viewport.NewFrustum(p.f.vp)
	p.rect, p.patch, p.additive = r.patchRect(key, &p.f)
	if o.PatchOnly && (!p.patch || !p.additive && float64(p.rect[2])*float64(p.rect[3]) > maxPatchOnlyShare*float64(r.w*r.h)) {
		r.job = nil // a whole picture, or a patch too big to be drawn at once: no need to plan it now
		return false
	}
	r.items = dl.Visible(&p.f.frustum, p.f.eye, r.items[:0])
	p.items = r.items
	if p.patch {
		r.patchItems(p)
		// While the view or the scene changes frame after frame, a patch that fits the frame is drawn whole; one
		// that does not is given up for a thinned picture (the view moves), or a whole one drawn from the
		// instances as they are now (the scene changes: uploadItems; a patch over frames would read them later).
		if (o.Interactive || o.Changing) && o.Budget > 0 && r.pacer.Estimate(triangles(p.items)) > o.Budget {
			p.patch, p.additive, p.items, p.sub = false, false, r.items, nil
		}
	}
	chunks := 0
	for _, b := range dl.Batches() {
		for _, c := range b.Chunks() {
			if c.Len() > 0 && b.Mesh != nil {
				chunks++
			}
		}
	}
	p.stats.CulledChunks = chunks - len(p.items)
	if o.Interactive && o.Budget > 0 && !p.patch {
		var n int
		p.stride, n = r.pacer.Thin(p.items, o.Budget)
		p.coarse = p.stride > 1 || n < len(p.items)
		p.items = p.items[:n]
	}
	p.stats.Total, p.stats.Stride = dl.Len(), p.stride
	// Batches with instances and a mesh of which no chunk is in view.
	seen := make(map[int32]bool, len(dl.Batches()))
	for _, it := range p.items {
		seen[it.Batch] = true
	}
	for i, b := range dl.Batches() {
		if b.Len() > 0 && b.Mesh != nil && !seen[int32(i)] {
			p.stats.CulledBatches++
		}
	}

	if p.patch {
		// A patch that fits the budget is drawn at once, into the picture on screen.
		p.inPlace = o.Budget <= 0 || r.pacer.Estimate(triangles(p.items)) <= o.Budget
	}
	if o.PatchOnly && !p.inPlace {
		r.job = nil
		return false
	}
	if p.patch {
		r.beginPatch(p)
		return true
	}
	if o.Changing {
		r.uploadItems(p)
	}
	t := &r.targets[1-r.front]
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fbo)
	gl.Viewport(0, 0, int32(r.w), int32(r.h))
	gl.Disable(gl.SCISSOR_TEST)
	gl.ColorMask(true, true, true, true)
	gl.DepthMask(true)
	r.clearTarget()
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return true
}

// uploadItems uploads the instances of every chunk p draws now, so that p shows the list as it is, however it
// changes while p is drawn over later calls (DrawOptions.Changing): its steps then draw from the buffers alone.
func (r *Renderer) uploadItems(p *picture) {
	batches := p.key.dl.Batches()
	for _, it := range p.items {
		bs := &r.list.batches[it.Batch]
		cs := &bs.chunks[it.Chunk]
		c := batches[it.Batch].Chunks()[it.Chunk]
		r.uploadChunk(cs, bs.mesh, c, &p.stats)
		if bs.mesh.closed {
			scanMirrored(cs, c)
		}
	}
	p.uploaded = true
}

// maxPatchOnlyShare is the share of the image above which DrawOptions.PatchOnly does not plan a patch (sorting out
// the instances that reach into a big rectangle costs time, and such a patch seldom fits a frame).
const maxPatchOnlyShare = 0.25

// clearTarget clears the bound target's colour to the background, its id attachment to no entity
// and its depth to the far plane (within the scissor rectangle when one is on).
func (r *Renderer) clearTarget() {
	bg := r.Settings.Background
	clearColor := [4]float32{bg[0], bg[1], bg[2], 1}
	gl.ClearBufferfv(gl.COLOR, 0, &clearColor[0])
	var noID [4]uint32
	gl.ClearBufferuiv(gl.COLOR, 1, &noID[0])
	depth := float32(1)
	gl.ClearBufferfv(gl.DEPTH, 0, &depth)
}

// step draws the next chunks of the picture being drawn, about budget's worth (all when 0), and finishes the
// picture when none are left: the grid, then it becomes the front one and the image is composed.
func (r *Renderer) step(budget time.Duration) {
	p := r.job
	p.stats.Steps++
	dl := p.key.dl
	if budget > 0 {
		gl.Finish() // earlier work (the UI's last frame) is not this step's
	}
	start := time.Now()
	n := r.pacer.Take(p.items[p.next:], budget, p.stride)
	t := r.drawTarget(p)
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fbo)
	gl.Viewport(0, 0, int32(r.w), int32(r.h))
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LESS)
	gl.DepthMask(true)
	gl.Disable(gl.BLEND)
	r.scissor(p)
	stencil(p)
	for _, progs := range r.meshProgs {
		for _, prog := range progs {
			gl.UseProgram(prog.id)
			r.lightUniforms(prog, p.f.vp, p.f.eye)
			r.progInUse = prog
		}
	}
	tris := 0
	batches := dl.Batches()
	unflushed := 0 // triangles submitted since the last glFlush
	for k, it := range p.items[p.next : p.next+n] {
		if unflushed >= flushTriangles {
			gl.Flush()
			unflushed = 0
		}
		bs := &r.list.batches[it.Batch]
		cs := &bs.chunks[it.Chunk]
		if p.uploaded { // its instances are in the buffers: the list may have changed since (uploadItems)
			r.cull(cs, bs.mesh)
			count := (int(it.Instances) + p.stride - 1) / p.stride
			r.drawChunk(p, cs, bs.mesh, count)
			tris += count * bs.mesh.triangles
			unflushed += count * bs.mesh.triangles
			continue
		}
		c := batches[it.Batch].Chunks()[it.Chunk]
		if bs.mesh.closed {
			scanMirrored(cs, c)
		}
		r.cull(cs, bs.mesh)
		if p.sub != nil && p.sub[p.next+k].n >= 0 { // a patch's instances of a chunk reaching partly into it
			sr := p.sub[p.next+k]
			if sr.own { // the instances appended to the chunk, from its own buffer
				r.uploadChunk(cs, bs.mesh, c, &p.stats)
				if r.useMeshProgram(bs.mesh, cs.capacity) {
					r.drawPulled(bs.mesh, cs.tex, int(sr.off), 1, int(sr.n))
				} else {
					r.drawOwnInstanced(cs, bs.mesh, sr)
				}
			} else {
				r.drawPatchItem(bs.mesh, sr)
			}
			p.stats.DrawCalls++
			p.stats.Instances += int(sr.n)
			p.stats.Triangles += int(sr.n) * bs.mesh.triangles
			unflushed += int(sr.n) * bs.mesh.triangles
			continue
		}
		r.uploadChunk(cs, bs.mesh, c, &p.stats)
		count := (c.Len() + p.stride - 1) / p.stride
		r.drawChunk(p, cs, bs.mesh, count)
		tris += count * bs.mesh.triangles
		unflushed += count * bs.mesh.triangles
	}
	gl.BindVertexArray(0)
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	gl.Disable(gl.CULL_FACE)
	r.culling = false
	p.next += n
	if budget > 0 {
		gl.Finish()                 // what the GPU (or llvmpipe's threads) did counts
		if !p.patch || p.additive { // a patch's scissored triangles cost less than a whole picture's
			r.pacer.Measure(tris, time.Since(start))
		}
	}
	if p.next < len(p.items) {
		gl.Disable(gl.SCISSOR_TEST)
		gl.Disable(gl.STENCIL_TEST)
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		return
	}

	fixed := time.Now()
	if r.Settings.Grid {
		if p.additive { // the rest of the picture has the grid: only over the pixels the new instances won
			gl.StencilFunc(gl.EQUAL, 1, 0xff)
			gl.StencilOp(gl.KEEP, gl.KEEP, gl.KEEP)
		}
		r.drawGrid(p.f.vp, p.f.eye, p.key.cam)
	}
	gl.Disable(gl.STENCIL_TEST)
	gl.BindVertexArray(0)
	gl.UseProgram(0)
	gl.Disable(gl.SCISSOR_TEST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.Disable(gl.DEPTH_TEST)
	r.commitShown(p)
	if !p.inPlace {
		r.front = 1 - r.front
		r.keep(p)
	}
	p.stats.Thinned = p.coarse
	r.shown, r.have, r.job = *p, true, nil
	r.shown.items, r.shown.sub = nil, nil
	r.renders++
	r.compose(dl)
	if budget > 0 {
		gl.Finish()
		r.pacer.MeasureFixed(time.Since(fixed))
	}
}

// drawChunk draws count instances of a chunk's buffer (cs), every p.stride-th, and counts them in p's stats.
func (r *Renderer) drawChunk(p *picture, cs *chunkState, gm *gpuMesh, count int) {
	if r.useMeshProgram(gm, cs.capacity) {
		r.drawPulled(gm, cs.tex, 0, p.stride, count)
	} else {
		r.drawInstanced(cs, gm, p.stride, count)
	}
	p.stats.DrawCalls++
	p.stats.Instances += count
	p.stats.Triangles += count * gm.triangles
}

// flushTriangles is how many triangles a step submits between glFlush calls (about a chunk of cubes). Mesa's
// llvmpipe bins the triangles of a scene on the calling thread and rasterises it on its own threads once flushed:
// flushed a chunk at a time, the rasterisers work on one part while the next is binned, instead of after all of
// it (BenchmarkPicture100k: about half the wall time of a whole picture of 100,000 cubes, the same CPU).
const flushTriangles = 16384

// drawOwnInstanced draws the instances sr names of the chunk's own buffer (cs), instanced.
func (r *Renderer) drawOwnInstanced(cs *chunkState, gm *gpuMesh, sr subRange) {
	gl.BindVertexArray(cs.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, cs.vbo)
	setupInstanceAttribsAt(1, uintptr(int(sr.off)*viewport.InstanceSize))
	gl.DrawElementsInstanced(gl.TRIANGLES, gm.indexCount, gl.UNSIGNED_INT, nil, sr.n)
	setupInstanceAttribs(1)
	cs.stride = 1
}

// drawInstanced draws count instances of the chunk's buffer (cs), every stride-th, instanced.
func (r *Renderer) drawInstanced(cs *chunkState, gm *gpuMesh, stride, count int) {
	if cs.stride != stride {
		gl.BindVertexArray(cs.vao)
		gl.BindBuffer(gl.ARRAY_BUFFER, cs.vbo)
		setupInstanceAttribs(stride)
		cs.stride = stride
	}
	gl.BindVertexArray(cs.vao)
	gl.DrawElementsInstanced(gl.TRIANGLES, gm.indexCount, gl.UNSIGNED_INT, nil, int32(count))
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
	gl.Enable(gl.DEPTH_TEST)
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

// compose makes the image shown from the front picture and dl's selection: the picture itself when nothing is
// drawn selected; otherwise the picture with selected pixels tinted (a full-screen pass into the output texture)
// and, with Settings.Outline, outlined (a pass scissored to the selection's screen rectangle).
func (r *Renderer) compose(dl *viewport.DrawList) {
	front := &r.targets[r.front]
	if dl.SelectionLen() == 0 && dl.Flagged() == 0 {
		r.display = front.color
		return
	}
	key := composeKey{serial: r.shown.serial, selVersion: dl.SelectionVersion(), dl: dl, settings: r.Settings}
	if r.display == r.outTex && r.composed == key {
		return
	}
	r.composed = key
	r.uploadSelection(dl)
	gl.BindFramebuffer(gl.FRAMEBUFFER, r.outFBO)
	gl.Viewport(0, 0, int32(r.w), int32(r.h))
	gl.Disable(gl.DEPTH_TEST)
	gl.Disable(gl.BLEND)
	gl.BindVertexArray(r.emptyVAO)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindTexture(gl.TEXTURE_2D, front.color)
	gl.ActiveTexture(gl.TEXTURE1)
	gl.BindTexture(gl.TEXTURE_2D, front.ids)
	gl.ActiveTexture(gl.TEXTURE2)
	gl.BindTexture(gl.TEXTURE_2D, r.selTex)
	for _, p := range []*program{r.composeProg, r.outlineProg} {
		if p == r.outlineProg {
			if !r.Settings.Outline {
				break
			}
			box, _ := dl.SelectionBounds()
			if box.IsEmpty() {
				break
			}
			x, y, w, h := r.scissorFor(box, r.shown.f.vp)
			if w == 0 || h == 0 {
				break
			}
			gl.Enable(gl.SCISSOR_TEST)
			gl.Scissor(x, y, w, h)
			gl.Enable(gl.BLEND)
			gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE)
		}
		gl.UseProgram(p.id)
		gl.Uniform1i(p.loc("uColor"), 0)
		gl.Uniform1i(p.loc("uIDs"), 1)
		gl.Uniform1i(p.loc("uSel"), 2)
		gl.Uniform1i(p.loc("uSelRows"), int32(r.selRows))
		gl.Uniform3fv(p.loc("uSelectColor"), 1, &r.Settings.SelectColor[0])
		gl.DrawArrays(gl.TRIANGLES, 0, 3)
	}
	gl.Disable(gl.SCISSOR_TEST)
	gl.Disable(gl.BLEND)
	for _, u := range []uint32{gl.TEXTURE2, gl.TEXTURE1, gl.TEXTURE0} {
		gl.ActiveTexture(u)
		gl.BindTexture(gl.TEXTURE_2D, 0)
	}
	gl.BindVertexArray(0)
	gl.UseProgram(0)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	r.display = r.outTex
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
