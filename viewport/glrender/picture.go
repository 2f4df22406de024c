package glrender

import (
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/viewport"
)

// pictureCache decides how the image comes to show a list seen by a camera (show), and holds what that takes:
// the front picture (shown, picked from) and the one being drawn, the kept pictures (picture_keep.go), the GPU
// state of the lists drawn last (lists.go) and the patch's scratch (picture_patch.go). Of each picture asked for
// it either re-tints the one on screen (a selection change), shows a kept one again, adopts a preview's
// (picture_keep.go), patches the one on screen (picture_patch.go), or draws it whole — over several calls within a
// budget, or thinned to fit one while the view moves. All but the re-tint and the whole picture are the software
// renderer's paths (software.go): on a GPU every picture is drawn whole, at once, into the front target. The
// drawing itself is the drawer's.
type pictureCache struct {
	d        *drawer
	out      *composer
	set      *Settings
	software bool
	t        targets
	lists    listSet
	shown    picture  // the last complete picture (valid when have)
	have     bool     // a picture is in the front target
	job      *picture // the picture being drawn
	serial   uint64
	kept     keptPictures
	items    []viewport.DrawItem
	patch    patchScratch
	occ      occluder
	copies   pictureCopies // the instances drawn from index lists in the picture being drawn (copies.go)
	// noOcclusion: tests draw every chunk (occlude.go).
	noOcclusion bool
	// pacer learns from whole pictures and patches, thinPacer from thinned ones (pacerFor): points and
	// occlusion queries spare a whole picture's small and hidden instances far more than a thinned one's, so a
	// triangle of each costs its own.
	pacer, thinPacer viewport.Pacer
	renders          uint64
	waits            int // GPU waits (waitGPU): none on the GPU path
}

// pictureKey is what a picture shows: two equal keys draw the same picture.
type pictureKey struct {
	dl       *viewport.DrawList
	version  uint64
	cam      viewport.Camera
	w, h     int
	settings Settings
}

// picture is a picture being drawn (into the back target) or shown (the front one).
type picture struct {
	key    pictureKey
	f      frame
	items  []viewport.DrawItem
	next   int  // items drawn so far
	stride int  // every stride-th instance of each chunk is drawn
	coarse bool // thinned, or chunks left out
	patch  bool // drawn over the front picture, only inside rect (picture_patch.go)
	// additive: a patch that only draws new chunks over the picture, nothing cleared; inPlace: drawn into the
	// front target at once (a patch that fits the budget, or any picture on a GPU).
	additive, inPlace bool
	// uploaded: the instances of every item were uploaded when the picture began (uploadItems), and its steps
	// read the buffers only, not the list, which may have changed since.
	uploaded bool
	sub      []subRange // where each item's instances are read (picture_patch.go); nil: from their chunks
	rect     [4]int32
	stats    Stats
	points   int    // instances drawn as points (points.go)
	serial   uint64 // counts pictures begun
	content  uint64 // the list's ContentHash when it was begun
	between  bool   // of a state between undo steps (DrawOptions.Between): not kept when replaced
}

// wire connects the cache to the renderer's drawer, composer and settings.
func (c *pictureCache) wire(d *drawer, out *composer, set *Settings, software bool) {
	c.d, c.out, c.set, c.software = d, out, set, software
}

// drop forgets the picture on screen and any being drawn: the next picture is drawn whole.
func (c *pictureCache) drop() { c.job, c.have = nil, false }

// reset drops every picture (the targets are about to be made again).
func (c *pictureCache) reset() {
	c.drop()
	c.kept.pics = [maxLists]keptPicture{}
}

// free frees every GL object of the cache.
func (c *pictureCache) free() {
	c.reset()
	c.t.free()
	c.t.w, c.t.h = 0, 0
	c.lists.free()
	c.patch.buf.delete()
	c.occ.free()
	c.copies.free()
}

// stats are the statistics of the picture on screen, with the one being drawn and the pictures completed.
func (c *pictureCache) stats() Stats {
	s := c.shown.stats
	s.Renders = c.renders
	if p := c.job; p != nil {
		s.Pending, s.PendingDone, s.PendingOf = true, p.next, len(p.items)
	}
	return s
}

// show brings the image towards dl as seen by cam (Renderer.Draw) and reports whether it shows it now.
func (c *pictureCache) show(dl *viewport.DrawList, cam viewport.Camera, o viewport.DrawOptions) bool {
	if !c.software {
		o = viewport.DrawOptions{} // every picture whole, at once
	}
	key := pictureKey{dl: dl, version: dl.Version(), cam: cam, w: c.t.w, h: c.t.h, settings: *c.set}
	if o.PatchOnly && c.job != nil {
		return false // a picture is being drawn: it goes on in the next frame
	}
	if c.job != nil && c.job.key != key && !(o.Changing && c.job.uploaded && sameView(c.job.key, key)) {
		c.job = nil // what it was drawing changed: start again
	}
	if c.job == nil {
		if c.have && c.shown.key == key && (!c.shown.coarse || o.Interactive) {
			c.compose(dl) // the same picture: the selection may have changed
			// Asked for again once the edit ended: it is the picture of a step.
			c.shown.between = c.shown.between && o.Between
			return true
		}
		if c.software && c.restore(key) {
			return true
		}
		if !c.begin(key, o) {
			return false
		}
	}
	budget := o.Budget
	if o.Interactive || c.job.inPlace {
		budget = 0 // planned to fit: all at once
	}
	if c.have && c.shown.coarse && !o.Interactive {
		budget = 0 // the view stopped: a thinned picture is not left on screen while the full one is drawn
	}
	c.step(budget)
	if c.job == nil && c.shown.key == key {
		c.shown.between = c.shown.between && o.Between
	}
	return c.job == nil
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

// begin plans a picture of key (the chunks in view, nearest first; thinned to fit o.Budget when interactive) and
// clears the target it is drawn into. With o.PatchOnly it begins only a patch drawn in place, and reports false
// (nothing begun) for anything else.
func (c *pictureCache) begin(key pictureKey, o viewport.DrawOptions) bool {
	dl, cam := key.dl, key.cam
	c.serial++
	p := &picture{key: key, stride: 1, serial: c.serial, content: dl.ContentHash(), between: o.Between}
	c.job = p
	c.lists.sync(dl, c.d, c.serial, &p.stats, c.forgetKept)
	p.f.vp = cam.Proj(float32(key.w) / float32(key.h)).Mul4(cam.View())
	p.f.eye = cam.Eye()
	p.f.frustum = viewport.NewFrustum(p.f.vp)
	p.f.setRays(key.w, key.h)
	if c.software {
		p.rect, p.patch, p.additive = c.patchRect(key, &p.f)
	}
	if o.PatchOnly && (!p.patch || !p.additive && float64(p.rect[2])*float64(p.rect[3]) > maxPatchOnlyShare*float64(key.w*key.h)) {
		c.job = nil // a whole picture, or a patch too big to be drawn at once: no need to plan it now
		return false
	}
	c.items = dl.Visible(&p.f.frustum, p.f.eye, c.items[:0])
	p.items = c.items
	if p.patch {
		c.patchItems(p)
		// While the view or the scene changes frame after frame, a patch that fits the frame is drawn whole; one
		// that does not is given up for a thinned picture (the view moves), or a whole one drawn from the
		// instances as they are now (the scene changes: uploadItems; a patch over frames would read them later).
		if (o.Interactive || o.Changing) && o.Budget > 0 && c.pacer.Estimate(triangles(p.items)) > o.Budget {
			p.patch, p.additive, p.items, p.sub = false, false, c.items, nil
		}
	}
	c.countCulled(p)
	if o.Interactive && o.Budget > 0 && !p.patch {
		var n int
		p.stride, n = c.thinPacer.Thin(p.items, o.Budget)
		p.coarse = p.stride > 1 || n < len(p.items)
		p.items = p.items[:n]
	}
	p.stats.Total, p.stats.Stride = dl.Len(), p.stride
	switch {
	case p.patch: // a patch that fits the budget is drawn at once, into the picture on screen
		p.inPlace = o.Budget <= 0 || c.pacer.Estimate(triangles(p.items)) <= o.Budget
	case !c.software: // a GPU draws the whole picture at once: into the picture on screen too
		p.inPlace = true
	}
	if o.PatchOnly && !p.inPlace {
		c.job = nil
		return false
	}
	if p.patch {
		c.beginPatch(p)
		return true
	}
	if o.Changing {
		c.uploadItems(p)
	}
	c.t.bind(c.drawTarget(p))
	gl.Disable(gl.SCISSOR_TEST)
	clearTarget(c.set.Background)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return true
}

// countCulled counts in p's stats the chunks and batches out of view.
func (c *pictureCache) countCulled(p *picture) {
	chunks := 0
	batches := p.key.dl.Batches()
	for _, b := range batches {
		for _, ch := range b.Chunks() {
			if ch.Len() > 0 && b.Mesh != nil {
				chunks++
			}
		}
	}
	p.stats.CulledChunks = chunks - len(p.items)
	// Batches with instances and a mesh of which no chunk is in view.
	seen := make(map[int32]bool, len(batches))
	for _, it := range p.items {
		seen[it.Batch] = true
	}
	for i, b := range batches {
		if b.Len() > 0 && b.Mesh != nil && !seen[int32(i)] {
			p.stats.CulledBatches++
		}
	}
}

// uploadItems uploads the instances of every chunk p draws now, so that p shows the list as it is, however it
// changes while p is drawn over later calls (DrawOptions.Changing): its steps then draw from the buffers alone.
func (c *pictureCache) uploadItems(p *picture) {
	batches := p.key.dl.Batches()
	for _, it := range p.items {
		bs := &c.lists.cur.batches[it.Batch]
		cs := &bs.chunks[it.Chunk]
		ch := batches[it.Batch].Chunks()[it.Chunk]
		c.d.uploadChunk(&cs.buf, ch, &p.stats)
		if bs.mesh.closed {
			cs.scanMirrored(ch)
		}
		c.pointChunk(p, bs.mesh, bs.mat, cs, ch) // decided now: the steps do not read the list
		cs.box, cs.boxAt = ch.Bounds(), p.serial
	}
	p.uploaded = true
}

// maxPatchOnlyShare is the share of the image above which DrawOptions.PatchOnly does not plan a patch (sorting out
// the instances that reach into a big rectangle costs time, and such a patch seldom fits a frame).
const maxPatchOnlyShare = 0.25

// wait waits for the GL work issued so far (waitGPU), counting the waits.
func (c *pictureCache) wait() {
	c.waits++
	waitGPU()
}

// step draws the next chunks of the picture being drawn, about budget's worth (all when 0), and finishes the
// picture when none are left. A budget is the software path's only: its time is measured with the work done.
func (c *pictureCache) step(budget time.Duration) {
	p := c.job
	p.stats.Steps++
	if budget > 0 {
		c.wait() // earlier work (the UI's last frame) is not this step's
	}
	start := time.Now()
	pacer := c.pacerFor(p)
	n := pacer.Take(p.items[p.next:], budget, p.stride)
	c.t.bind(c.drawTarget(p))
	c.scissor(p)
	stencil(p)
	c.d.beginPass(&p.f, c.set)
	tris := c.drawItems(p, n)
	c.d.endPass()
	p.next += n
	if budget > 0 {
		c.wait()                    // what the GPU (or llvmpipe's threads) did counts
		if !p.patch || p.additive { // a patch's scissored triangles cost less than a whole picture's
			pacer.Measure(tris, time.Since(start))
		}
	}
	if p.next < len(p.items) {
		gl.Disable(gl.SCISSOR_TEST)
		gl.Disable(gl.STENCIL_TEST)
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		return
	}
	c.finish(p, budget)
}

// pacerFor is the pacer that plans p's steps and learns from them.
func (c *pictureCache) pacerFor(p *picture) *viewport.Pacer {
	if p.coarse {
		return &c.thinPacer
	}
	return &c.pacer
}

// flushTriangles is how many triangles a step submits between glFlush calls (about a chunk of cubes). Mesa's
// llvmpipe bins the triangles of a scene on the calling thread and rasterises it on its own threads once flushed:
// flushed a chunk at a time, the rasterisers work on one part while the next is binned, instead of after all of
// it (BenchmarkPicture100k: about half the wall time of a whole picture of 100,000 cubes, the same CPU).
const flushTriangles = 16384

// drawItems draws the n items of p from p.next (every p.stride-th instance of each), counting them in p's stats,
// and returns the triangles of the chunks drawn whole. On a software renderer the chunks past occludeFrom are drawn
// on their boxes' occlusion queries (occlude.go).
func (c *pictureCache) drawItems(p *picture, n int) int {
	tris := 0
	unflushed := 0 // triangles submitted since the last glFlush
	occ := c.occludes(p)
	for i := p.next; i < p.next+n; i++ {
		if unflushed >= flushTriangles {
			gl.Flush()
			unflushed = 0
		}
		if occ && i >= occludeFrom && (i == p.next || i == waveEnd(i-1)) {
			c.askWave(p, i, min(waveEnd(i), p.next+n))
		}
		q := uint32(0)
		if occ {
			q = c.occ.query(i)
		}
		if q != 0 {
			gl.BeginConditionalRender(q, gl.QUERY_WAIT)
		}
		t, whole, submitted := c.drawItem(p, i)
		if q != 0 {
			gl.EndConditionalRender()
		}
		unflushed += submitted
		if whole {
			tris += t
		}
	}
	return tris
}

// drawItem draws item i of p (every p.stride-th instance), counting it in p's stats. It returns its triangles
// (as the pacer plans them), whether it drew the whole chunk, and about how many triangles it submitted.
func (c *pictureCache) drawItem(p *picture, i int) (tris int, whole bool, submitted int) {
	it := p.items[i]
	bs := &c.lists.cur.batches[it.Batch]
	cs := &bs.chunks[it.Chunk]
	buf, base, stride, count := &cs.buf, 0, p.stride, 0
	whole = true
	var ch *viewport.Chunk // nil: not to be read (pointChunk decided in uploadItems)
	switch {
	case p.uploaded: // its instances are in the buffers: the list may have changed since (uploadItems)
		count = (int(it.Instances) + p.stride - 1) / p.stride
	case i < len(p.sub) && p.sub[i].n >= 0: // a patch's instances of a chunk reaching partly into it
		ch = p.key.dl.Batches()[it.Batch].Chunks()[it.Chunk]
		sr := p.sub[i]
		if sr.own { // the instances appended to the chunk, from its own buffer
			c.d.uploadChunk(&cs.buf, ch, &p.stats)
		} else {
			buf = &c.patch.buf
		}
		base, stride, count, whole = int(sr.off), 1, int(sr.n), false
	default:
		ch = p.key.dl.Batches()[it.Batch].Chunks()[it.Chunk]
		c.d.uploadChunk(&cs.buf, ch, &p.stats)
		count = (ch.Len() + p.stride - 1) / p.stride
	}
	p.stats.DrawCalls++
	p.stats.Instances += count
	if c.pointChunk(p, bs.mesh, bs.mat, cs, ch) {
		list, ebo, n := c.copyList(p, buf, ch, base, stride, count)
		if c.d.drawPoints(buf, bs.mesh, base, stride, count, list, ebo, n) {
			p.points += count
			return count * bs.mesh.triangles, whole, 2 * count // a point is set up as about two triangles
		}
	}
	if bs.mesh.closed && ch != nil { // (uploadItems scanned the others)
		cs.scanMirrored(ch) // a mirrored instance's triangles are not culled; points need no scan
	}
	t := c.d.drawInstances(buf, bs.mesh, bs.mat, base, stride, count, cs.mirrored)
	p.stats.Triangles += t
	return t, whole, t
}

// finish completes p: the grid, then it becomes the front picture and the image is composed.
func (c *pictureCache) finish(p *picture, budget time.Duration) {
	fixed := time.Now()
	c.copies.done()
	if c.set.Grid {
		if p.additive { // the rest of the picture has the grid: only over the pixels the new instances won
			gl.StencilFunc(gl.EQUAL, 1, 0xff)
			gl.StencilOp(gl.KEEP, gl.KEEP, gl.KEEP)
		}
		c.d.drawGrid(&p.f, p.key.cam, c.set)
	}
	gl.Disable(gl.STENCIL_TEST)
	gl.UseProgram(0)
	gl.Disable(gl.SCISSOR_TEST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.Disable(gl.DEPTH_TEST)
	c.commitShown(p)
	if !p.inPlace {
		c.t.flip()
		c.keep(p)
	}
	p.stats.Thinned = p.coarse
	c.shown, c.have, c.job = *p, true, nil
	c.shown.items, c.shown.sub = nil, nil
	c.renders++
	c.compose(p.key.dl)
	if budget > 0 {
		c.wait()
		c.pacerFor(p).MeasureFixed(time.Since(fixed))
	}
}

// compose makes the image shown from the front picture and dl's selection (the composer).
func (c *pictureCache) compose(dl *viewport.DrawList) {
	c.d.uploaded += uint64(c.out.compose(c.t.front(), c.shown.serial, c.shown.f.vp, dl, c.set))
}

// drawTarget is the target p is drawn into: the back one, or the front one for a picture drawn in place.
func (c *pictureCache) drawTarget(p *picture) *target {
	if p.inPlace {
		return c.t.front()
	}
	return c.t.back()
}
